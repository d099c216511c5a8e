"""The duel kernel: one against one when every attack of the fight is static (``tables.py``),
with the whole state in scalars.

Such a fight is initiative, then rounds of each fighter's turn, every attack read off its
table: one generator output gives both d100s (its low half) and the volley's hit die (its
high half), a Roll with Blow or Soak per hit one more output per later hit. The first blow
that takes a fighter to 0 Health ends it (CA79): killed outright or the Endurance roll, whose
colour the counters and categories keep. It draws the same numbers in the same order as the
general kernel (``kernel.py``), and the tests hold the two to the same outcomes bit for bit.

What keeps an attack short (README "Speed"): each action's table is a byte code per roll
pair (``duel_tables``, worked out once per plan) and the entries the codes stand for; a turn
of one action whose later hits roll no FEAT (the common case) runs on a loop of its own, in
which an attack is one generator step, two loads, the volley's hits as an integer multiply
(1 for a miss or a single attack: no branch between the roll and the damage) and one
predictable test of whether the blow drops its target; the fighters' state stays in
registers, in the order initiative gave them. Trials go straight into the tally when the
run does not keep them (``accumulate``).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..._jit import INNER, jit
from ...engine.outcomes import tally_duel
from ...engine.rng import trial_seed, xoshiro_bits
from .codes import (
    BLUE,
    GREEN,
    M_N_ACTIONS,
    M_SIDE,
    M_VAL_A,
    MAX_ACTIONS,
    O_DEATH_IMMEDIATE,
    O_KILL_THREATENED,
    O_ROLL_NEXT_TURN,
    O_TIES,
    RED,
    S_HEALTH,
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

__all__ = ["N_DA", "DuelTables", "duel_tables", "run_chunk"]

_LOW32 = np.uint64(0xFFFFFFFF)
_S32 = np.uint64(32)
_N10000 = np.uint64(10000)
_N100 = np.uint64(100)
_NET = np.uint64(TAB_NET_SHIFT)
_THR = np.uint64(TAB_THR_SHIFT)
_FIELD = np.uint64(TAB_FIELD)

#: Columns of a duel action row (``duel_tables``): its byte codes' offset, its entries'
#: offset, the rounds its hit die has (1: a single attack), whether later hits roll their
#: own FEAT, its table (``tab_later``'s row).
DA_CODES, DA_ENTRIES, DA_ROUNDS, DA_LATER, DA_TABLE = range(5)
N_DA = 5


class DuelTables(NamedTuple):
    """What the duel kernel reads of a duel's static tables (``duel_tables``): ``act``
    (int64[2 * MAX_ACTIONS, N_DA]: each action's row, ``MAX_ACTIONS * attacker + k``, its
    columns ``DA_*``), ``codes`` (uint8: the byte code of every roll pair of each action,
    10,000 an action) and ``entries`` (int64: the entries the codes stand for, 256 an
    action)."""

    act: np.ndarray
    codes: np.ndarray
    entries: np.ndarray


@jit
def _decode(tab, p, out):
    for j in range(10000):
        out[j] = entry(tab, p, j)


def duel_tables(plan, rounds, autofire) -> DuelTables:
    """What the duel kernel reads of a duel's static tables, once per plan: ``act``
    (int64[2 * MAX_ACTIONS, N_DA], row ``MAX_ACTIONS * attacker + k``), the byte code of
    every roll pair of each action (uint8[2 * MAX_ACTIONS * 10000]) and the entries the codes
    stand for (int64[2 * MAX_ACTIONS * 256])."""
    act = np.zeros((2 * MAX_ACTIONS, N_DA), np.int64)
    act[:, DA_ROUNDS] = 1
    codes = np.zeros(2 * MAX_ACTIONS * 10000, np.uint8)
    entries = np.zeros(2 * MAX_ACTIONS * 256, np.int64)
    out = np.zeros(10000, np.int64)
    for a in range(2):
        for k in range(int(plan.mem[a, M_N_ACTIONS])):
            i = MAX_ACTIONS * a + k
            p = int(plan.pair_tab[a, k, 1 - a])
            if p < 0:
                continue
            _decode(plan.tab, p, out)
            values, code = np.unique(out, return_inverse=True)
            codes[10000 * i:10000 * (i + 1)] = code.astype(np.uint8)
            entries[256 * i:256 * i + len(values)] = values
            act[i] = (10000 * i, 256 * i, rounds[a, k] if autofire[a, k] else 1,
                      plan.tab_meta[p, TM_LATER] != 0, p)  # fmt: skip
    return DuelTables(act, codes, entries)


@jit(inline="always")
def _die(x, n):
    """1d``n`` (``n`` >= 1, uint64) from the low half of ``x``."""
    return np.int64(((x & _LOW32) * n) >> _S32) + 1


@jit(inline="always")
def _fate(x, colour_tab, rank_col, opts, rank_e):
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
def _drop(s0, s1, s2, s3, v, net, ht, e_t, rank_e, threatened, roll_now, colour_tab, rank_col,
          opts):  # fmt: skip
    """A blow of ``net`` (entry ``v``) that takes a target with ``ht`` Health to 0
    (``fate.land``): killed outright, or the Endurance roll now (one more generator step) or
    at its next turn. Returns the generator, (dead, unconscious, dying) and the colour rolled
    (-1: none)."""
    thr = np.int64((np.uint64(v) >> _THR) & _FIELD)
    blow = thr if threatened else net
    if blow >= ht + e_t:
        return s0, s1, s2, s3, True, 0, 0, -1
    if roll_now:
        s0, s1, s2, s3, x = xoshiro_bits(s0, s1, s2, s3)
        colour, now, down, bleeding = _fate(x, colour_tab, rank_col, opts, rank_e)
        return s0, s1, s2, s3, now, down, bleeding, colour
    return s0, s1, s2, s3, False, 1, 0, -1


@jit(inline="always")
def _lead(s0, s1, s2, s3, agi0, agi1, u_agi0, u_agi1, agility_rule, small):
    """Who acts first (``kernel.initiative`` for two): 1d(Agility) each, a tie to the higher
    Agility under ``agility_rule``, else re-rolled (unless both roll d1s, which keep the listed
    order). Returns the generator and the leader (0 or 1)."""
    s0, s1, s2, s3, x = xoshiro_bits(s0, s1, s2, s3)
    i0 = _die(x, u_agi0)
    s0, s1, s2, s3, x = xoshiro_bits(s0, s1, s2, s3)
    i1 = _die(x, u_agi1)
    lead = 0 if i0 >= i1 else 1
    if i0 == i1:
        if agility_rule and agi0 != agi1:
            lead = 0 if agi0 > agi1 else 1
        elif not small:
            for _ in range(MAX_REROLLS):
                s0, s1, s2, s3, x = xoshiro_bits(s0, s1, s2, s3)
                r0 = _die(x, u_agi0)
                s0, s1, s2, s3, x = xoshiro_bits(s0, s1, s2, s3)
                r1 = _die(x, u_agi1)
                if r0 != r1:
                    lead = 0 if r0 > r1 else 1
                    break
    return s0, s1, s2, s3, lead


@jit(inline="always")
def _record(j, loser, dead, down, bleeding, colour, finish, dealt0, dealt1, att0, att1, land0,
            land1, side0, side1, n_sides, accumulate, shared, counters, tally, cat_rolls):
    """Trial ``j``'s outcome: added into the tally (a streamed run's ``accumulate``) or written
    to its row of the outputs, and the loser's Endurance colour counted."""
    winner, end_slot, out_slot, death_slot, dealt, taken, attacks, landed = shared
    unconscious, dying, broken, severed = counters
    outcome_counts, end_hist, out_hist, death_hist, sums = tally
    if colour >= 0:
        cat_rolls[loser, colour] += 1
    result = UNRESOLVED if loser < 0 else (side1 if loser == 0 else side0)
    out0 = finish if loser == 0 else 0
    out1 = finish if loser == 1 else 0
    death0 = finish if loser == 0 and dead else 0
    death1 = finish if loser == 1 and dead else 0
    unc0 = down if loser == 0 and not dead else 0
    unc1 = down if loser == 1 and not dead else 0
    dy0 = bleeding if loser == 0 and not dead else 0
    dy1 = bleeding if loser == 1 and not dead else 0
    if accumulate:
        tally_duel(result, n_sides, finish, out0, out1, death0, death1,
                   outcome_counts, end_hist, out_hist, death_hist)
        sums[0, 0] += dealt0
        sums[0, 1] += dealt0 * dealt0
        sums[0, 2] += dealt1
        sums[0, 3] += dealt1 * dealt1
        sums[0, 4] += att0
        sums[0, 5] += land0
        sums[0, 6] += unc0
        sums[0, 7] += dy0
        sums[1, 0] += dealt1
        sums[1, 1] += dealt1 * dealt1
        sums[1, 2] += dealt0
        sums[1, 3] += dealt0 * dealt0
        sums[1, 4] += att1
        sums[1, 5] += land1
        sums[1, 6] += unc1
        sums[1, 7] += dy1
        return
    winner[j] = result
    end_slot[j] = finish
    out_slot[j, 0], out_slot[j, 1] = out0, out1
    death_slot[j, 0], death_slot[j, 1] = death0, death1
    dealt[j, 0], dealt[j, 1] = dealt0, dealt1
    taken[j, 0], taken[j, 1] = dealt1, dealt0
    attacks[j, 0], attacks[j, 1] = att0, att1
    landed[j, 0], landed[j, 1] = land0, land1
    unconscious[j, 0], unconscious[j, 1] = unc0, unc1
    dying[j, 0], dying[j, 1] = dy0, dy1
    broken[j, 0], broken[j, 1] = 0, 0
    severed[j, 0], severed[j, 1] = 0, 0



