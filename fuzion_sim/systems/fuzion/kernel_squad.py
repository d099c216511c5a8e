"""The squad kernel: a fight in phases where everyone acts every phase, battles included.

The standing kernel's fight (``kernel_standing``) for the common case of a squad fight under
``timing: phases`` with nobody surprised, no initiative rolled each phase (F9 switch2) and no
event log: every combatant still standing acts once a phase in the fight's initiative order.
Unlike the standing kernel it also runs a fight whose combatants must close in to reach each
other (the default tactic's run toward the target), as the general kernel runs it.
``dispatch.kernel_for`` picks it by data (``dispatch.HONOURS``); the tests hold it to the
standing and general kernels bit for bit, trial by trial.

What it does differently from the standing kernel, which together takes an attack 0.73 to 0.8
of the standing kernel's time on the benchmark squads:

- a combatant's state (Hits, Stun, watch line, target, its values under its penalty, its
  attack value against its target, counters) is one row of a single int64 array, so an
  attack reads two rows at fixed offsets;
- the phase loop runs over the combatants not out at its start, in initiative order (``act``),
  skipping those who went out during it (dropped from ``act`` at its end: O(N) a phase, not
  a move of the array each time one goes out), and the end of a phase over those knocked out
  or dying (``downs``);
- a new target is the first combatant not out of the other sides, kept per side;
- the watch line and the wound penalty at every Hits a combatant can reach are tables, and a
  wound that crosses only an impairment line does no more than change the values.

What keeps a battle's cost per action flat as it grows (the same numbers, bit for bit):

- the pair tables (per attacker and target) are read by attacker class: attackers whose rows
  are equal share one (``_pair_classes``), so a battle of a few kinds of fighter reads a few
  rows from the cache instead of C x C from memory;
- in motion the range and its bands are tested on the squared distance against exact bounds
  (``_square_bound``): no square root stands before the branch;
- the tie order of a fight (F9 switch1) sorts a long run of equal REF by buckets on the
  die's top bits, then by insertion within them;
- the end of a phase drops those out from the order of actors (``_still_in``), refiltering
  the initiative order only when someone came back;
- in a battle of :data:`GRID_MIN` or more, ``targeting: nearest`` (chosen again at every
  action) looks through a grid of cells (``_nearest``), ``random`` finds its pick in counts
  of those not out (``_random_enemy``) and ``focus`` (every action) starts from the side's
  first combatant not out (``_focus``), not by scanning everyone; each is called, not
  inlined, so the fights that do not use it do not pay for it;
- the loop's own small steps are compiled once each and inlined by LLVM (``_jit.INLINE``), not
  copied in by numba: 4 to 5 % faster, and 3 s less of a first run (PERFORMANCE-NOTES lesson 46).

How it is laid out: ``run_chunk`` allocates the chunk's tables, through functions that each
work out one of them (``_pair_tables``, ``_levels``, ``_fresh``, ``_square_bounds``, ``_grid``,
``_random_counts``), and runs the trial loop, whose steps are named functions: ``_reset`` (a
trial's start), ``_close_in`` (an action in motion), ``_wounded`` (a wound that crosses a
line), ``_drop`` (out of the fight or back in, for both of those), ``_settle`` (the end of a
phase for those down) and ``_record`` (a trial's outcome). The steps LLVM inlines
(``jit(**INNER, forceinline=True)``: no Python wrapper, no reference counting) but
``_settle``, which runs only while someone is down and is called: in line it made a battle in
motion 1 to 2 % slower (PERFORMANCE-NOTES lesson 54). The targeting rules' searches stay in the
loop itself: called from an inlined step, LLVM inlined ``_nearest`` and ``_focus`` into the
loop too.
"""

from __future__ import annotations

import numpy as np

from ..._jit import INLINE, INNER, jit
from ...engine.outcomes import outcome_index
from ...engine.rng import high_bits, index32, split_bits, trial_seed, xoshiro, xoshiro_bits
from . import tactics as tx
from .codes import (
    OPT_DYING_CAN_ACT,
    OPT_DYING_PENALTY,
    OPT_HAS_TIES,
    OPT_IMPAIRMENT,
    OPT_STUNNED,
    UNRESOLVED,
)
from .dice import TABLE_DICE
from .kernel_parts import stop_table, tie_tables, values_table
from .rules import (
    KILLING,
    down_state,
    fight_result,
    move_toward,
    out_of_fight,
    range_modifier,
    split_through,
    wakes,
    watch_line,
    wound_penalty,
)

# The columns of a combatant's row of the state array. Row offsets and columns are unsigned:
# no negative-index wraparound code on every access.
(
    HITS, STUN, WATCH, LIMIT, OUT, LOSE,  # Hits, Stun, watch line, stunned limit, out, stunned
    TARGET, MOD, DVCOL, STOP,  # its target, modifier and DV column against it, what stops it
    KILL, ATT, DVR, DVM, GROUPS, LO, SIZE,  # Killing weapon; values under its penalty
    AV,  # its attack value against its target (ATT + MOD)
    LVL0, LVL_LAST, DEADLINE, DEAD, DOWN,  # level-table rows, -2 x BODY, dead, _down
    C_ATT, C_DEALT, C_TAKEN, C_OUT, C_DEATH,  # this trial's counters (C_ATT: see HIT)
    DUE,  # dying and out for good: the time it bleeds to death (F25)
    PAIR,  # its row of the pair tables (``_pair_classes``): its class x C
) = (np.uint64(i) for i in range(30))  # fmt: skip
DIE_BITS = np.uint64(~2047 & (1 << 64) - 1)  # a tie key's die: kernel_parts.break_ties's
BUCKET_BITS = 12  # the tie sort's buckets: at most 2 ** 12
GRID_MIN = 64  # combatants from which ``nearest``, ``random``, ``focus`` do not scan everyone
HIT = np.int64(1 << 32)  # C_ATT counts attacks + HIT x hits: one add an attack
LOW32 = np.int64(HIT - 1)
SQ_DEALT, SQ_TAKEN, C_LAND = HITS, STUN, WATCH  # more columns of the chunk's sums
ROW = 32  # int64 to a row: 256 bytes
WIDTH = np.uint64(ROW)


@jit(**INLINE)
def _first_enemy(own, first_up, n_comb):
    """The first combatant in listed order, not out, of a side other than ``own``, given each
    side's first combatant not out (``first_up``; ``n_comb``: none); -1 if there is none."""
    tgt = n_comb
    for s in range(first_up.shape[0]):
        if s != own and first_up[s] < tgt:
            tgt = first_up[s]
    return tgt if tgt < n_comb else -1


@jit(**INLINE)
def _next_up(c, side, st):
    """The first combatant listed after ``c`` on its side and not out (``n_comb``: none)."""
    n_comb = side.shape[0]
    d = c + 1
    while d < n_comb and (side[d] != side[c] or st[np.uint64(d) * WIDTH + OUT]):
        d += 1
    return d


