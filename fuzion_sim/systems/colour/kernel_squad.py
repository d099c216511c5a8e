"""The squad kernel: any number of combatants and sides when every attack of the fight is static
(``tables.py``) and nothing but attacks, wounds and the fallen happen in it.

Each turn slot of such a fight is the general kernel's (``kernel.turn``) without the rules that
cannot come up: the start-of-turn events of the fallen (``fate.turn_start``), then each action's
target (``actions.choose_target``'s rules) and its attack read off the pair's table, and what a
blow that takes a target to 0 Health does (``fate.land``). It draws the same numbers in the same
order as the general kernel, and the tests hold the two to the same outcomes bit for bit.

What keeps an attack short (README "Speed"):

- a combatant's state is one row of a single int64 array (``ROW`` words, unsigned offsets);
  the rules of ``fate.py`` a squad fight can meet (a blow to 0 Health, killed outright, the
  Endurance roll and what its colour does, ranks lost and death at Shift 0, a turn slot's
  events, the end of the fight) are worked out here on those rows, with a count of those
  standing on each side, so that the end of the fight is one test and nothing is called out
  of line; initiative too (``_initiative``), with the generator in registers;
- what an action needs against a target is one word (``pair words``: its table, whether the
  table is coded, whether later hits roll their own FEAT); a table whose outcome is a function
  of the two rolls' colours (a contest, a FEAT, a plain roll) is two words a roll, one for the
  attack's and one for the target's, from which an attack finds its entry with a compare and
  two adds, without a branch (``_entry``); any other table a byte code per roll pair;
- the volley's hits an integer multiply (1 for a miss or a single attack), and a blow that
  drops nobody two subtractions and one predictable test;
- the turn slots of a round run over those who can still do something there (``live``: the
  standing and the fallen whose turn starts with an event, rebuilt without a branch after a
  round in which anyone fell or changed); the first standing enemy is kept per side until
  someone falls or stands up again;
- the trial loop is compiled without reference counting (it allocates nothing), and trials go
  straight into the tally when the run does not keep them (``accumulate``).
"""

from __future__ import annotations

import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros

from ..._jit import jit
from ...engine.outcomes import outcome_index
from ...engine.rng import trial_seed, xoshiro_bits
from .codes import (
    AF_TARGET,
    BLUE,
    DN_BLEEDING,
    DN_GREEN,
    DN_PENDING,
    DN_STABLE,
    DRAW,
    GREEN,
    M_N_ACTIONS,
    M_SIDE,
    M_TARGETING,
    M_VAL_A,
    MAX_ACTIONS,
    O_DEATH_IMMEDIATE,
    O_FLEE,
    O_KILL_THREATENED,
    O_ROLL_NEXT_TURN,
    O_TIES,
    RED,
    S_ATTACKS,
    S_BLEED_FROM,
    S_BROKEN_N,
    S_DEALT,
    S_DEATH_T,
    S_DIE_NEXT,
    S_DOWN,
    S_DROPS,
    S_HEALTH,
    S_HMAX,
    S_LANDED,
    S_OUT_T,
    S_RANK_E,
    S_SEVERED_N,
    S_STATUS,
    S_TAKEN,
    ST_DEAD,
    ST_DOWN,
    ST_FLED,
    ST_STANDING,
    SUPER_CRIT,
    T_CODED,
    T_CONTEST,
    T_FEAT,
    TAB_CODES,
    TAB_DEF_BYTE,
    TAB_FIELD,
    TAB_NET_SHIFT,
    TAB_THR_SHIFT,
    TAB_VALUES,
    TAB_WIDTH,
    TIE_AGILITY,
    TM_LATER,
    UNRESOLVED,
    YELLOW,
)
from .kernel import MAX_REROLLS, initiative

__all__ = ["squad_tables", "run_chunk"]

_LOW32 = np.uint64(0xFFFFFFFF)
_S32 = np.uint64(32)
_N10000 = np.uint64(10000)
_N100 = np.uint64(100)
_N10 = np.uint64(10)
_N256 = np.uint64(256)
_KEY = np.int64(0xFFFF)
_ONE = np.uint64(1)
_ZERO = np.uint64(0)
_S16 = np.int64(16)