@jit(**INNER)
def _trials(chunk, first, n_trials, opts, rank_col, colour_tab, values, tab_later, max_rounds,
            agi0, agi1, n_act0, n_act1, side0, side1, h0, h1, rank_e0, rank_e1, act, codes,
            entries, counts, shared, counters, cat_rolls, accumulate, n_sides, tally):  # fmt: skip
    """The trial loop of :func:`run_chunk` (no allocation: compiled without reference
    counting): the plan's arrays and each fighter's scalars, the actions' tables, ``counts``
    (int64, an entry's uses, for the attack colours), then the outputs: ``Shared``,
    ``typed.Counters``, the Endurance rolls' colours (int64[2, 6]), then a streamed run's flag,
    the fight's sides (for the tally's outcome index) and its arrays (``typed.Stream``'s
    fields; ``sums`` int64[2, 8]): in this order every array lies where it would as an argument
    of its own (a shift of the incoming arguments alone moved the 1 v 1 by 1 to 4 %)."""
    k0, k1, k2, k3 = chunk[0], chunk[1], chunk[2], chunk[3]
    u_agi0 = np.uint64(agi0 if agi0 > 1 else 1)
    u_agi1 = np.uint64(agi1 if agi1 > 1 else 1)
    small = agi0 <= 1 and agi1 <= 1  # a tie of d1s keeps the listed order
    e0, e1 = values[rank_e0], values[rank_e1]
    threatened = opts[O_KILL_THREATENED] != 0
    roll_now = opts[O_ROLL_NEXT_TURN] == 0
    agility_rule = opts[O_TIES] == TIE_AGILITY
    # one action a turn each, later hits rolling no FEAT: the short loop
    fast = (n_act0 == 1 and n_act1 == 1 and act[0, DA_LATER] == 0
            and act[MAX_ACTIONS, DA_LATER] == 0)  # fmt: skip
    for j in range(n_trials):
        s0, s1, s2, s3 = trial_seed(k0, k1, k2, k3, first + j)
        s0, s1, s2, s3, lead = _lead(s0, s1, s2, s3, agi0, agi1, u_agi0, u_agi1, agility_rule,
                                     small)  # fmt: skip
        finish = max_rounds
        loser = -1
        dead = False
        down = 0
        bleeding = 0
        colour = -1
        if fast:
            # the fighter who acts first (f) and second (s): their actions' rows and Health
            f = np.uint64(lead)
            rf = f * np.uint64(MAX_ACTIONS)
            rs_ = (np.uint64(1) - f) * np.uint64(MAX_ACTIONS)
            cf, ef = np.uint64(act[rf, DA_CODES]), np.uint64(act[rf, DA_ENTRIES])
            nf = np.uint64(act[rf, DA_ROUNDS])
            cs, es = np.uint64(act[rs_, DA_CODES]), np.uint64(act[rs_, DA_ENTRIES])
            ns = np.uint64(act[rs_, DA_ROUNDS])
            hf = h1 if lead == 1 else h0
            hs = h0 if lead == 1 else h1
            got_f = got_s = land_f = land_s = np.int64(0)
            r = 0
            lost = -1  # 0: f went down, 1: s did
            v = np.int64(0)
            net = np.int64(0)
            ht = np.int64(0)
            while r < max_rounds:
                r += 1
                s0, s1, s2, s3, x = xoshiro_bits(s0, s1, s2, s3)
                code = np.uint64(codes[cf + (((x & _LOW32) * _N10000) >> _S32)])
                v = entries[ef + code]
                counts[ef + code] += 1
                hit = v & 1
                net = np.int64((np.uint64(v) >> _NET) & _FIELD)
                blow = net * (1 + hit * np.int64(((x >> _S32) * nf) >> _S32))
                land_f += hit
                if blow >= hs:
                    lost = 1
                    ht = hs
                    break
                hs -= blow
                got_f += blow
                s0, s1, s2, s3, x = xoshiro_bits(s0, s1, s2, s3)
                code = np.uint64(codes[cs + (((x & _LOW32) * _N10000) >> _S32)])
                v = entries[es + code]
                counts[es + code] += 1
                hit = v & 1
                net = np.int64((np.uint64(v) >> _NET) & _FIELD)
                blow = net * (1 + hit * np.int64(((x >> _S32) * ns) >> _S32))
                land_s += hit
                if blow >= hf:
                    lost = 0
                    ht = hf
                    break
                hf -= blow
                got_s += blow
            att_f = r
            att_s = r - 1 if lost == 1 else r
            if lost >= 0:
                # the blow that takes the target to 0 Health (``fate.land``): of a volley, the
                # first that reaches it
                loss = ht - ((ht - 1) // net) * net
                if lost == 1:
                    got_f += ht
                    hs = 0
                else:
                    got_s += ht
                    hf = 0
                loser = lead if lost == 0 else 1 - lead
                e_t = e1 if loser == 1 else e0
                rank_e = rank_e1 if loser == 1 else rank_e0
                s0, s1, s2, s3, dead, down, bleeding, colour = _drop(
                    s0, s1, s2, s3, v, net, loss, e_t, rank_e, threatened, roll_now, colour_tab,
                    rank_col, opts)  # fmt: skip
                finish = r
            dealt0 = got_f if lead == 0 else got_s
            dealt1 = got_s if lead == 0 else got_f
            att0 = att_f if lead == 0 else att_s
            att1 = att_s if lead == 0 else att_f
            land0 = land_f if lead == 0 else land_s
            land1 = land_s if lead == 0 else land_f
        else:
            hp0, hp1 = h0, h1
            att0 = att1 = land0 = land1 = dealt0 = dealt1 = np.int64(0)
            for r in range(1, max_rounds + 1):
                for turn in range(2):
                    a = lead if turn == 0 else 1 - lead
                    t = 1 - a
                    ht = hp1 if a == 0 else hp0
                    n_act = n_act0 if a == 0 else n_act1
                    got = np.int64(0)  # Health a's blows take this turn
                    n_hits = np.int64(0)
                    made = np.int64(0)
                    for kk in range(n_act):
                        i = MAX_ACTIONS * a + kk
                        made += 1
                        s0, s1, s2, s3, x = xoshiro_bits(s0, s1, s2, s3)
                        code = np.uint64(codes[np.uint64(act[i, DA_CODES])
                                               + (((x & _LOW32) * _N10000) >> _S32)])  # fmt: skip
                        eo = np.uint64(act[i, DA_ENTRIES]) + code
                        v = entries[eo]
                        counts[eo] += 1
                        hit = v & 1
                        n_hits += hit
                        net = np.int64((np.uint64(v) >> _NET) & _FIELD)
                        later = act[i, DA_LATER] != 0
                        if net <= 0 and (hit == 0 or not later):
                            continue
                        ca = (v >> 1) & 7
                        hits = 1 + hit * np.int64(((x >> _S32) * np.uint64(act[i, DA_ROUNDS]))
                                                  >> _S32)  # fmt: skip
                        if not later or hits == 1:
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
                            p = act[i, DA_TABLE]
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
                        got += ht
                        loser = t
                        s0, s1, s2, s3, dead, down, bleeding, colour = _drop(
                            s0, s1, s2, s3, v, blow_net, ht, e1 if t == 1 else e0,
                            rank_e1 if t == 1 else rank_e0, threatened, roll_now, colour_tab,
                            rank_col, opts)  # fmt: skip
                        ht = 0
                        break
                    if a == 0:
                        hp1 = ht
                        dealt0 += got
                        att0 += made
                        land0 += n_hits
                    else:
                        hp0 = ht
                        dealt1 += got
                        att1 += made
                        land1 += n_hits
                    if loser >= 0:
                        break
                if loser >= 0:
                    finish = r
                    break
        _record(j, loser, dead, down, bleeding, colour, finish, dealt0, dealt1, att0, att1,
                land0, land1, side0, side1, n_sides, accumulate, shared, counters, tally,
                cat_rolls)  # fmt: skip

@jit
def run_chunk(chunk, first, n_trials, plan, duel, shared, counters, cat_colours, cat_rolls,
              stream):  # fmt: skip
    """Trials ``first .. first + n_trials - 1`` of a duel: the plan's arrays (``compile.Plan``)
    and its actions' tables (:class:`DuelTables`), then the outputs: the per-trial ones
    (``Shared``, ``typed.Counters``: written unless the run is streamed), the categories
    (int64[2, 6] each, added into: the attack rolls' colours, the Endurance rolls') and a
    streamed run's tally (``typed.Stream``, ``sums`` int64[2, 8]: see ``_trials``)."""
    mem, st0 = plan.mem, plan.st0
    act, codes, entries = duel
    counts = np.zeros(entries.shape[0], np.int64)
    _trials(chunk, first, n_trials, plan.opts, plan.rank_col, plan.colour_tab, plan.values,
            plan.tab_later, plan.max_rounds, mem[0, M_VAL_A], mem[1, M_VAL_A],
            mem[0, M_N_ACTIONS], mem[1, M_N_ACTIONS], mem[0, M_SIDE], mem[1, M_SIDE],
            st0[0, S_HEALTH], st0[1, S_HEALTH], st0[0, S_RANK_E], st0[1, S_RANK_E], act, codes,
            entries, counts, shared, counters, cat_rolls, stream.accumulate, plan.n_sides,
            stream.tally)  # fmt: skip
    for i in range(counts.shape[0]):
        if counts[i]:
            cat_colours[i // (256 * MAX_ACTIONS), (entries[i] >> 1) & 7] += counts[i]