@jit
def _focus(a, side, st, first_up):
    """``kernel_parts.choose_target``'s ``focus``: the target of ``a``'s side's first
    combatant not out that has one, if it is not out; else the first enemy not out (the
    scan's pick when every score is equal). The search starts at the side's first combatant
    not out (``first_up``): those listed before it are out."""
    n_comb = side.shape[0]
    for c in range(first_up[side[a]], n_comb):
        rc = np.uint64(c) * WIDTH
        if side[c] == side[a] and not st[rc + OUT] and st[rc + TARGET] >= 0:
            if not st[np.uint64(st[rc + TARGET]) * WIDTH + OUT]:
                return st[rc + TARGET]
            break
    return _first_enemy(side[a], first_up, n_comb)


@jit(**INLINE)
def _choose(a, mode, side, st, moving, px, py, pair_dist, s0, s1, s2, s3):
    """``kernel_parts.choose_target`` over the state rows (and, in motion, the distances of
    the moment): ``a``'s target under its targeting rule ``mode`` other than ``first``, and
    the generator state."""
    n_comb = side.shape[0]
    tgt = -1
    if mode == tx.T_FOCUS:
        for c in range(n_comb):
            rc = np.uint64(c) * WIDTH
            if side[c] == side[a] and not st[rc + OUT] and st[rc + TARGET] >= 0:
                if not st[np.uint64(st[rc + TARGET]) * WIDTH + OUT]:
                    tgt = st[rc + TARGET]
                break
    if tgt < 0 and mode == tx.T_RANDOM:
        n_e = 0
        for c in range(n_comb):
            if side[c] != side[a] and not st[np.uint64(c) * WIDTH + OUT]:
                n_e += 1
        if n_e > 0:
            pick = np.int64(0)
            if n_e > 1:
                s0, s1, s2, s3, u = xoshiro(s0, s1, s2, s3)
                pick = np.int64(u * n_e)
            for c in range(n_comb):
                if side[c] != side[a] and not st[np.uint64(c) * WIDTH + OUT]:
                    if pick == 0:
                        tgt = c
                        break
                    pick -= 1
    if tgt < 0:
        best = 0.0
        for c in range(n_comb):
            rc = np.uint64(c) * WIDTH
            if side[c] == side[a] or st[rc + OUT]:
                continue
            if mode == tx.T_WEAKEST:
                score = -(st[rc + HITS] + st[rc + STUN] * 0.001)
            elif mode == tx.T_STRONGEST:
                score = st[rc + HITS] + st[rc + STUN] * 0.001
            elif mode == tx.T_NEAREST:
                if moving:
                    dx = px[c] - px[a]
                    dy = py[c] - py[a]
                    score = -np.sqrt(dx * dx + dy * dy)
                else:
                    score = -pair_dist[a * n_comb + c]
            else:
                score = 0.0
            if tgt < 0 or score > best:
                tgt = c
                best = score
    return tgt, s0, s1, s2, s3


@jit
def _pair_classes(tables, n_tables, n_comb):
    """Attackers whose rows of every pair table are equal share one row: a battle of a few
    kinds of fighter reads tables of a few rows (kept in the cache) instead of C x C.

    ``tables`` holds ``n_tables`` tables of ``C * C`` values each (per attacker and target,
    at ``a * C + t``), one after the other. Returns each attacker's row offset (its class x
    C) and the tables of the classes' rows, in the same layout (class x C + t)."""
    n = n_comb
    hashes = np.empty(n, np.uint64)
    for a in range(n):  # FNV-1a over the attacker's rows
        h = np.uint64(14695981039346656037)
        for k in range(n_tables):
            for t in range(n):
                h = (h ^ np.uint64(tables[k * n * n + a * n + t])) * np.uint64(1099511628211)
        hashes[a] = h
    first = np.empty(n, np.int64)  # each class's first attacker
    offset = np.empty(n, np.int64)
    n_class = 0
    for a in range(n):
        found = -1
        for c in range(n_class):
            b = first[c]
            if hashes[b] != hashes[a]:
                continue
            same = True
            for k in range(n_tables):
                for t in range(n):
                    if tables[k * n * n + a * n + t] != tables[k * n * n + b * n + t]:
                        same = False
                        break
                if not same:
                    break
            if same:
                found = c
                break
        if found < 0:
            first[n_class] = a
            found = n_class
            n_class += 1
        offset[a] = found * n
    out = np.empty(n_tables * n_class * n, np.int64)
    for k in range(n_tables):
        for c in range(n_class):
            for t in range(n):
                out[(k * n_class + c) * n + t] = tables[k * n * n + first[c] * n + t]
    return offset, out, n_class


@jit(**INLINE)
def _sort_desc(order, lo, hi, key, count, spare):
    """Sort ``order[lo:hi]`` on ``key`` (distinct keys), highest first: insertion for a short
    run; a long one first spread into buckets by its keys' top bits (the keys are uniform),
    then the insertion sort moves each only within its bucket (O(k) expected, and fewer
    mispredicted branches than a heapsort). ``count`` and ``spare`` are scratch."""
    size = hi - lo
    if size > 16:
        bits = 1
        while (1 << bits) < size and bits < BUCKET_BITS:
            bits += 1
        shift = np.uint64(64 - bits)
        n_b = 1 << bits
        for b in range(n_b):
            count[b] = 0
        for p in range(lo, hi):
            count[np.int64(key[order[p]] >> shift)] += 1
        at = lo  # the highest bucket first
        for b in range(n_b - 1, -1, -1):
            k = count[b]
            count[b] = at
            at += k
        for p in range(lo, hi):
            c = order[p]
            b = np.int64(key[c] >> shift)
            spare[count[b]] = c
            count[b] += 1
        for p in range(lo, hi):
            order[p] = spare[p]
    for i in range(lo + 1, hi):
        c = order[i]
        k = i - 1
        while k >= lo and key[order[k]] < key[c]:
            order[k + 1] = order[k]
            k -= 1
        order[k + 1] = c


@jit(**INLINE)
def _break_ties(s0, s1, s2, s3, order, key, by_ref, run_end, tie_low, count, spare):
    """``kernel_parts.break_ties`` (F9 switch1: the same dice, the same order) with the
    bucket sort of ``_sort_desc``. Returns the generator state."""
    n_comb = key.shape[0]
    for c in range(n_comb):
        s0, s1, s2, s3, x = xoshiro_bits(s0, s1, s2, s3)
        key[c] = (x & DIE_BITS) | tie_low[c]
    i = 0
    while i < n_comb:
        end = run_end[i]
        for p in range(i, end):
            order[p] = by_ref[p]
        if end - i > 1:
            _sort_desc(order, i, end, key, count, spare)
        i = end
    return s0, s1, s2, s3


