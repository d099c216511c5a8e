"""The duel kernel: one against one when every attack of the fight is static (``tables.py``),
with the whole state in scalars.

Such a fight is initiative, then rounds of each fighter's turn, every attack read off its
table: one generator output gives both d100s (its low half) and the volley's hit die (its
high half), a Roll with Blow or Soak per hit one more output per later hit. The first blow
that takes a fighter to 0 Health ends it (CA79): killed outright or the Endurance roll, whose
colour the counters and categories keep. It draws the same numbers in the same order as the
general kernel (``kernel.py``), and the tests hold the two to the same outcomes bit for bit.
"""

from __future__ import annotations

import numpy as np

from ..._jit import jit
from ...engine.rng import trial_seed, xoshiro_bits
from .codes import (
    BLUE,
    GREEN,
    M_N_ACTIONS,
    M_SIDE,
    M_VAL_A,
    O_DEATH_IMMEDIATE,
    O_KILL_THREATENED,
    O_ROLL_NEXT_TURN,
    O_TIES,
    RED,
    S_HEALTH,
    S_HMAX,
    S_RANK_E,
    SUPER_CRIT,
    TAB_FIELD,
    TAB_NET_SHIFT,
    TAB_THR_SHIFT,
    TIE_AGILITY,
    TM_LATER,
    UNRESOLVED,
    YELLOW,
)
from .kernel import MAX_REROLLS
from .tables import entry

_LOW32 = np.uint64(0xFFFFFFFF)
_S32 = np.uint64(32)
_N10000 = np.uint64(10000)
_N100 = np.uint64(100)


@jit(inline="always")
def _die(x, value):
    return np.int64(((x & _LOW32) * np.uint64(max(value, 1))) >> _S32) + 1


@jit(inline="always")
def _fate(x, colour_tab, rank_col, values, opts, rank_e, hmax):
    """The Endurance roll at 0 Health (``fate.endurance_roll``) of a fight that is over:
    (colour, dead at once, unconscious, dying)."""
    roll = np.int64(((x & _LOW32) * _N100) >> _S32) + 1
    colour = colour_tab[rank_col[rank_e], roll]
    if colour == SUPER_CRIT:
        return colour, False, 0, 0  # awake (or fled): not out at the end
    if colour == RED or colour == YELLOW or colour == GREEN:
        return colour, False, 1, 0
    if colour == BLUE and rank_e - 2 <= 0 and opts[O_DEATH_IMMEDIATE] != 0:
        return colour, True, 0, 0
    return colour, False, 1, 1


@jit(inline="always")
def _hits(x, autofire, rounds):
    """The hits of a volley that landed: 1d(rounds) from the high half (K6), else 1."""
    if autofire:
        return np.int64(((x >> _S32) * np.uint64(rounds)) >> _S32) + 1
    return np.int64(1)


