"""The squad kernel: any number of combatants and sides when every attack of the fight is static
(``tables.py``) and nothing but attacks, wounds and the fallen happen in it.

Each turn slot of such a fight is the general kernel's (``kernel.turn``) without the rules that
cannot come up: the start-of-turn events of the fallen (``fate.turn_start``), then each action's
target (``actions.choose_target``'s rules, worked out here) and its attack read off the pair's
table, the blows subtracted here and handed to ``fate.land`` only when one takes a target to
0 Health. It draws the same numbers in the same order as the general kernel, and the tests
hold the two to the same outcomes bit for bit.
"""

from __future__ import annotations

import numpy as np

from ..._jit import jit
from ...engine.rng import trial_seed, xoshiro_bits
from .codes import (
    AF_TARGET,
    DN_STABLE,
    F_EPOCH,
    F_N,
    F_OVER,
    F_ROUND,
    F_SIDES,
    F_WINNER,
    GREEN,
    M_N_ACTIONS,
    M_SIDE,
    M_TARGETING,
    N_EV_FIELDS,
    N_F,
    O_KILL_THREATENED,
    S_ATTACKS,
    S_BROKEN_N,
    S_DEALT,
    S_DEATH_T,
    S_DIE_NEXT,
    S_DOWN,
    S_DROPS,
    S_HEALTH,
    S_LANDED,
    S_OUT_T,
    S_SEVERED_N,
    S_STATUS,
    S_TAKEN,
    ST_DOWN,
    ST_STANDING,
    T_CONTEST,
    TAB_CODES,
    TAB_DEF_BYTE,
    TAB_FIELD,
    TAB_NET_SHIFT,
    TAB_THR_SHIFT,
    TAB_WIDTH,
    TM_LATER,
    UNRESOLVED,
)
from .fate import draw, final_state, land, turn_start
from .kernel import initiative
from .tables import entry
from .typed import typed

_LOW32 = np.uint64(0xFFFFFFFF)
_S32 = np.uint64(32)
_N10000 = np.uint64(10000)
_N100 = np.uint64(100)


@jit(inline="always")
def _target(mem, acts, st, n, c, k):
    """``actions.choose_target`` without ``finish_fallen`` or an excluded victim."""
    side = mem[c, M_SIDE]
    pref = acts[c, k, AF_TARGET]
    if pref >= 0 and st[pref, S_STATUS] == ST_STANDING:
        return pref
    rule = mem[c, M_TARGETING]
    best = -1
    for e in range(n):
        if mem[e, M_SIDE] == side or st[e, S_STATUS] != ST_STANDING:
            continue
        if rule == 0:
            return e
        h = st[e, S_HEALTH]
        if best < 0 or (rule == 1 and h < st[best, S_HEALTH]) or (
                rule == 2 and h > st[best, S_HEALTH]):  # fmt: skip
            best = e
    return best


@jit(inline="always")
def _blow(mem, st, opts, values, rank_col, colour_tab, rs, fs, cat_rolls, events, n_events, a, t,
          net, thr, threatened):  # fmt: skip
    """``fate.land`` with the common case (the target keeps some Health) worked out here."""
    if net <= 0 or st[t, S_STATUS] != ST_STANDING:
        return
    h = st[t, S_HEALTH]
    if net < h:
        st[t, S_HEALTH] = h - net
        st[a, S_DEALT] += net
        st[t, S_TAKEN] += net
        return
    land(mem, st, opts, values, rank_col, colour_tab, rs, fs, cat_rolls, events, n_events, a, t,
         net, thr, thr if threatened else net)  # fmt: skip


@jit
def byte_tables(tab):
    """The tables as the squad kernel reads them: each table's kind (``codes.T_*``); for a
    contest, the colour of each of the attack's and the target's rolls (uint8[T * 200]) and
    its entries by (landed, colour); else the outcome of each roll pair as a byte code
    (uint8[T * 10000]) and the entries the codes stand for (int64[T * 256])."""
    n_tab = tab.shape[0]
    codes = np.zeros(n_tab * 10000, np.uint8)
    entries = np.zeros(n_tab * 256, np.int64)
    kinds = np.zeros(n_tab, np.int64)
    rows = np.zeros(n_tab * 200, np.uint8)
    for p in range(n_tab):
        kinds[p] = tab[p, TAB_WIDTH - 1]
        if kinds[p] == T_CONTEST:
            for i in range(100):
                rows[200 * p + i] = (tab[p, i >> 3] >> ((i & 7) << 3)) & 0xFF
                b = TAB_DEF_BYTE + i
                rows[200 * p + 100 + i] = (tab[p, b >> 3] >> ((b & 7) << 3)) & 0xFF
            for i in range(12):
                entries[256 * p + i] = tab[p, TAB_CODES + i]
            continue
        n_values = 0
        for j in range(10000):
            v = entry(tab, p, j)
            code = -1
            for c in range(n_values):
                if entries[256 * p + c] == v:
                    code = c
                    break
            if code < 0:
                code = n_values
                entries[256 * p + code] = v
                n_values += 1
            codes[10000 * p + j] = code
    return codes, entries, kinds, rows