@jit
def _square_bound(r):
    """The largest ``x`` whose rounded square root is at most ``r``: ``sqrt(x) <= r``
    exactly when ``x <= _square_bound(r)`` (``r * r`` itself can be a rounding off)."""
    x = r * r
    while np.sqrt(x) > r:
        x = np.nextafter(x, -np.inf)
    while np.sqrt(np.nextafter(x, np.inf)) <= r:
        x = np.nextafter(x, np.inf)
    return x


@jit(**INLINE)
def _band(d2, band_sq):
    """``rules.range_modifier`` at a distance within the weapon's listed range, from its
    square ``d2`` (``band_sq``: the square bounds of 4, 10 and 50 m)."""
    if d2 <= band_sq[0]:
        return 0
    if d2 <= band_sq[1]:
        return -2
    if d2 <= band_sq[2]:
        return -4
    return -6


@jit(**INLINE)
def _cell(x, y, grid):
    """The cell of the nearest-enemy grid (``_grid``) that holds the point ``(x, y)``."""
    x0, y0, size, nx, ny = grid[0], grid[1], grid[2], np.int64(grid[3]), np.int64(grid[4])
    ix = np.int64((x - x0) / size)
    iy = np.int64((y - y0) / size)
    ix = 0 if ix < 0 else (nx - 1 if ix >= nx else ix)
    iy = 0 if iy < 0 else (ny - 1 if iy >= ny else iy)
    return iy * nx + ix


@jit(**INLINE)
def _enter(c, cell, side, head, nxt, prv, where, n_cells):
    """Put combatant ``c`` into ``cell`` of its side's list of the grid."""
    h = side[c] * n_cells + cell
    where[c] = cell
    prv[c] = -1
    nxt[c] = head[h]
    if head[h] >= 0:
        prv[head[h]] = c
    head[h] = c


@jit(**INLINE)
def _leave(c, side, head, nxt, prv, where, n_cells):
    """Take combatant ``c`` out of the grid."""
    if prv[c] >= 0:
        nxt[prv[c]] = nxt[c]
    else:
        head[side[c] * n_cells + where[c]] = nxt[c]
    if nxt[c] >= 0:
        prv[nxt[c]] = prv[c]
    where[c] = -1


@jit(**INLINE)
def _closer(a, cell, best, best_d, side, n_sides, moving, px, py, pair_dist, head, nxt, n_cells):
    """The enemies of ``a`` in ``cell`` against the best so far (``best`` at ``best_d``):
    the nearer, or at an equal distance the first listed, wins."""
    n_comb = side.shape[0]
    for s in range(n_sides):
        if s == side[a]:
            continue
        c = head[s * n_cells + cell]
        while c >= 0:
            if moving:
                dx = px[c] - px[a]
                dy = py[c] - py[a]
                d = np.sqrt(dx * dx + dy * dy)
            else:
                d = pair_dist[a * n_comb + c]
            if best < 0 or d < best_d or (d == best_d and c < best):
                best, best_d = c, d
            c = nxt[c]
    return best, best_d


@jit
def _nearest(a, side, n_sides, moving, px, py, pair_dist, grid, head, nxt):
    """``kernel_parts.choose_target``'s ``nearest`` from the grid: the enemy not out at the
    least distance (rounded as the scan rounds it; in motion the distance of the moment,
    standing the start's ``pair_dist``), the first listed among equals; -1 if none.

    The cells are searched in square rings around ``a``'s: a point in ring ``r`` is at least
    ``(r - 1)`` cells away, so once that is past the best distance found (with a margin for
    rounding) no nearer enemy, nor an equal one, is left."""
    size, nx, ny = grid[2], np.int64(grid[3]), np.int64(grid[4])
    n_cells = nx * ny
    home = _cell(px[a], py[a], grid)
    qx, qy = home % nx, home // nx
    best, best_d = -1, np.inf
    r = 0
    while qx - r >= 0 or qy - r >= 0 or qx + r < nx or qy + r < ny:  # the ring meets the grid
        if best >= 0 and (r - 1) * size > best_d * (1.0 + 1e-9) + 1e-9 * size:
            break
        x_from, x_to = max(qx - r, 0), min(qx + r, nx - 1)
        y_from, y_to = max(qy - r + 1, 0), min(qy + r - 1, ny - 1)
        for k in range(2 if r > 0 else 1):  # the ring's bottom and top rows
            iy = qy - r if k == 0 else qy + r
            if 0 <= iy < ny:
                for ix in range(x_from, x_to + 1):
                    best, best_d = _closer(
                        a, iy * nx + ix, best, best_d, side, n_sides, moving, px, py,
                        pair_dist, head, nxt, n_cells,
                    )  # fmt: skip
        for k in range(2 if r > 0 else 0):  # its sides
            ix = qx - r if k == 0 else qx + r
            if 0 <= ix < nx:
                for iy in range(y_from, y_to + 1):
                    best, best_d = _closer(
                        a, iy * nx + ix, best, best_d, side, n_sides, moving, px, py,
                        pair_dist, head, nxt, n_cells,
                    )  # fmt: skip
        r += 1
    return best


@jit(**INLINE)
def _count(tree, base, n, i, delta):
    """Add ``delta`` at place ``i`` of the Fenwick tree ``tree[base:base + n + 1]``."""
    i += 1
    while i <= n:
        tree[base + i] += delta
        i += i & -i


@jit
def _random_enemy(a, side, count, n_comb, s0, s1, s2, s3):
    """``kernel_parts.choose_target``'s ``random`` from counts: one of the enemies of ``a``
    not out, in listed order, by the same die (none when there are none, no die when there
    is one); returns it (-1: none) and the generator state.

    ``count`` holds Fenwick trees over the listed order of those not out: all of them first,
    then each side's (``n_comb + 1`` each). The enemies before a place are the first tree's
    count less ``a``'s side's, so the chosen one is found in O(log C), not a scan."""
    n = n_comb
    own = (side[a] + 1) * (n + 1)
    top = 1
    while top * 2 <= n:
        top *= 2
    n_e = 0  # the enemies not out: the trees' totals
    i = n
    while i > 0:
        n_e += count[i] - count[own + i]
        i -= i & -i
    if n_e == 0:
        return -1, s0, s1, s2, s3
    pick = np.int64(0)
    if n_e > 1:
        s0, s1, s2, s3, u = xoshiro(s0, s1, s2, s3)
        pick = np.int64(u * n_e)
    pos, left = 0, pick + 1  # the place before the pick-th enemy (0-based) and those to pass
    step = top
    while step > 0:
        nxt = pos + step
        if nxt <= n:
            here = count[nxt] - count[own + nxt]
            if here < left:
                pos = nxt
                left -= here
        step //= 2
    return pos, s0, s1, s2, s3


@jit(**INLINE)
def _in_order(order, st, act):
    """Fill ``act`` with the combatants not out, in initiative ``order``; returns how many."""
    n_act = 0
    for i in range(order.shape[0]):
        if not st[np.uint64(order[i]) * WIDTH + OUT]:
            act[n_act] = order[i]
            n_act += 1
    return n_act