@jit
def run_chunk(key, first, n_trials, mem, opts, rank_col, colour_tab, values, pair_tab, tab,
              tab_later, tab_meta, st0, max_rounds, rounds, autofire, winner, end_slot,
              out_slot, death_slot, dealt, taken, attacks, landed, unconscious, dying, broken,
              severed, cat_colours, cat_rolls):  # fmt: skip
    """Trials ``first .. first + n_trials - 1`` of a duel; arguments as the general kernel's
    (``kernel.run_chunk``), plus ``rounds`` and ``autofire`` int64[2, MAX_ACTIONS]: the rounds
    each action fires and whether it is a volley."""
    k0, k1, k2, k3 = key[0], key[1], key[2], key[3]
    agi0, agi1 = mem[0, M_VAL_A], mem[1, M_VAL_A]
    n_act = np.zeros(2, np.int64)
    n_act[0], n_act[1] = mem[0, M_N_ACTIONS], mem[1, M_N_ACTIONS]
    # each action's table, volley flag, rounds and later-hit FEAT flag, by 8 * attacker + k
    act_p = np.zeros(16, np.int64)
    act_auto = np.zeros(16, np.bool_)
    act_rounds = np.ones(16, np.int64)
    act_later = np.zeros(16, np.bool_)
    for a in range(2):
        for kk in range(n_act[a]):
            p = pair_tab[a, kk, 1 - a]
            act_p[8 * a + kk] = p
            act_auto[8 * a + kk] = autofire[a, kk] != 0
            act_rounds[8 * a + kk] = rounds[a, kk]
            act_later[8 * a + kk] = tab_meta[p, TM_LATER] != 0
    # every action's table as a byte code per roll pair and the entries they stand for
    # (one load from 10 kB that stays in L1, one from 2 kB)
    codes = np.zeros(16 * 10000, np.uint8)
    entries = np.zeros(16 * 256, np.int64)
    for i in range(16):
        if act_p[i] < 0 or (i >= 8 and i - 8 >= n_act[1]) or (i < 8 and i >= n_act[0]):
            continue
        n_values = 0
        for jj in range(10000):
            v = entry(tab, act_p[i], jj)
            code = -1
            for c in range(n_values):
                if entries[256 * i + c] == v:
                    code = c
                    break
            if code < 0:
                code = n_values
                entries[256 * i + code] = v
                n_values += 1
            codes[10000 * i + jj] = code
    counts = np.zeros(16 * 256, np.int64)
    hmax0, hmax1 = st0[0, S_HMAX], st0[1, S_HMAX]
    rank_e0, rank_e1 = st0[0, S_RANK_E], st0[1, S_RANK_E]
    e0, e1 = values[rank_e0], values[rank_e1]
    side0, side1 = mem[0, M_SIDE], mem[1, M_SIDE]
    threatened = opts[O_KILL_THREATENED] != 0
    roll_now = opts[O_ROLL_NEXT_TURN] == 0
    agility_rule = opts[O_TIES] == TIE_AGILITY
    for j in range(n_trials):
        s0, s1, s2, s3 = trial_seed(k0, k1, k2, k3, first + j)
        # initiative (kernel.initiative for two)
        s0, s1, s2, s3, x = xoshiro_bits(s0, s1, s2, s3)
        i0 = _die(x, agi0)
        s0, s1, s2, s3, x = xoshiro_bits(s0, s1, s2, s3)
        i1 = _die(x, agi1)
        lead = 0 if i0 >= i1 else 1
        if i0 == i1:
            if agility_rule and agi0 != agi1:
                lead = 0 if agi0 > agi1 else 1
            elif agi0 > 1 or agi1 > 1:
                for _ in range(MAX_REROLLS):
                    s0, s1, s2, s3, x = xoshiro_bits(s0, s1, s2, s3)
                    r0 = _die(x, agi0)
                    s0, s1, s2, s3, x = xoshiro_bits(s0, s1, s2, s3)
                    r1 = _die(x, agi1)
                    if r0 != r1:
                        lead = 0 if r0 > r1 else 1
                        break
        hp0, hp1 = st0[0, S_HEALTH], st0[1, S_HEALTH]
        att0 = att1 = land0 = land1 = dealt0 = dealt1 = np.int64(0)
        result = UNRESOLVED
        finish = max_rounds
        loser = -1
        dead = False
        down = 0
        bleeding = 0
        for r in range(1, max_rounds + 1):
            for turn in range(2):
                a = lead if turn == 0 else 1 - lead
                t = 1 - a
                ht = hp1 if a == 0 else hp0
                got = np.int64(0)  # Health a's blows take this turn
                n_hits = np.int64(0)
                for kk in range(n_act[a]):
                    i = 8 * a + kk
                    p = act_p[i]
                    s0, s1, s2, s3, x = xoshiro_bits(s0, s1, s2, s3)
                    pair = ((x & _LOW32) * _N10000) >> _S32
                    code = np.uint64(codes[np.uint64(10000 * i) + pair])
                    v = entries[np.uint64(256 * i) + code]
                    counts[np.uint64(256 * i) + code] += 1
                    hit = v & 1
                    n_hits += hit
                    net = (v >> TAB_NET_SHIFT) & TAB_FIELD
                    if net <= 0 and (hit == 0 or not act_later[i]):
                        continue
                    ca = (v >> 1) & 7
                    hits = _hits(x, act_auto[i], act_rounds[i]) if hit != 0 else np.int64(1)
                    if not act_later[i] or hits == 1:
                        if net * hits < ht:  # no blow of the volley drops the target
                            ht -= net * hits
                            got += net * hits
                            continue
                        n = (ht + net - 1) // net  # the blow that drops it
                        ht -= (n - 1) * net
                        got += (n - 1) * net
                        blow_net = net
                    else:
                        n = 0
                        blow_net = net
                        for h in range(hits):
                            if h > 0:
                                s0, s1, s2, s3, x = xoshiro_bits(s0, s1, s2, s3)
                                roll = np.int64(((x & _LOW32) * _N100) >> _S32) + 1
                                blow_net = tab_later[p, ca * 101 + roll]
                            if blow_net > 0 and blow_net >= ht:
                                n = h + 1
                                break
                            if blow_net > 0:
                                ht -= blow_net
                                got += blow_net
                        if n == 0:
                            continue
                    # the blow that takes the target to 0 Health (``fate.land``)
                    loss = ht
                    got += loss
                    thr = (v >> TAB_THR_SHIFT) & TAB_FIELD
                    blow = thr if threatened else blow_net
                    e_t = e1 if t == 1 else e0
                    ht = 0
                    loser = t
                    if blow >= loss + e_t:
                        dead = True
                    elif roll_now:
                        s0, s1, s2, s3, x = xoshiro_bits(s0, s1, s2, s3)
                        colour, now, down, bleeding = _fate(
                            x, colour_tab, rank_col, values, opts, rank_e1 if t == 1 else rank_e0,
                            hmax1 if t == 1 else hmax0)  # fmt: skip
                        cat_rolls[t, colour] += 1
                        dead = now
                    else:
                        down = 1
                    break
                if a == 0:
                    hp1 = ht
                    dealt0 += got
                    att0 += n_act[0]
                    land0 += n_hits
                else:
                    hp0 = ht
                    dealt1 += got
                    att1 += n_act[1]
                    land1 += n_hits
                if loser >= 0:
                    break
            if loser >= 0:
                finish = r
                result = side1 if loser == 0 else side0
                break
        winner[j] = result
        end_slot[j] = finish
        out_slot[j, 0] = finish if loser == 0 else 0
        out_slot[j, 1] = finish if loser == 1 else 0
        death_slot[j, 0] = finish if loser == 0 and dead else 0
        death_slot[j, 1] = finish if loser == 1 and dead else 0
        dealt[j, 0], dealt[j, 1] = dealt0, dealt1
        taken[j, 0], taken[j, 1] = dealt1, dealt0
        attacks[j, 0], attacks[j, 1] = att0, att1
        landed[j, 0], landed[j, 1] = land0, land1
        for c in range(2):
            lost = loser == c and not dead
            unconscious[j, c] = down if lost else 0
            dying[j, c] = bleeding if lost else 0
            broken[j, c] = 0
            severed[j, c] = 0
    for i in range(16):
        for c in range(256):
            if counts[256 * i + c]:
                cat_colours[i // 8, (entries[256 * i + c] >> 1) & 7] += counts[256 * i + c]