#: The columns of a combatant's row of the state (``fate.py``'s ``S_*`` of a squad fight),
#: then its side and actions a turn; unsigned, so no negative-index wraparound code.
(
    HEALTH, STATUS, DOWN, DIE_NEXT, BLEED_FROM, RANK_E, HMAX, DROPS, OUT_T, DEATH_T, DEALT,
    TAKEN, ATTACKS, LANDED, SIDE, N_ACT, COUNTS, NEXT,
) = (np.uint64(i) for i in range(18))  # fmt: skip
ROW = np.uint64(32)
#: The state columns a row starts from (``st0``), in the order above.
_FROM_ST = (S_HEALTH, S_STATUS, S_DOWN, S_DIE_NEXT, S_BLEED_FROM, S_RANK_E, S_HMAX, S_DROPS,
            S_OUT_T, S_DEATH_T, S_DEALT, S_TAKEN, S_ATTACKS, S_LANDED)  # fmt: skip
#: The fight's own state ``fs`` (``fate``'s ``F_*`` of a squad fight): over, the winner, a
#: count of the times anyone stopped or started standing, the sides with anyone standing.
G_OVER, G_WINNER, G_EPOCH, G_LEFT = (np.uint64(i) for i in range(4))
N_G = 4
#: A pair word (``squad_tables``): its table (bits 0-15), coded (bit 16), later hits rolling
#: their own FEAT (bit 17), the coded table's byte codes (from bit 32, in 10,000s).
_CODED = np.int64(1 << 16)
_LATER = np.int64(1 << 17)
_P = np.int64(0xFFFF)