@jit(**INLINE)
def _still_in(act, n_act, st):
    """Drop from ``act[:n_act]`` those now out, keeping the order; returns how many are
    left (``_in_order`` when nobody came back into the fight)."""
    n = 0
    for i in range(n_act):
        c = act[i]
        if not st[np.uint64(c) * WIDTH + OUT]:
            act[n] = c
            n += 1
    return n


@jit(**INLINE)
def _aim(a, t, st, w_melee, pair_mod, stop):
    """Point attacker ``a`` at ``t``: its target, its modifier against it, the DV it meets
    (column DVR or DVM of the target's row) and what stops its damage (``pair_mod`` and
    ``stop`` by the attacker's class, ``_pair_classes``)."""
    ra = np.uint64(a) * WIDTH
    pair = st[ra + PAIR] + t
    st[ra + TARGET] = t
    st[ra + MOD] = pair_mod[pair]
    st[ra + AV] = st[ra + ATT] + st[ra + MOD]
    st[ra + DVCOL] = DVM if w_melee[a] else DVR
    st[ra + STOP] = stop[pair]


@jit(**INLINE)
def _level(rc, h, st):
    """Row of the watch-line and penalty tables for the combatant of row ``rc`` at ``h``
    Hits."""
    i = st[rc + LVL0] - h
    return i if i < st[rc + LVL_LAST] else st[rc + LVL_LAST]


@jit(**INLINE)
def _set_values(rc, row, st, table):
    """The values of the combatant of row ``rc`` under its penalty: row ``row`` of
    ``values_table``."""
    st[rc + ATT] = table[row, 0]
    st[rc + AV] = table[row, 0] + st[rc + MOD]
    st[rc + DVR] = table[row, 1]
    st[rc + DVM] = table[row, 2]
    st[rc + GROUPS] = table[row, 4]
    st[rc + LO] = table[row, 5]
    st[rc + SIZE] = table[row, 6]


@jit(**INLINE)
def _trackdown_state(c, was_down, now_down, downs, n_down):
    """Keep ``downs[:n_down]``, the combatants knocked out or dying (``_down`` non-zero), as
    ``c``'s goes from ``was_down`` to ``now_down``; returns the new ``n_down``."""
    if was_down == 0:
        downs[n_down] = c
        return n_down + 1
    if now_down == 0:
        for i in range(n_down):
            if downs[i] == c:
                downs[i] = downs[n_down - 1]
        return n_down - 1
    return n_down


@jit(no_cpython_wrapper=True)
def _pair_tables(moving, pair_mod, stop, pair_base, pair_cover, n_comb):
    """The pair tables by attacker class (``_pair_classes``): each attacker's class, then per
    class and target the modifier, what stops a hit, and in motion the modifier's static part
    and the cover (the modifier of the start is not read then; standing, the last two are the
    modifier)."""
    nn = n_comb * n_comb
    if moving:
        tables = np.concatenate((stop, pair_base, pair_cover))
        pair_class, packed, n_class = _pair_classes(tables, 3, n_comb)
        k_stop = packed[: n_class * n_comb]
        k_base = packed[n_class * n_comb : 2 * n_class * n_comb]
        k_cover = packed[2 * n_class * n_comb :]
        k_mod = np.zeros(n_class * n_comb, np.int64)
    else:
        tables = np.concatenate((pair_mod[:nn], stop))
        pair_class, packed, n_class = _pair_classes(tables, 2, n_comb)
        k_mod = packed[: n_class * n_comb]
        k_stop = packed[n_class * n_comb :]
        k_base = k_cover = k_mod
    return pair_class, k_mod, k_stop, k_base, k_cover


@jit(no_cpython_wrapper=True)
def _levels(hits_max, body, impairment, dying_penalty):
    """The watch line and the wound penalty by Hits lost: ``watch_at`` and ``pen_at`` row
    LVL0 - Hits, the last row of each combatant standing for every Hits below it;
    ``level_at`` each combatant's first row."""
    n_comb = hits_max.shape[0]
    level_at = np.zeros(n_comb + 1, np.int64)
    for c in range(n_comb):
        level_at[c + 1] = level_at[c] + hits_max[c] + 2 * body[c] + 1
    watch_at = np.empty(level_at[n_comb], np.int64)
    pen_at = np.empty(level_at[n_comb], np.int64)
    for c in range(n_comb):
        for i in range(level_at[c + 1] - level_at[c]):
            h = hits_max[c] - i
            watch_at[level_at[c] + i] = watch_line(h, hits_max[c], body[c], impairment)
            pen_at[level_at[c] + i] = wound_penalty(h, hits_max[c], impairment, dying_penalty)
    return level_at, watch_at, pen_at


@jit(no_cpython_wrapper=True)
def _fresh(sp, level_at, watch_at, table, n_pen, pair_class, k_mod, k_stop):
    """A fresh trial's rows: everyone at full Hits and Stun, aimed at its first enemy when
    every targeting rule is ``first`` (under the others a target is chosen at its first action;
    ``focus`` reads who has one). Returns the rows, each side's size and first combatant, those
    who start knocked out or dying, and how many start knocked out and dying."""
    side, n_sides, body = sp.side, sp.n_sides, sp.body
    hits_max, stun_max = sp.hits_max, sp.stun_max
    targeting, w_melee, w_dmg, options = sp.targeting, sp.w_melee, sp.w_dmg, sp.options
    n_comb = side.shape[0]
    first_in = np.full(n_sides, n_comb, np.int64)  # per side its first combatant (listed)
    for c in range(n_comb - 1, -1, -1):
        first_in[side[c]] = c
    side_size = np.zeros(n_sides, np.int64)
    fresh = np.zeros(n_comb * ROW, np.int64)
    all_first = True
    for c in range(n_comb):
        all_first = all_first and targeting[c] == tx.T_FIRST
    fresh_ko = fresh_dying = 0
    for c in range(n_comb):
        side_size[side[c]] += 1
        rc = np.uint64(c) * WIDTH
        fresh[rc + HITS] = hits_max[c]
        fresh[rc + STUN] = stun_max[c]
        fresh[rc + WATCH] = watch_at[level_at[c]]
        fresh[rc + LIMIT] = stun_max[c] // 2 if options[OPT_STUNNED] != 0 else 1 << 62
        fresh[rc + KILL] = w_dmg[c] == KILLING
        fresh[rc + LVL0] = level_at[c] + hits_max[c]
        fresh[rc + LVL_LAST] = level_at[c + 1] - 1
        fresh[rc + DEADLINE] = -2 * body[c]
        fresh[rc + DOWN] = down_state(hits_max[c], stun_max[c], False)
        fresh[rc + PAIR] = pair_class[c]
        fresh_ko += fresh[rc + DOWN] == 1
        fresh_dying += fresh[rc + DOWN] == 2
        _set_values(rc, c * n_pen, fresh, table)
        fresh[rc + TARGET] = _first_enemy(side[c], first_in, n_comb) if all_first else -1
        if fresh[rc + TARGET] >= 0:
            _aim(c, fresh[rc + TARGET], fresh, w_melee, k_mod, k_stop)
    fresh_downs = np.nonzero(fresh[DOWN::ROW])[0]  # the knocked out and dying (_down)
    return fresh, side_size, first_in, fresh_downs, fresh_ko, fresh_dying