@jit
def run_chunk(key, first, n_trials, mem, acts, opts, rank_col, colour_tab, values, pair_tab, tab,
              tab_later, tab_meta, st0, n_sides, max_rounds, rounds, autofire, winner,
              end_slot, out_slot, death_slot, dealt, taken, attacks, landed, unconscious, dying,
              broken, severed, cat_colours, cat_rolls):  # fmt: skip
    """Trials ``first .. first + n_trials - 1`` of a static fight; arguments as the general
    kernel's (``kernel.run_chunk``), plus ``rounds`` and ``autofire`` int64[C, MAX_ACTIONS]
    (the rounds each action fires, whether it is a volley)."""
    n = mem.shape[0]
    codes, entries, kinds, rows = byte_tables(tab)
    _trials(key, first, n_trials, mem, acts, opts, rank_col, colour_tab, values, pair_tab, tab,
            tab_later, tab_meta, st0, n_sides, max_rounds, rounds, autofire, winner, end_slot,
            out_slot, death_slot, dealt, taken, attacks, landed, unconscious, dying, broken,
            severed, cat_colours, cat_rolls, codes, entries, kinds, rows, np.empty_like(st0),
            np.zeros(4, np.uint64),
            np.zeros(N_F, np.int64), np.zeros(n, np.int64), np.zeros(n, np.int64),
            np.zeros(n, np.int64), np.zeros(n, np.int64), np.zeros((1, N_EV_FIELDS), np.int64),
            np.zeros(1, np.int64))  # fmt: skip