def _colour_words(row: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A formula table's words by roll (``tables.entry``): the attack's ``(index part << 16) |
    key`` and the target's. The entry is ``index parts + 6 x (attack key > target key)``: a
    contest's keys are colour x 128 + roll (the higher colour, then the higher roll; 0 for an
    attack below Green, which never wins), a FEAT's and a plain roll's never win."""
    colours = row[:26].view(np.uint8)
    ca = colours[:100].astype(np.int64)
    cd = colours[TAB_DEF_BYTE:TAB_DEF_BYTE + 100].astype(np.int64)
    rolls = np.arange(100, dtype=np.int64)
    kind = int(row[TAB_WIDTH - 1])
    if kind == T_CONTEST:
        att = (ca << 16) | np.where(ca >= GREEN, ca * 128 + rolls, 0)
        dfn = cd * 128 + rolls
    elif kind == T_FEAT:
        att, dfn = (6 * ca) << 16, cd << 16
    else:
        att, dfn = ca << 16, np.zeros(100, np.int64)
    return att, dfn


def squad_tables(plan, rounds, autofire):
    """What the squad kernel reads of a fight's static tables and actions, once per plan: the
    pair words (int64[C * MAX_ACTIONS * C], ``(MAX_ACTIONS * c + k) * C + t``), the attack's
    and the target's words by roll of each formula table (int64[T * 100] each, see
    ``_colour_words``), the byte codes of the coded tables (uint8[10000 a coded table], at
    least one), the entries (int64[T * 256]), and by action (``MAX_ACTIONS * c + k``) the
    rounds of its hit die (1: a single attack) and whether it attacks the first standing
    enemy (no preferred target, ``targeting: first``)."""
    tab = plan.tab
    n_tab = tab.shape[0]
    att = np.zeros(n_tab * 100, np.int64)
    dfn = np.zeros(n_tab * 100, np.int64)
    entries = np.zeros(n_tab * 256, np.int64)
    coded = [p for p in range(n_tab) if tab[p, TAB_WIDTH - 1] == T_CODED]
    codes = np.zeros(10000 * max(len(coded), 1), np.uint8)
    flags = np.zeros(n_tab, np.int64)
    for p in range(n_tab):
        entries[256 * p:256 * (p + 1)] = tab[p, TAB_CODES:TAB_CODES + TAB_VALUES]
        flags[p] = p | (int(_LATER) if plan.tab_meta[p, TM_LATER] != 0 else 0)
        if p in coded:
            i = coded.index(p)
            flags[p] |= int(_CODED) | (i << 32)
            codes[10000 * i:10000 * (i + 1)] = tab[p, :TAB_CODES].view(np.uint8)[:10000]
        else:
            att[100 * p:100 * (p + 1)], dfn[100 * p:100 * (p + 1)] = _colour_words(tab[p])
    n = plan.n_combatants
    pair = plan.pair_tab.reshape(n * MAX_ACTIONS, n)
    words = np.where(pair >= 0, flags[np.maximum(pair, 0)], -1).reshape(-1)
    a_rounds = np.where(autofire != 0, rounds, 1).reshape(-1).astype(np.int64)
    a_first = ((plan.acts[:, :, AF_TARGET] < 0)
               & (plan.mem[:, M_TARGETING] == 0)[:, None]).reshape(-1).astype(np.int64)
    return words, att, dfn, codes, entries, a_rounds, a_first


@jit(inline="always")
def _entry(att, dfn, codes, entries, w, jj):
    """The packed outcome (``codes.TAB_*``) of roll pair ``jj`` (uint64) of the table of pair
    word ``w`` (``tables.entry``)."""
    up = np.uint64(w & _P)
    if w & _CODED:
        code = np.uint64(codes[np.uint64(10000 * (w >> 32)) + jj])
        return entries[up * _N256 + code]
    ra = jj // _N100
    rd = jj - _N100 * ra
    wa = att[up * _N100 + ra]
    wd = dfn[up * _N100 + rd]
    won = np.int64((wa & _KEY) > (wd & _KEY))
    return entries[up * _N256 + np.uint64((wa >> _S16) + (wd >> _S16) + 6 * won)]


@jit(inline="always")
def _target(mem, acts, st, n, c, k):
    """``actions.choose_target`` without ``finish_fallen`` or an excluded victim."""
    side = mem[c, M_SIDE]
    pref = acts[c, k, AF_TARGET]
    if pref >= 0 and st[np.uint64(pref) * ROW + STATUS] == ST_STANDING:
        return pref
    rule = mem[c, M_TARGETING]
    best = -1
    for e in range(n):
        re = np.uint64(e) * ROW
        if mem[e, M_SIDE] == side or st[re + STATUS] != ST_STANDING:
            continue
        if rule == 0:
            return e
        h = st[re + HEALTH]
        if best < 0 or (rule == 1 and h < st[np.uint64(best) * ROW + HEALTH]) or (
                rule == 2 and h > st[np.uint64(best) * ROW + HEALTH]):  # fmt: skip
            best = e
    return best


@jit(inline="always")
def _live(st, rc):
    """Whether the combatant of row ``rc`` can still do anything at its turn slot (1 or 0): it
    stands, or it lies with an event to come (``fate.turn_start``)."""
    status = st[rc + STATUS]
    return np.int64((status == ST_STANDING) | (st[rc + DIE_NEXT] != 0) | (
        (status == ST_DOWN) & (st[rc + DOWN] != DN_STABLE)))  # fmt: skip


@jit(inline="always")
def _stand_change(fs, standing, st, rc, c, d):
    """``c`` (of row ``rc``) stands up (``d`` 1) or stops standing (-1): the count of its side
    standing, and its side's first standing member (``standing[n_sides + side]``; ``n``:
    none), found again along the side's members (``NEXT``) when it was ``c``."""
    n_sides = np.uint64(standing.shape[0] // 2)
    s = np.uint64(st[rc + SIDE])
    before = standing[s]
    standing[s] = before + d
    if before == 0:
        fs[G_LEFT] += 1
    elif before + d == 0:
        fs[G_LEFT] -= 1
    if d > 0:
        if c < standing[n_sides + s]:
            standing[n_sides + s] = c
    elif standing[n_sides + s] == c:
        n = st.shape[0] // np.int64(ROW)
        e = st[rc + NEXT]
        while e < n and st[np.uint64(e) * ROW + STATUS] != ST_STANDING:
            e = st[np.uint64(e) * ROW + NEXT]
        standing[n_sides + s] = e


@jit(inline="always")
def _go_out(st, fs, standing, rc, r):
    """``fate.go_out``: the round it first went out; then whether the fight is over
    (``fate.check_end``: at most one side with anyone standing)."""
    if st[rc + OUT_T] == 0:
        st[rc + OUT_T] = r
    fs[G_EPOCH] += 1
    if fs[G_OVER] == 0 and fs[G_LEFT] <= 1:
        fs[G_OVER] = 1
        fs[G_WINNER] = DRAW
        for s in range(standing.shape[0] // 2):
            if standing[s] > 0:
                fs[G_WINNER] = s


@jit(inline="always")
def _die(st, fs, standing, rc, r):
    """``fate.die``: death at Shift 0 or killed outright."""
    status = st[rc + STATUS]
    if status == ST_DEAD:
        return
    st[rc + DROPS] += 1
    st[rc + STATUS] = ST_DEAD
    st[rc + DEATH_T] = r
    st[rc + DIE_NEXT] = 0
    if status == ST_STANDING:
        _stand_change(fs, standing, st, rc, np.int64(rc // ROW), -1)
    if status == ST_STANDING or st[rc + OUT_T] == 0:
        _go_out(st, fs, standing, rc, r)


@jit(inline="always")
def _lose_ranks(st, fs, standing, rc, r, n, immediate):
    """``fate.lose_ranks`` (no Health tracks Endurance in a squad fight)."""
    new = st[rc + RANK_E] - n
    new = new if new > 0 else 0
    st[rc + RANK_E] = new
    if n > 0 and new == 0:
        if immediate:
            _die(st, fs, standing, rc, r)
        else:
            st[rc + DIE_NEXT] = 1


@jit(inline="always")
def _endurance(s0, s1, s2, s3, st, fs, standing, colour_tab, rank_col, cat_rolls, c, rc, r,
               flee, immediate):  # fmt: skip
    """``fate.endurance_roll``: one generator step. Returns the generator."""
    s0, s1, s2, s3, x = xoshiro_bits(s0, s1, s2, s3)
    roll = np.int64(((x & _LOW32) * _N100) >> _S32) + 1
    colour = colour_tab[rank_col[st[rc + RANK_E]], roll]
    cat_rolls[c, colour] += 1
    if colour == SUPER_CRIT:
        health = np.int64(((x >> _S32) * _N10) >> _S32) + 1
        if flee:
            st[rc + STATUS] = ST_FLED
            return s0, s1, s2, s3
        st[rc + STATUS] = ST_STANDING
        _stand_change(fs, standing, st, rc, c, 1)
        fs[G_EPOCH] += 1
        cap = st[rc + HMAX] if st[rc + HMAX] > 1 else 1
        st[rc + HEALTH] = health if health < cap else cap
        st[rc + DOWN] = DN_STABLE
    elif colour == RED or colour == YELLOW:
        st[rc + DOWN] = DN_STABLE
    elif colour == GREEN:
        st[rc + DOWN] = DN_GREEN
    else:
        st[rc + DOWN] = DN_BLEEDING
        st[rc + BLEED_FROM] = r
        if colour == BLUE:
            _lose_ranks(st, fs, standing, rc, r, 2, immediate)
    return s0, s1, s2, s3


@jit(inline="always")
def _land(s0, s1, s2, s3, st, fs, standing, values, colour_tab, rank_col, cat_rolls, ra, t, rt,
          r, net, blow, roll_now, flee, immediate):  # fmt: skip
    """``fate.land``: a blow of ``net`` from the attacker of row ``ra`` on ``t``; killed
    outright when ``blow`` reaches the Health it had plus its Endurance value, else down
    (``fate.drop``) and the Endurance roll now or at its next turn. Returns the generator."""
    if net <= 0 or st[rt + STATUS] != ST_STANDING:
        return s0, s1, s2, s3
    h = st[rt + HEALTH]
    loss = net if net < h else h
    st[rt + HEALTH] = h - loss
    st[ra + DEALT] += loss
    st[rt + TAKEN] += loss
    if h - loss > 0:
        return s0, s1, s2, s3
    if blow >= h + values[st[rt + RANK_E]]:
        _die(st, fs, standing, rt, r)
        return s0, s1, s2, s3
    st[rt + STATUS] = ST_DOWN
    st[rt + DOWN] = DN_PENDING
    st[rt + DROPS] += 1
    _stand_change(fs, standing, st, rt, t, -1)
    _go_out(st, fs, standing, rt, r)
    if roll_now:
        s0, s1, s2, s3 = _endurance(s0, s1, s2, s3, st, fs, standing, colour_tab, rank_col,
                                    cat_rolls, t, rt, r, flee, immediate)  # fmt: skip
    return s0, s1, s2, s3


@jit(inline="always")
def _initiative(s0, s1, s2, s3, agi, u_agi, max_u, order, key, masks, n):
    """``kernel.initiative`` under ``initiative_ties: reroll`` for at most 64 combatants whose
    Agility values are at most 64, with the generator in registers; returns it. The first
    sort puts the combatants in a word of bits per roll and reads them off highest roll first
    (the insertion sort's stable order); the ties are the bits of a word (position p tied with
    p + 1), and each round of re-rolls runs over its runs of set bits."""
    for v in range(max_u + 1):
        masks[v] = _ZERO
    for c in range(n):
        s0, s1, s2, s3, x = xoshiro_bits(s0, s1, s2, s3)
        k = np.int64(((x & _LOW32) * u_agi[c]) >> _S32) + 1
        key[c] = k
        masks[k] |= _ONE << np.uint64(c)
    pos = 0
    tied = _ZERO
    for v in range(max_u, 0, -1):
        m = masks[v]
        if m == _ZERO:
            continue
        start = pos
        while m != _ZERO:
            order[pos] = np.int64(trailing_zeros(m))
            m &= m - _ONE
            pos += 1
        tied |= ((_ONE << np.uint64(pos - start - 1)) - _ONE) << np.uint64(start)
    for _ in range(MAX_REROLLS):
        if tied == _ZERO:
            break
        left = tied
        tied = _ZERO
        while left != _ZERO:
            p = trailing_zeros(left)
            q = p + trailing_zeros(~(left >> p))  # positions p .. q tied
            left &= ~(((_ONE << (q - p)) - _ONE) << p)
            ip, iq = np.int64(p), np.int64(q)
            small = True  # a tie of d1s keeps the listed order
            for i in range(ip, iq + 1):
                if agi[order[i]] > 1:
                    small = False
            if small:
                continue
            for i in range(ip, iq + 1):
                s0, s1, s2, s3, x = xoshiro_bits(s0, s1, s2, s3)
                c = order[i]
                key[c] = np.int64(((x & _LOW32) * u_agi[c]) >> _S32) + 1
            for i in range(ip + 1, iq + 1):
                c = order[i]
                jj = i - 1
                while jj >= ip and key[c] > key[order[jj]]:
                    order[jj + 1] = order[jj]
                    jj -= 1
                order[jj + 1] = c
            for i in range(ip, iq):
                tied |= np.uint64(key[order[i]] == key[order[i + 1]]) << np.uint64(i)
    return s0, s1, s2, s3


@jit(inline="always")
def _flush(st, colours, n):
    for c in range(n):
        rc = np.uint64(c) * ROW
        w = st[rc + COUNTS]
        st[rc + COUNTS] = 0
        total = 0
        for ca in range(6):
            m = (w >> (9 * ca)) & 511
            colours[np.uint64(8 * c + ca)] += m
            total += m
        st[rc + ATTACKS] += total
        st[rc + LANDED] += w >> 54


@jit(_nrt=False)
def _trials(chunk, first, n_trials, mem, acts, opts, rank_col, colour_tab, values, tab_later,
            st0, n_sides, max_rounds, words, att, dfn, codes, entries, a_rounds, a_first,
            winner, end_slot, out_slot, death_slot, dealt, taken, attacks, landed, unconscious,
            dying, broken, severed, cat_rolls, accumulate, outcome_counts, end_hist, out_hist,
            death_hist, sums, fresh, st, colours, standing, standing0, fs, agi, u_agi, order,
            key, masks, rs, group, tie, live, first_enemy, cached):  # fmt: skip
    """The trial loop of :func:`run_chunk`, with its scratch arrays (no allocation: compiled
    without reference counting). ``sums`` (int64[C, 12]) gathers a streamed run's
    per-combatant sums: dealt, its square, taken, its square, attacks, landed, then the
    counters (unconscious, dying, broken, severed) and the last two's squares."""
    n = mem.shape[0]
    un = np.uint64(n)
    threatened = opts[O_KILL_THREATENED] != 0
    roll_now = opts[O_ROLL_NEXT_TURN] == 0
    flee = opts[O_FLEE] != 0
    immediate = opts[O_DEATH_IMMEDIATE] != 0
    n_left0 = 0
    for s in range(n_sides):
        n_left0 += standing0[s] > 0
    n_words = fresh.shape[0]
    max_u = 0
    for c in range(n):
        max_u = max_u if u_agi[c] <= max_u else np.int64(u_agi[c])
    bits = opts[O_TIES] != TIE_AGILITY and n <= 64 and max_u <= 64  # ``_initiative``
    for j in range(n_trials):
        s0, s1, s2, s3 = trial_seed(chunk[0], chunk[1], chunk[2], chunk[3], first + j)
        for i in range(n_words):
            st[i] = fresh[i]
        for s in range(2 * n_sides):
            standing[s] = standing0[s]
        for s in range(n_sides):
            cached[s] = -1
        fs[G_OVER] = 0
        fs[G_WINNER] = 0
        fs[G_EPOCH] = 0
        fs[G_LEFT] = n_left0
        if bits:
            s0, s1, s2, s3 = _initiative(s0, s1, s2, s3, agi, u_agi, max_u, order, key, masks,
                                         n)  # fmt: skip
        else:
            rs[0], rs[1], rs[2], rs[3] = s0, s1, s2, s3
            initiative(mem, opts, rs, order, group, key, tie, n)
            s0, s1, s2, s3 = rs[0], rs[1], rs[2], rs[3]
        n_live = 0
        for pos in range(n):
            c = order[pos]
            live[n_live] = c
            n_live += _live(st, np.uint64(c) * ROW)
        end = max_rounds
        for r in range(1, max_rounds + 1):
            changed = False  # anyone fell or lay with an event: rebuild ``live``
            for pos in range(n_live):
                c = live[pos]
                uc = np.uint64(c)
                rc = uc * ROW
                status = st[rc + STATUS]
                if status != ST_STANDING:  # the start of its turn (``fate.turn_start``)
                    changed = True
                    if st[rc + DIE_NEXT] != 0 and status != ST_DEAD:
                        _die(st, fs, standing, rc, r)
                    elif status == ST_DOWN:
                        down = st[rc + DOWN]
                        if down == DN_BLEEDING and st[rc + BLEED_FROM] < r:
                            _lose_ranks(st, fs, standing, rc, r, 1, immediate)
                        elif down == DN_GREEN or down == DN_PENDING:
                            s0, s1, s2, s3 = _endurance(s0, s1, s2, s3, st, fs, standing,
                                                        colour_tab, rank_col, cat_rolls, c, rc,
                                                        r, flee, immediate)  # fmt: skip
                    if fs[G_OVER] != 0:
                        break
                    if st[rc + STATUS] != ST_STANDING:
                        continue
                side = st[rc + SIDE]
                for k in range(st[rc + N_ACT]):
                    if fs[G_OVER] != 0:
                        break
                    i = uc * np.uint64(MAX_ACTIONS) + np.uint64(k)
                    if a_first[i] != 0:
                        if cached[side] != fs[G_EPOCH]:  # the first standing enemy, again
                            e = n
                            for s in range(n_sides):
                                if s != side and standing[n_sides + s] < e:
                                    e = standing[n_sides + s]
                            first_enemy[side] = e if e < n else -1
                            cached[side] = fs[G_EPOCH]
                        t = first_enemy[side]
                    else:
                        t = _target(mem, acts, st, n, c, k)
                    if t < 0:
                        continue
                    ut = np.uint64(t)
                    rt = ut * ROW
                    s0, s1, s2, s3, x = xoshiro_bits(s0, s1, s2, s3)
                    w = words[i * un + ut]
                    jj = ((x & _LOW32) * _N10000) >> _S32
                    v = _entry(att, dfn, codes, entries, w, jj)
                    ca = (v >> 1) & 7
                    hit = v & 1
                    net = (v >> TAB_NET_SHIFT) & TAB_FIELD
                    st[rc + COUNTS] += (np.int64(1) << (9 * ca)) + (hit << 54)
                    hits = 1 + hit * np.int64(((x >> _S32) * np.uint64(a_rounds[i])) >> _S32)
                    later = (w & _LATER) != 0
                    total = net * hits
                    h = st[rt + HEALTH]
                    if total < h and not (later and hits > 1):  # no blow drops the target
                        st[rt + HEALTH] = h - total
                        st[rc + DEALT] += total
                        st[rt + TAKEN] += total
                        continue
                    if hit == 0 and net <= 0:
                        continue
                    changed = True
                    thr = (v >> TAB_THR_SHIFT) & TAB_FIELD
                    drops = st[rt + DROPS]
                    s0, s1, s2, s3 = _land(s0, s1, s2, s3, st, fs, standing, values, colour_tab,
                                           rank_col, cat_rolls, rc, t, rt, r, net,
                                           thr if threatened else net, roll_now, flee,
                                           immediate)  # fmt: skip
                    for _ in range(1, hits):
                        if st[rt + DROPS] != drops:
                            break
                        net2 = net
                        if later:
                            s0, s1, s2, s3, x = xoshiro_bits(s0, s1, s2, s3)
                            roll = np.int64(((x & _LOW32) * _N100) >> _S32) + 1
                            net2 = tab_later[w & _P, ca * 101 + roll]
                        s0, s1, s2, s3 = _land(s0, s1, s2, s3, st, fs, standing, values,
                                               colour_tab, rank_col, cat_rolls, rc, t, rt, r,
                                               net2, thr if threatened else net2, roll_now,
                                               flee, immediate)  # fmt: skip
                if fs[G_OVER] != 0:
                    break
            if fs[G_OVER] != 0:
                end = r
                break
            if r % 63 == 0:  # before a combatant's counts can reach 512
                _flush(st, colours, n)
            if changed:
                kept = 0
                for pos in range(n_live):
                    c = live[pos]
                    live[kept] = c
                    kept += _live(st, np.uint64(c) * ROW)
                n_live = kept
        _flush(st, colours, n)
        result = fs[G_WINNER] if fs[G_OVER] != 0 else UNRESOLVED
        if accumulate:
            kk = outcome_index(result, n_sides)
            outcome_counts[kk] += 1
            end_hist[kk, end] += 1
        else:
            winner[j] = result
            end_slot[j] = end
        for c in range(n):
            rc = np.uint64(c) * ROW
            status = st[rc + STATUS]
            down = 1 if status != ST_DEAD and status != ST_FLED and status != ST_STANDING else 0
            bleeding = 1 if status == ST_DOWN and (st[rc + DOWN] == DN_BLEEDING
                                                  or st[rc + DIE_NEXT] != 0) else 0  # fmt: skip
            d, tk = st[rc + DEALT], st[rc + TAKEN]
            if accumulate:
                out_hist[c, st[rc + OUT_T]] += 1
                death_hist[c, st[rc + DEATH_T]] += 1
                sums[c, 0] += d
                sums[c, 1] += d * d
                sums[c, 2] += tk
                sums[c, 3] += tk * tk
                sums[c, 4] += st[rc + ATTACKS]
                sums[c, 5] += st[rc + LANDED]
                sums[c, 6] += down
                sums[c, 7] += bleeding
                b, sv = st0[c, S_BROKEN_N], st0[c, S_SEVERED_N]
                sums[c, 8] += b
                sums[c, 9] += sv
                sums[c, 10] += b * b
                sums[c, 11] += sv * sv
                continue
            out_slot[j, c] = st[rc + OUT_T]
            death_slot[j, c] = st[rc + DEATH_T]
            dealt[j, c] = d
            taken[j, c] = tk
            attacks[j, c] = st[rc + ATTACKS]
            landed[j, c] = st[rc + LANDED]
            unconscious[j, c] = down
            dying[j, c] = bleeding
            broken[j, c] = st0[c, S_BROKEN_N]
            severed[j, c] = st0[c, S_SEVERED_N]


@jit
def run_chunk(chunk, first, n_trials, mem, acts, opts, rank_col, colour_tab, values, tab_later,
              st0, n_sides, max_rounds, words, att, dfn, codes, entries, a_rounds, a_first,
              winner, end_slot, out_slot, death_slot, dealt, taken, attacks, landed,
              unconscious, dying, broken, severed, cat_colours, cat_rolls, accumulate,
              outcome_counts, end_hist, out_hist, death_hist, sums):  # fmt: skip
    """Trials ``first .. first + n_trials - 1`` of a static fight; plan arrays as the general
    kernel's (``kernel.run_chunk``), then the tables and actions as ``squad_tables`` gives
    them, the per-trial outputs (written unless ``accumulate``), the categories, and a
    streamed run's tally arrays (``Tally``'s histograms, and ``sums`` int64[C, 12]: see
    ``_trials``)."""
    n = mem.shape[0]
    fresh = np.zeros(n * ROW, np.int64)  # a trial's first state, row by row
    standing0 = np.zeros(2 * n_sides, np.int64)  # per side those standing, its first standing
    standing0[n_sides:] = n
    for c in range(n):
        rc = np.uint64(c) * ROW
        for f in range(len(_FROM_ST)):
            fresh[rc + np.uint64(f)] = st0[c, _FROM_ST[f]]
        fresh[rc + SIDE] = mem[c, M_SIDE]
        fresh[rc + N_ACT] = mem[c, M_N_ACTIONS]
        side = mem[c, M_SIDE]
        fresh[rc + NEXT] = n
        for d in range(c + 1, n):
            if mem[d, M_SIDE] == side:
                fresh[rc + NEXT] = d
                break
        if st0[c, S_STATUS] == ST_STANDING:
            standing0[side] += 1
            if standing0[n_sides + side] == n:
                standing0[n_sides + side] = c
    colours = np.zeros(n * 8, np.int64)
    agi = np.zeros(n, np.int64)
    u_agi = np.zeros(n, np.uint64)
    for c in range(n):
        agi[c] = mem[c, M_VAL_A]
        u_agi[c] = np.uint64(agi[c] if agi[c] > 1 else 1)
    _trials(chunk, first, n_trials, mem, acts, opts, rank_col, colour_tab, values, tab_later,
            st0, n_sides, max_rounds, words, att, dfn, codes, entries, a_rounds, a_first,
            winner, end_slot, out_slot, death_slot, dealt, taken, attacks, landed, unconscious,
            dying, broken, severed, cat_rolls, accumulate, outcome_counts, end_hist, out_hist,
            death_hist, sums, fresh, np.zeros(n * ROW, np.int64), colours,
            np.zeros(2 * n_sides, np.int64), standing0, np.zeros(N_G, np.int64), agi, u_agi,
            np.zeros(n, np.int64), np.zeros(n, np.int64), np.zeros(65, np.uint64),
            np.zeros(4, np.uint64), np.zeros(n, np.int64), np.zeros(n, np.int64),
            np.zeros(n, np.int64), np.zeros(n_sides, np.int64),
            np.zeros(n_sides, np.int64))  # fmt: skip
    for c in range(n):
        for ca in range(8):
            cat_colours[c, ca] += colours[c * 8 + ca]