@jit(no_cpython_wrapper=True)
def _square_bounds(w_range):
    """The square bounds (``_square_bound``) of each weapon's range, and of 4, 10 and 50 m (the
    range bands' edges, ``_band``)."""
    range_sq = np.empty(w_range.shape[0], np.float64)
    for c in range(w_range.shape[0]):
        range_sq[c] = _square_bound(w_range[c])
    return range_sq, np.array([_square_bound(4.0), _square_bound(10.0), _square_bound(50.0)])


@jit(no_cpython_wrapper=True)
def _grid(targeting, pos_x0, pos_y0, n_sides):
    """The nearest-enemy grid, where a battle of :data:`GRID_MIN` or more has someone under
    ``targeting: nearest`` (fewer: the plain scan is as quick): square cells over the start's
    bounding box (everyone moves only toward someone, so nobody leaves it), about one
    combatant a cell. Returns whether it is used and the cells: the grid's origin, cell size
    and extent, per side and cell its first combatant, the next and the previous in each
    one's cell, each one's cell, and the number of cells."""
    n_comb = targeting.shape[0]
    any_nearest = False
    for c in range(n_comb):
        any_nearest = any_nearest or (targeting[c] == tx.T_NEAREST and n_comb >= GRID_MIN)
    x_lo, x_hi, y_lo, y_hi = pos_x0.min(), pos_x0.max(), pos_y0.min(), pos_y0.max()
    span = max(x_hi - x_lo, y_hi - y_lo)
    cell_m = max(np.sqrt((x_hi - x_lo) * (y_hi - y_lo) / n_comb), span / n_comb, 1e-6)
    grid = np.array([x_lo, y_lo, cell_m, np.floor((x_hi - x_lo) / cell_m) + 1.0,
                     np.floor((y_hi - y_lo) / cell_m) + 1.0])  # fmt: skip
    n_cells = np.int64(grid[3]) * np.int64(grid[4]) if any_nearest else 1
    head = np.empty(n_sides * n_cells, np.int64)
    nxt = np.empty(n_comb, np.int64)
    prv = np.empty(n_comb, np.int64)
    where = np.empty(n_comb, np.int64)
    return any_nearest, (grid, head, nxt, prv, where, n_cells)


@jit(no_cpython_wrapper=True)
def _random_counts(targeting, side, n_sides):
    """``random`` in a battle of :data:`GRID_MIN` or more: whether anyone uses it, and the
    counts of a fresh trial for ``_random_enemy`` (all of them, then per side, everyone in)."""
    n_comb = side.shape[0]
    any_random = False
    for c in range(n_comb):
        any_random = any_random or (targeting[c] == tx.T_RANDOM and n_comb >= GRID_MIN)
    fresh_count = np.zeros((n_sides + 1) * (n_comb + 1) if any_random else 1, np.int64)
    if any_random:
        for c in range(n_comb):
            _count(fresh_count, 0, n_comb, c, 1)
            _count(fresh_count, (side[c] + 1) * (n_comb + 1), n_comb, c, 1)
    return any_random, fresh_count


@jit(**INNER, forceinline=True)
def _reset(st, fresh, downs, fresh_downs, side_size, first_in, pos_x0, pos_y0, fresh_count,
           moving, fallen):  # fmt: skip
    """A trial's start: the rows, the sides, the places, the counts and the grid as a fresh
    trial has them; returns how many are down (``downs``)."""
    side, standing, first_up, any_nearest, cells, spots, any_random, count = fallen
    px, py, ran, in_cover = spots
    grid, head, nxt, prv, where, n_cells = cells
    for i in range(fresh.shape[0]):  # a plain loop: vectorised, a slice copy is not
        st[i] = fresh[i]
    for s in range(standing.shape[0]):
        standing[s] = side_size[s]
        first_up[s] = first_in[s]
    n_comb = side.shape[0]
    if moving or any_nearest:
        for c in range(n_comb):
            px[c] = pos_x0[c]
            py[c] = pos_y0[c]
            ran[c] = 0.0
            in_cover[c] = True
    if any_random:
        for i in range(count.shape[0]):
            count[i] = fresh_count[i]
    if any_nearest:
        for i in range(head.shape[0]):
            head[i] = -1
        for c in range(n_comb - 1, -1, -1):
            _enter(c, _cell(px[c], py[c], grid), side, head, nxt, prv, where, n_cells)
    for i in range(fresh_downs.shape[0]):
        downs[i] = fresh_downs[i]
    return fresh_downs.shape[0]