@typed
def _trials(chunk, first, n_trials, mem, acts, opts, rank_col, colour_tab, values, pair_tab,
            tab, tab_later, tab_meta, st0, n_sides, max_rounds, act_rounds, act_auto, winner,
            end_slot, out_slot, death_slot, dealt, taken, attacks, landed, unconscious, dying,
            broken, severed, cat_colours, cat_rolls, codes, entries, kinds, rows, st, rs, fs,
            order, group, key, tie, events, n_events):  # fmt: skip
    """The trial loop of :func:`run_chunk`, with its scratch arrays and the tables as byte
    codes (``byte_tables``)."""
    n = mem.shape[0]
    threatened = opts[O_KILL_THREATENED] != 0
    first_enemy = group  # scratch: no initiative groups here, so ``group`` holds, per side,
    cached = tie  # the first standing enemy and the F_EPOCH it was found at
    for j in range(n_trials):
        rs[0], rs[1], rs[2], rs[3] = trial_seed(chunk[0], chunk[1], chunk[2], chunk[3], first + j)
        for f in range(fs.shape[0]):
            fs[f] = 0
        fs[F_SIDES] = n_sides
        fs[F_N] = n
        for c in range(n):
            for f in range(st0.shape[1]):
                st[c, f] = st0[c, f]
        initiative(mem, opts, rs, order, group, key, tie, n)
        for side in range(n_sides):
            cached[side] = -1
        end = max_rounds
        s0, s1, s2, s3 = rs[0], rs[1], rs[2], rs[3]  # the generator in registers; in ``rs``
        for r in range(1, max_rounds + 1):  # around the calls that draw
            fs[F_ROUND] = r
            for pos in range(n):
                c = order[pos]
                if st[c, S_DIE_NEXT] != 0 or (st[c, S_STATUS] == ST_DOWN
                                              and st[c, S_DOWN] != DN_STABLE):  # fmt: skip
                    rs[0], rs[1], rs[2], rs[3] = s0, s1, s2, s3
                    turn_start(mem, st, opts, values, rank_col, colour_tab, rs, fs, cat_rolls,
                               events, n_events, c)  # fmt: skip
                    s0, s1, s2, s3 = rs[0], rs[1], rs[2], rs[3]
                if fs[F_OVER] != 0:
                    break
                if st[c, S_STATUS] != ST_STANDING:
                    continue
                side = mem[c, M_SIDE]
                for k in range(mem[c, M_N_ACTIONS]):
                    if fs[F_OVER] != 0:
                        break
                    if acts[c, k, AF_TARGET] < 0 and mem[c, M_TARGETING] == 0:
                        if cached[side] != fs[F_EPOCH]:  # the first standing enemy, again
                            first_enemy[side] = _target(mem, acts, st, n, c, k)
                            cached[side] = fs[F_EPOCH]
                        t = first_enemy[side]
                    else:
                        t = _target(mem, acts, st, n, c, k)
                    if t < 0:
                        continue
                    s0, s1, s2, s3, x = xoshiro_bits(s0, s1, s2, s3)
                    st[c, S_ATTACKS] += 1
                    p = pair_tab[c, k, t]
                    jj = ((x & _LOW32) * _N10000) >> _S32
                    how = kinds[p]
                    if how == T_CONTEST:  # from the two rolls' colours (tables.entry)
                        ra = jj // _N100
                        rd = jj - _N100 * ra
                        cola = np.int64(rows[np.uint64(200 * p) + ra])
                        cold = np.int64(rows[np.uint64(200 * p + 100) + rd])
                        won = cola >= GREEN and (cola > cold or (cola == cold and ra > rd))
                        v = entries[np.uint64(256 * p + cola + (6 if won else 0))]
                    else:
                        pair_code = np.uint64(codes[np.uint64(10000 * p) + jj])
                        v = entries[np.uint64(256 * p) + pair_code]
                    ca = (v >> 1) & 7
                    hit = v & 1
                    net = (v >> TAB_NET_SHIFT) & TAB_FIELD
                    cat_colours[c, ca] += 1
                    st[c, S_LANDED] += hit
                    hits = np.int64(1)
                    if act_auto[c, k] != 0:
                        hits += hit * np.int64(((x >> _S32) * np.uint64(act_rounds[c, k]))
                                               >> _S32)  # fmt: skip
                    later = tab_meta[p, TM_LATER] != 0
                    total = net * hits
                    h = st[t, S_HEALTH]
                    if total < h and not (later and hits > 1):  # no blow drops the target
                        st[t, S_HEALTH] = h - total
                        st[c, S_DEALT] += total
                        st[t, S_TAKEN] += total
                        continue
                    if hit == 0 and net <= 0:
                        continue
                    thr = (v >> TAB_THR_SHIFT) & TAB_FIELD
                    drops = st[t, S_DROPS]
                    rs[0], rs[1], rs[2], rs[3] = s0, s1, s2, s3
                    _blow(mem, st, opts, values, rank_col, colour_tab, rs, fs, cat_rolls, events,
                          n_events, c, t, net, thr, threatened)  # fmt: skip
                    for _ in range(1, hits):
                        if st[t, S_DROPS] != drops:
                            break
                        net2 = net
                        if later:
                            roll = np.int64(((draw(rs) & _LOW32) * _N100) >> _S32) + 1
                            net2 = tab_later[p, ca * 101 + roll]
                        _blow(mem, st, opts, values, rank_col, colour_tab, rs, fs, cat_rolls,
                              events, n_events, c, t, net2, thr, threatened)  # fmt: skip
                    s0, s1, s2, s3 = rs[0], rs[1], rs[2], rs[3]
                if fs[F_OVER] != 0:
                    break
            if fs[F_OVER] != 0:
                end = r
                break
        winner[j] = fs[F_WINNER] if fs[F_OVER] != 0 else UNRESOLVED
        end_slot[j] = end
        for c in range(n):
            out_slot[j, c] = st[c, S_OUT_T]
            death_slot[j, c] = st[c, S_DEATH_T]
            dealt[j, c] = st[c, S_DEALT]
            taken[j, c] = st[c, S_TAKEN]
            attacks[j, c] = st[c, S_ATTACKS]
            landed[j, c] = st[c, S_LANDED]
            down, bleeding = final_state(st, c)
            unconscious[j, c] = down
            dying[j, c] = bleeding
            broken[j, c] = st[c, S_BROKEN_N]
            severed[j, c] = st[c, S_SEVERED_N]