@jit(**INNER, forceinline=True)
def _close_in(ua, ut, st, reach_in, k_base, k_cover, fallen):
    """In motion: ``ua``'s action against ``ut``. Out of its weapon's range under the default
    tactic it runs toward it (``run_m`` metres, stopping just inside the range), leaving its
    cover: the whole action. Else its attack's modifier from the pair's static part, the range
    band at the distance now (tested on the squared distance against exact bounds: no square
    root before the branch), the target's cover while it keeps it and -1 per 10 m the target
    ran in its last action (ranged). Returns whether it attacks and the roll it needs."""
    w_range, range_sq, band_sq, w_melee, run_m, tac_default = reach_in
    side, _standing, _first_up, any_nearest, cells, spots, _any_random, _count = fallen
    px, py, ran, in_cover = spots
    ra = ua * WIDTH
    dx = px[ut] - px[ua]
    dy = py[ut] - py[ua]
    d2 = dx * dx + dy * dy
    beyond = d2 > range_sq[ua]  # d > w_range[ua]
    if beyond and tac_default[ua]:  # close in: the whole action
        reach = max(w_range[ua] - 0.01, 0.0)  # end inside the range
        px[ua], py[ua], went = move_toward(px[ua], py[ua], px[ut], py[ut], run_m[ua], reach)
        ran[ua] = went
        if went > 0.0:
            in_cover[ua] = False
        if any_nearest:
            grid, head, nxt, prv, where, n_cells = cells
            cell = _cell(px[ua], py[ua], grid)
            if cell != where[ua]:
                _leave(ua, side, head, nxt, prv, where, n_cells)
                _enter(ua, cell, side, head, nxt, prv, where, n_cells)
        return False, np.int64(0)
    ran[ua] = 0.0
    pair = np.uint64(st[ra + PAIR]) + ut
    av = st[ra + ATT] + k_base[pair]
    if in_cover[ut]:
        av += k_cover[pair]
    if w_melee[ua]:
        if beyond:
            return False, np.int64(0)  # out of reach
    else:
        if beyond:
            av += range_modifier(np.sqrt(d2), w_range[ua])
        else:  # range_modifier within the listed range
            av += _band(d2, band_sq)
        if ran[ut] >= 10.0:  # a moving target: -1 per 10 m it ran
            av -= np.int64(ran[ut] // 10.0)
    return True, st[ut * WIDTH + np.uint64(st[ra + DVCOL])] - av


@jit(**INNER, forceinline=True)
def _drop(c, now_out, now, st, sides_left, fallen):
    """Combatant ``c`` goes out of the fight (``now_out``) or comes back into it: the grid,
    the counts, its side's standing and first combatant not out, the time it first went out.
    Returns the sides left and whether its fall left at most one (the fight is decided)."""
    side, standing, first_up, any_nearest, cells, spots, any_random, count = fallen
    n_comb = side.shape[0]
    if any_nearest:
        grid, head, nxt, prv, where, n_cells = cells
        if now_out:
            _leave(c, side, head, nxt, prv, where, n_cells)
        else:
            _enter(c, _cell(spots[0][c], spots[1][c], grid), side, head, nxt, prv, where,
                   n_cells)  # fmt: skip
    if any_random:
        _count(count, 0, n_comb, c, -1 if now_out else 1)
        _count(count, (side[c] + 1) * (n_comb + 1), n_comb, c, -1 if now_out else 1)
    s = side[c]
    decided = False
    if now_out:
        rc = np.uint64(c) * WIDTH
        if st[rc + C_OUT] == 0:
            st[rc + C_OUT] = now
        standing[s] -= 1
        if standing[s] == 0:
            sides_left -= 1
            decided = sides_left <= 1
        if first_up[s] == c:
            first_up[s] = _next_up(c, side, st)
    else:
        if standing[s] == 0:
            sides_left += 1
        standing[s] += 1
        if c < first_up[s]:
            first_up[s] = c
    return sides_left, decided


@jit(**INNER, forceinline=True)
def _wounded(tgt, h, sn, stun_lost, now, st, downs, counts, values, dying_can_act, fallen):
    """What a wound that crossed ``tgt``'s watch line, knocked its Stun to 0 or stunned it does,
    its Hits and Stun already taken (F21-F25): its watch line and values under the new
    penalty, and when more than an impairment line was crossed, death at -2 x BODY, knocked out
    or dying (F25: dying and out for good, it bleeds to death at the time ``DUE``, which the
    trial's end records if the fight lasts that long), stunned (F22), out of the fight.
    ``counts`` are those down, knocked out and dying, and the sides left; returns them, whether
    it went out, and whether that decided the fight."""
    n_down, n_ko, n_dying, sides_left = counts
    table, watch_at, pen_at, n_pen = values
    ut = np.uint64(tgt)
    rt = ut * WIDTH
    lvl = _level(rt, h, st)
    st[rt + WATCH] = watch_at[lvl]
    if h > 0 and sn > 0 and stun_lost <= st[rt + LIMIT]:
        # an impairment line only (F24): the values under the new penalty
        pen = pen_at[lvl] + 5 * st[rt + LOSE]
        _set_values(rt, ut * np.uint64(n_pen) + np.uint64(pen), st, table)
        return n_down, n_ko, n_dying, sides_left, False, False
    dead = st[rt + DEAD] != 0
    if h <= st[rt + DEADLINE] and not dead:
        dead = True
        st[rt + DEAD] = 1
        st[rt + C_DEATH] = now
    was_down = st[rt + DOWN]
    now_down = down_state(h, sn, dead)
    if now_down != was_down:
        st[rt + DOWN] = now_down
        if now_down == 2 and was_down == 0 and not dying_can_act:
            bleeds = h - st[rt + DEADLINE]
            st[rt + DUE] = 4 * ((now + 3) // 4 + bleeds - 1)
        else:
            n_ko += (now_down == 1) - (was_down == 1)
            n_dying += (now_down == 2) - (was_down == 2)
            n_down = _trackdown_state(tgt, was_down, now_down, downs, n_down)
    if stun_lost > st[rt + LIMIT]:
        st[rt + LOSE] = 1
    pen = pen_at[lvl] + 5 * st[rt + LOSE]
    _set_values(rt, ut * np.uint64(n_pen) + np.uint64(pen), st, table)
    if out_of_fight(h, sn, dead, dying_can_act):
        st[rt + OUT] = 1
        sides_left, decided = _drop(tgt, True, now, st, sides_left, fallen)
        return n_down, n_ko, n_dying, sides_left, True, decided
    return n_down, n_ko, n_dying, sides_left, False, False


@jit(**INNER)  # called, not inlined (the module's docstring)
def _settle(now, end_of_round, minute, st, downs, counts, rec, stun_max, values, dying_can_act,
            fallen):  # fmt: skip
    """The end of a phase for those knocked out or dying (``downs``): waking (F23) and, at the
    end of each round, bleeding (F25); only the knocked out (Hits > 0, Stun <= 0) can wake,
    only the dying bleed. ``counts`` as :func:`_wounded`'s; returns them, whether someone went
    out or came back, and whether someone came back."""
    n_down, n_ko, n_dying, sides_left = counts
    table, watch_at, pen_at, n_pen = values
    changed_out = back = False
    for i in range(n_down - 1, -1, -1):  # (a combatant leaving swaps in the last)
        c = downs[i]
        rc = np.uint64(c) * WIDTH
        h, sn = st[rc + HITS], st[rc + STUN]
        changed = False
        if h > 0 and wakes(sn, True, end_of_round, minute):
            sn = sn + rec[c]
            sn = sn if sn < stun_max[c] else stun_max[c]
            st[rc + STUN] = sn
            changed = True
        if end_of_round and h <= 0:
            h -= 1
            st[rc + HITS] = h
            changed = True
            if h <= st[rc + DEADLINE]:
                st[rc + DEAD] = 1
                st[rc + C_DEATH] = now
        if not changed:
            continue
        dead = st[rc + DEAD] != 0
        lvl = _level(rc, h, st)
        st[rc + WATCH] = watch_at[lvl]
        _set_values(rc, c * n_pen + pen_at[lvl] + 5 * st[rc + LOSE], st, table)
        was_down = st[rc + DOWN]
        now_down = down_state(h, sn, dead)
        n_ko += (now_down == 1) - (was_down == 1)
        n_dying += (now_down == 2) - (was_down == 2)
        st[rc + DOWN] = now_down
        if now_down == 0:
            n_down -= 1
            downs[i] = downs[n_down]
        now_out = out_of_fight(h, sn, dead, dying_can_act)
        if now_out != (st[rc + OUT] != 0):
            st[rc + OUT] = now_out
            changed_out = True
            back = back or not now_out
            sides_left, _ = _drop(c, now_out, now, st, sides_left, fallen)
    return n_down, n_ko, n_dying, sides_left, changed_out, back


@jit(**INNER, forceinline=True)
def _record(j, result, finish, n_sides, max_slots, st, sums, outs, tl):
    """A trial's end: the deaths of those dying out of the fight who bled out before it ended
    (a fight decided in a phase ends before that phase's end), then its outcome, into the
    tally (``accumulate``: the histograms here, the per-combatant sums into ``sums``, rows like
    the state's, until the chunk ends) or into the per-trial outputs."""
    (winner, end_slot, out_slot, death_slot, dealt, taken, attacks, landed, knock,
     _location_hits) = outs
    accumulate, outcome_counts, end_hist = tl.accumulate, tl.outcome_counts, tl.end_hist
    out_hist, death_hist = tl.out_hist, tl.death_hist
    n_comb = st.shape[0] // ROW
    last_bleed = max_slots if result == UNRESOLVED else finish - 1
    for c in range(n_comb):
        rc = np.uint64(c) * WIDTH
        if st[rc + DUE] and st[rc + DUE] <= last_bleed:
            st[rc + C_DEATH] = st[rc + DUE]
    if accumulate:
        k = outcome_index(result, n_sides)
        outcome_counts[k] += 1
        end_hist[k, finish] += 1
        for c in range(n_comb):
            rc = np.uint64(c) * WIDTH
            out_hist[c, st[rc + C_OUT]] += 1
            death_hist[c, st[rc + C_DEATH]] += 1
            sums[rc + C_ATT] += st[rc + C_ATT] & LOW32
            sums[rc + C_LAND] += st[rc + C_ATT] >> 32
            sums[rc + C_DEALT] += st[rc + C_DEALT]
            sums[rc + C_TAKEN] += st[rc + C_TAKEN]
            sums[rc + SQ_DEALT] += st[rc + C_DEALT] * st[rc + C_DEALT]
            sums[rc + SQ_TAKEN] += st[rc + C_TAKEN] * st[rc + C_TAKEN]
        return
    winner[j] = result
    end_slot[j] = finish
    for c in range(n_comb):
        rc = np.uint64(c) * WIDTH
        out_slot[j, c] = st[rc + C_OUT]
        death_slot[j, c] = st[rc + C_DEATH]
        dealt[j, c] = st[rc + C_DEALT]
        taken[j, c] = st[rc + C_TAKEN]
        attacks[j, c] = st[rc + C_ATT] & LOW32
        landed[j, c] = st[rc + C_ATT] >> 32
        knock[j, c] = 0


@jit(**INNER, forceinline=True)
def _flush(sums, tl):
    """A streamed chunk's per-combatant sums (``_record``) into the tally."""
    for c in range(tl.attacks_sum.shape[0]):
        rc = np.uint64(c) * WIDTH
        tl.attacks_sum[c] += sums[rc + C_ATT]
        tl.landed_sum[c] += sums[rc + C_LAND]
        tl.dealt_sum[c] += sums[rc + C_DEALT]
        tl.taken_sum[c] += sums[rc + C_TAKEN]
        tl.dealt_sq[c] += sums[rc + SQ_DEALT]
        tl.taken_sq[c] += sums[rc + SQ_TAKEN]


@jit
def run_chunk(key, first, n_trials, sp, outs, logs, tl, motion):
    """Run trials ``first .. first + n_trials - 1`` of a squad fight; the arguments are the
    standing kernel's (``kernel_standing.run_chunk``), of which this kernel uses a part (four
    phases a round, everyone acting in each, no event log), then the fight's motion
    (``compile.Motion``). With ``accumulate`` the trials are added straight into the tally
    arrays and the per-trial outputs are left alone; the numbers are the same either way.

    A fight in which someone must move (``moving``) runs as the general kernel runs the
    default tactic (``_close_in``); nobody moving, the modifiers are the static pair table's.
    The steps of a trial: ``_reset``, the actions, ``_wounded`` when a wound crosses a line,
    ``_settle`` at a phase's end, ``_record``.
    """
    (side, n_sides, ref, dex, strength, body, hits_max, stun_max, sd, rec, att_skill,
     def_ranged, def_melee, base_order, targeting, w_melee, w_dmg, w_dc, w_acc, w_min_str,
     pair_mod, pair_armour, pair_dist, _acts, _slots_per_round, _start_slot, _slots_per_unit,
     max_slots, _surprised, options, roll_table, nd6_offsets, nd6_table) = sp
    moving, pos_x0, pos_y0, run_m, w_range, tac_default, pair_base, pair_cover = motion
    logs[2][0] = 0  # no events: the squad kernel keeps no log
    n_comb = side.shape[0]
    impairment = options[OPT_IMPAIRMENT] != 0
    dying_can_act = options[OPT_DYING_CAN_ACT] != 0
    dying_penalty = options[OPT_DYING_PENALTY]
    has_ties = options[OPT_HAS_TIES] != 0
    n_rolls = np.uint64(roll_table.shape[0])
    k0, k1, k2, k3 = key[0], key[1], key[2], key[3]
    nd6_start = np.uint64(nd6_offsets[TABLE_DICE])  # the 5d6 table
    nd6_size = np.uint64(nd6_offsets[TABLE_DICE + 1]) - nd6_start
    n_pen = max(4, dying_penalty) + 6  # penalties 0 .. the dying penalty + 5
    u_pen = np.uint64(n_pen)
    table = values_table(
        n_pen, ref, dex, strength, att_skill, w_acc, w_min_str, w_dc, w_melee, def_ranged,
        def_melee, nd6_offsets,
    )  # fmt: skip
    stop = stop_table(pair_armour, w_dmg, sd)  # per attacker and target (F20)
    pair_class, k_mod, k_stop, k_base, k_cover = _pair_tables(
        moving, pair_mod, stop, pair_base, pair_cover, n_comb
    )
    level_at, watch_at, pen_at = _levels(hits_max, body, impairment, dying_penalty)
    fresh, side_size, first_in, fresh_downs, fresh_ko, fresh_dying = _fresh(
        sp, level_at, watch_at, table, n_pen, pair_class, k_mod, k_stop
    )
    fresh_sides_left = np.sum(side_size > 0)
    downs = np.empty(n_comb, np.int64)
    st = np.empty(n_comb * ROW, np.int64)
    sums = np.zeros(n_comb * ROW, np.int64)  # a streamed run's per-combatant sums
    standing = np.empty(n_sides, np.int64)
    first_up = np.empty(n_sides, np.int64)  # per side its first combatant not out
    order = base_order.copy()
    act = np.empty(n_comb, np.int64)
    tie_key = np.empty(n_comb, np.uint64)
    by_ref, run_end, tie_low = tie_tables(ref, base_order)
    bucket = np.empty(1 << BUCKET_BITS, np.int64)  # the tie sort's scratch
    spare = np.empty(n_comb, np.int64)
    reach_in = (w_range, *_square_bounds(w_range), w_melee, run_m, tac_default)
    any_nearest, cells = _grid(targeting, pos_x0, pos_y0, n_sides)
    big = n_comb >= GRID_MIN  # ``focus`` from first_up (``_focus``), not from the top
    any_random, fresh_count = _random_counts(targeting, side, n_sides)
    count = fresh_count.copy()
    # where each stands, the metres it ran, its cover kept
    px, py = np.empty(n_comb, np.float64), np.empty(n_comb, np.float64)
    spots = (px, py, np.empty(n_comb, np.float64), np.empty(n_comb, np.bool_))
    grid, head = cells[0], cells[1]
    # what a fall or a return changes (``_drop``), and the values a wound changes
    fallen = (side, standing, first_up, any_nearest, cells, spots, any_random, count)
    values = (table, watch_at, pen_at, n_pen)

    for j in range(n_trials):
        s0, s1, s2, s3 = trial_seed(k0, k1, k2, k3, first + j)
        n_down = _reset(st, fresh, downs, fresh_downs, side_size, first_in, pos_x0, pos_y0,
                        fresh_count, moving, fallen)  # fmt: skip
        sides_left = fresh_sides_left
        n_ko, n_dying = fresh_ko, fresh_dying
        if has_ties:  # F9 switch1: ties broken once per fight by a die roll
            s0, s1, s2, s3 = _break_ties(
                s0, s1, s2, s3, order, tie_key, by_ref, run_end, tie_low, bucket, spare
            )
        n_act = n_comb  # act[:n_act]: the order without those out
        for i in range(n_comb):
            act[i] = order[i]

        result = UNRESOLVED
        finish = max_slots
        slot = -1  # phase within the round
        rounds_done = 0
        for now in range(1, max_slots + 1):
            slot += 1
            if slot == 4:
                slot = 0
            k = -1
            gone = False  # someone went out this phase
            while k + 1 < n_act:
                k += 1
                ua = np.uint64(act[k])  # unsigned: no negative-index wraparound
                ra = ua * WIDTH
                if st[ra + OUT]:
                    continue  # out this phase
                if st[ra + LOSE]:  # F22: the stunned combatant's lost action; the -5 ends
                    st[ra + LOSE] = 0
                    pen = pen_at[_level(ra, st[ra + HITS], st)]
                    _set_values(ra, ua * u_pen + np.uint64(pen), st, table)
                    continue
                # target: the first enemy still standing, in listed order, or by the
                # targeting rule (kept until it falls, unless the rule chooses at every action)
                tgt = st[ra + TARGET]
                mode = targeting[ua]
                if tgt < 0 or st[np.uint64(tgt) * WIDTH + OUT] or (
                    mode == tx.T_WEAKEST or mode == tx.T_NEAREST or mode == tx.T_STRONGEST
                    or mode == tx.T_FOCUS
                ):  # fmt: skip
                    if mode == tx.T_FIRST:
                        tgt = _first_enemy(side[ua], first_up, n_comb)
                    elif mode == tx.T_FOCUS and big:
                        tgt = _focus(ua, side, st, first_up)
                    elif mode == tx.T_RANDOM and any_random:
                        tgt, s0, s1, s2, s3 = _random_enemy(
                            ua, side, count, n_comb, s0, s1, s2, s3
                        )
                    elif mode == tx.T_NEAREST and any_nearest:
                        tgt = _nearest(ua, side, n_sides, moving, px, py, pair_dist, grid, head,
                                       cells[2])  # fmt: skip
                    else:
                        tgt, s0, s1, s2, s3 = _choose(
                            ua, mode, side, st, moving, px, py, pair_dist, s0, s1, s2, s3
                        )
                    st[ra + TARGET] = tgt
                    if tgt < 0:
                        continue
                    _aim(ua, tgt, st, w_melee, k_mod, k_stop)
                ut = np.uint64(tgt)
                rt = ut * WIDTH
                if moving:
                    attacks, need = _close_in(ua, ut, st, reach_in, k_base, k_cover, fallen)
                    if not attacks:
                        continue
                else:
                    need = st[rt + np.uint64(st[ra + DVCOL])] - st[ra + AV]
                # one generator step for the roll and the first group of damage dice
                # (split_bits), one more for every further group; no branch on the dice to the
                # state update
                s0, s1, s2, s3, x = xoshiro_bits(s0, s1, s2, s3)
                ri, bits = split_bits(x, n_rolls)
                hit = np.int64(roll_table[ri] >= need)
                raw = np.int64(0)
                for _ in range(st[ra + GROUPS]):
                    raw += nd6_table[nd6_start + index32(bits, nd6_size)]
                    s0, s1, s2, s3, x = xoshiro_bits(s0, s1, s2, s3)
                    bits = high_bits(x)
                lo, size = np.uint64(st[ra + LO]), np.uint64(st[ra + SIZE])
                raw += nd6_table[lo + index32(bits, size)]
                # F20-F21: Killing damage costs as much Stun (never below 0), Stun damage 1 Hit
                # per full 5 through
                through = raw - st[ra + STOP]
                through = (through if through > 0 else 0) * hit
                stun_t = st[rt + STUN]
                hits_lost, stun_lost = split_through(st[ra + KILL], through, stun_t)
                st[ra + C_ATT] += 1 + HIT * hit
                st[ra + C_DEALT] += through
                st[rt + C_TAKEN] += through
                h = st[rt + HITS] - hits_lost
                sn = stun_t - stun_lost
                st[rt + HITS] = h
                st[rt + STUN] = sn
                # the rest only when the wound crosses the target's watch line, knocks its Stun
                # to 0 or stuns it
                if h <= st[rt + WATCH] or sn <= 0 or stun_lost > st[rt + LIMIT]:
                    n_down, n_ko, n_dying, sides_left, fell, decided = _wounded(
                        tgt, h, sn, stun_lost, now, st, downs, (n_down, n_ko, n_dying, sides_left),
                        values, dying_can_act, fallen,
                    )  # fmt: skip
                    if decided:
                        break
                    gone = gone or fell  # skipped for the rest of the phase, then dropped
            if sides_left <= 1:
                result = fight_result(standing)
                finish = now
                break
            end_of_round = slot == 3
            if end_of_round:
                rounds_done += 1
            reorder = gone
            back = False  # someone out came back into the fight
            if n_ko > 0 or (end_of_round and n_dying > 0):
                n_down, n_ko, n_dying, sides_left, changed, back = _settle(
                    now, end_of_round, end_of_round and rounds_done % 5 == 0, st, downs,
                    (n_down, n_ko, n_dying, sides_left), rec, stun_max, values, dying_can_act,
                    fallen,
                )  # fmt: skip
                reorder = reorder or changed
            if back:
                n_act = _in_order(order, st, act)
            elif reorder:
                n_act = _still_in(act, n_act, st)
            if sides_left <= 1:
                result = fight_result(standing)
                finish = now
                break
        _record(j, result, finish, n_sides, max_slots, st, sums, outs, tl)
    if tl.accumulate:
        _flush(sums, tl)
