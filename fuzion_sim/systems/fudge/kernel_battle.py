"""The battle kernel: gunfights of many shooters on any number of sides, in fixed order.

Members only (no charges or barriers), shooting in fixed order (UA1) with no dodge, hit
locations, critical shots or blasts, each at the first or the nearest enemy (UA16): what
``dispatch`` lets it run. Its speed comes from doing per shot only what a shot needs:

- The shots. Every shot is one generator step whose low 32 bits index the 6,561 equally likely
  pairs of (to-hit roll, Damage Roll). Shooter-target pairs that shoot alike (skill, bonus,
  the result needed and the damage row) share a *shot class*, and a table built at compile time
  by the general kernel's own rule (``kernel_parts.shot_table``) holds each class's outcomes at
  all three wound penalties side by side, as the duel's table does: the penalty only picks the
  bits.
- The targets. Both tactics shoot the first enemy of a fixed priority list (listed order, or by
  distance then listed order) who can still act, else the first who is not out. A member only
  ever gets worse (its track only fills, out is for good), so a pointer into each list only
  moves forward: shooters sharing a list share its two pointers, and a choice costs amortised
  constant time instead of a scan of everyone.
- The order. The fixed order is sorted once a chunk; with initiative ties drawn at random the
  ties are re-sorted each trial within their initiative group (``_net_sort`` up to 16,
  ``_bucket_sort`` up to 128, ``_sort_group`` beyond). The order is a list linked through
  the shooters, and a member is unlinked the moment it can no longer act, so a round never
  meets the fallen (a test per shooter at a random place in the order was a mispredicted
  branch per death).
- The outcomes go straight into a tally when asked (as the duel kernel's do), by a function
  called once a trial, the sums gathered in the members' rows until the chunk's end.

It draws exactly the general kernel's numbers in the same order (one step per tie key, one per
shot), and the tests hold it to the general kernel trial by trial on random battles. Bulk runs
only: a replay (event log) runs on the general kernel.
"""

from __future__ import annotations

import numpy as np

from ..._jit import INNER, jit
from ...engine.outcomes import outcome_index
from ...engine.rng import index32, trial_seed, xoshiro_bits
from .codes import (
    CORE_HURT,
    DRAW,
    L_DEAD,
    L_INCAPACITATED,
    OPT_CORE_DEAD,
    OPT_CORE_UP,
    OPT_HAS_TIES,
    OPT_OUT_LEVEL,
    OPT_PENALTIES,
    OPT_TRACK,
    TRACK_FIREARMS,
    UNRESOLVED,
)
from .kernel_parts import LOW32, firearms_edges, sides_standing
from .rules import level_of, penalty, take

__all__ = ["run_chunk"]

_N_PAIRS = np.uint64(6561)
_S1 = np.uint64(1)
_S63 = np.uint64(63)
#: Groups of tied shooters up to this size are sorted by counting ranks, bigger by buckets.
_RANKED = 16


@jit(inline="always")
def _before(a, b, key):
    """Shooter ``a`` acts before ``b`` of the same initiative: the higher key, then the one
    listed first (the general kernel's order)."""
    return key[a] > key[b] or (key[a] == key[b] and a < b)


@jit(_nrt=False)
def _sort_group(order, lo, hi, key, tmp, count):
    """Sort ``order[lo:hi]`` (in listed order) by ``_before``, without the mispredicted
    branches of a comparison sort (any correct sort gives the same order: ``_before`` is a
    total order). Up to :data:`_RANKED` shooters, each one's place is the number of those that
    go before it (compares a vector unit sums); beyond, the keys being uniform random 63-bit
    numbers, a pass into about twice as many buckets as shooters by the keys' top bits
    (``count`` its scratch) leaves them all but sorted, and an insertion sort finishes the job
    in about linear time."""
    g = hi - lo
    if g < 2:
        return
    if g <= _RANKED:
        for i in range(g):
            count[i] = key[order[lo + i]]
        for i in range(g):
            ki = count[i]
            r = np.uint64(0)
            for q in range(g):  # [key q > key i], or >= for q listed before i: a sign bit
                r += np.uint64(ki - np.int64(q < i) - count[q]) >> _S63
            tmp[r] = order[lo + i]
        for i in range(g):
            order[lo + i] = tmp[i]
        return
    top = 1
    while (1 << top) < 2 * g:
        top += 1
    nb = 1 << top
    sh = 63 - top
    for b in range(nb):
        count[b] = 0
    for i in range(lo, hi):  # bucket by the key's top bits, the highest first
        count[nb - 1 - (key[order[i]] >> sh)] += 1
    total = 0
    for b in range(nb):
        c = count[b]
        count[b] = total
        total += c
    for i in range(lo, hi):
        c = order[i]
        b = nb - 1 - (key[c] >> sh)
        tmp[lo + count[b]] = c
        count[b] += 1
    for i in range(lo, hi):
        c = tmp[i]
        j = i - 1
        while j >= lo and _before(c, order[j], key):
            order[j + 1] = order[j]
            j -= 1
        order[j + 1] = c


#: Groups of up to this many tied shooters are sorted by ``_net16``.
_NET_MAX = 16


@jit(inline="always")
def _net16(v):
    """Sort ``v[:16]`` (distinct keys) highest first by Batcher's odd-even merge sort network
    for 16 keys, written out: 63 comparators in 10 layers, the keys in registers, no branch
    (a loop over a table of comparators waited on memory, 86 ns for ten keys)."""
    (k0, k1, k2, k3, k4, k5, k6, k7,
     k8, k9, k10, k11, k12, k13, k14, k15) = (
        v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7],
        v[8], v[9], v[10], v[11], v[12], v[13], v[14], v[15])  # fmt: skip
    k0, k1 = max(k0, k1), min(k0, k1)
    k2, k3 = max(k2, k3), min(k2, k3)
    k0, k2 = max(k0, k2), min(k0, k2)
    k1, k3 = max(k1, k3), min(k1, k3)
    k1, k2 = max(k1, k2), min(k1, k2)
    k4, k5 = max(k4, k5), min(k4, k5)
    k6, k7 = max(k6, k7), min(k6, k7)
    k4, k6 = max(k4, k6), min(k4, k6)
    k5, k7 = max(k5, k7), min(k5, k7)
    k5, k6 = max(k5, k6), min(k5, k6)
    k0, k4 = max(k0, k4), min(k0, k4)
    k2, k6 = max(k2, k6), min(k2, k6)
    k2, k4 = max(k2, k4), min(k2, k4)
    k1, k5 = max(k1, k5), min(k1, k5)
    k3, k7 = max(k3, k7), min(k3, k7)
    k3, k5 = max(k3, k5), min(k3, k5)
    k1, k2 = max(k1, k2), min(k1, k2)
    k3, k4 = max(k3, k4), min(k3, k4)
    k5, k6 = max(k5, k6), min(k5, k6)
    k8, k9 = max(k8, k9), min(k8, k9)
    k10, k11 = max(k10, k11), min(k10, k11)
    k8, k10 = max(k8, k10), min(k8, k10)
    k9, k11 = max(k9, k11), min(k9, k11)
    k9, k10 = max(k9, k10), min(k9, k10)
    k12, k13 = max(k12, k13), min(k12, k13)
    k14, k15 = max(k14, k15), min(k14, k15)
    k12, k14 = max(k12, k14), min(k12, k14)
    k13, k15 = max(k13, k15), min(k13, k15)
    k13, k14 = max(k13, k14), min(k13, k14)
    k8, k12 = max(k8, k12), min(k8, k12)
    k10, k14 = max(k10, k14), min(k10, k14)
    k10, k12 = max(k10, k12), min(k10, k12)
    k9, k13 = max(k9, k13), min(k9, k13)
    k11, k15 = max(k11, k15), min(k11, k15)
    k11, k13 = max(k11, k13), min(k11, k13)
    k9, k10 = max(k9, k10), min(k9, k10)
    k11, k12 = max(k11, k12), min(k11, k12)
    k13, k14 = max(k13, k14), min(k13, k14)
    k0, k8 = max(k0, k8), min(k0, k8)
    k4, k12 = max(k4, k12), min(k4, k12)
    k4, k8 = max(k4, k8), min(k4, k8)
    k2, k10 = max(k2, k10), min(k2, k10)
    k6, k14 = max(k6, k14), min(k6, k14)
    k6, k10 = max(k6, k10), min(k6, k10)
    k2, k4 = max(k2, k4), min(k2, k4)
    k6, k8 = max(k6, k8), min(k6, k8)
    k10, k12 = max(k10, k12), min(k10, k12)
    k1, k9 = max(k1, k9), min(k1, k9)
    k5, k13 = max(k5, k13), min(k5, k13)
    k5, k9 = max(k5, k9), min(k5, k9)
    k3, k11 = max(k3, k11), min(k3, k11)
    k7, k15 = max(k7, k15), min(k7, k15)
    k7, k11 = max(k7, k11), min(k7, k11)
    k3, k5 = max(k3, k5), min(k3, k5)
    k7, k9 = max(k7, k9), min(k7, k9)
    k11, k13 = max(k11, k13), min(k11, k13)
    k1, k2 = max(k1, k2), min(k1, k2)
    k3, k4 = max(k3, k4), min(k3, k4)
    k5, k6 = max(k5, k6), min(k5, k6)
    k7, k8 = max(k7, k8), min(k7, k8)
    k9, k10 = max(k9, k10), min(k9, k10)
    k11, k12 = max(k11, k12), min(k11, k12)
    k13, k14 = max(k13, k14), min(k13, k14)
    v[0] = k0
    v[1] = k1
    v[2] = k2
    v[3] = k3
    v[4] = k4
    v[5] = k5
    v[6] = k6
    v[7] = k7
    v[8] = k8
    v[9] = k9
    v[10] = k10
    v[11] = k11
    v[12] = k12
    v[13] = k13
    v[14] = k14
    v[15] = k15


@jit(_nrt=False)
def _net_sort(order, lo, hi, key, tmp, v):
    """Sort ``order[lo:hi]`` (listed order, at most 16) by ``_before`` through a sorting
    network (``_net16``), without a branch: each key, its last 7 bits replaced by 127 less its
    place, is distinct, and sorted so are the full keys unless two agree but for those bits
    (about once in 2^50 fights of ten; then ``_sort_group`` sorts them). ``v`` holds at least
    ``max(16, 4 (hi - lo) + 4)`` words."""
    g = hi - lo
    for i in range(g):
        v[i] = ((key[order[lo + i]] >> 7) << 7) | (127 - i)
    for i in range(g, _NET_MAX):  # below every key: last
        v[i] = -1 - i
    _net16(v)
    for i in range(g - 1):
        if v[i] >> 7 == v[i + 1] >> 7:
            _sort_group(order, lo, hi, key, tmp, v)
            return
    for i in range(g):
        tmp[i] = order[lo + 127 - (v[i] & 127)]
    for i in range(g):
        order[lo + i] = tmp[i]


#: Groups of up to this many tied shooters are sorted by ``_bucket_sort``.
_PACKED_MAX = 128


@jit(_nrt=False)
def _bucket_sort(order, lo, hi, key, tmp, v):
    """Sort ``order[lo:hi]`` (listed order, at most :data:`_PACKED_MAX`) by ``_before`` on
    keys made distinct as ``_net_sort`` makes them (their last 7 bits 127 less their place): a
    pass into about twice as many buckets as keys by their top bits (the keys are uniform
    random 63-bit numbers), then an insertion pass over the made keys themselves (no look-up
    through ``order``), which the buckets leave all but sorted. ``v`` holds at least
    ``6 (hi - lo)`` words."""
    g = np.uint64(hi - lo)
    ulo = np.uint64(lo)
    top = 1
    while (1 << top) < 2 * (hi - lo):
        top += 1
    nb = np.uint64(1 << top)
    sh = 63 - top
    last = (1 << top) - 1
    p = nb + g  # the made keys in listed order
    for b in range(nb):
        v[b] = 0
    for i in range(g):  # bucket by the key's top bits, the highest first
        c = ((key[order[ulo + i]] >> 7) << 7) | (127 - np.int64(i))
        v[p + i] = c
        v[np.uint64(last - (c >> sh))] += 1
    total = 0
    for b in range(nb):
        c = v[b]
        v[b] = total
        total += c
    s = nb  # the made keys by bucket
    for i in range(p, p + g):
        c = v[i]
        b = np.uint64(last - (c >> sh))
        v[s + np.uint64(v[b])] = c
        v[b] += 1
    for i in range(s + _U1, s + g):
        c = v[i]
        j = i - _U1
        while j >= s and v[j] < c:
            v[j + _U1] = v[j]
            j -= _U1
        v[j + _U1] = c
    for i in range(s, s + g - _U1):  # two keys alike but for the made bits: the full sort
        if v[i] >> 7 == v[i + _U1] >> 7:
            _sort_group(order, lo, hi, key, tmp, v)
            return
    for i in range(g):
        tmp[i] = order[ulo + np.uint64(127 - (v[s + i] & 127))]
    for i in range(g):
        order[ulo + i] = tmp[i]


#: The fields of a member's row of ``mem`` (one int64 array holds the state the shots read
#: and write, so that the hot loop keeps few base pointers in registers): its track (it can
#: act while that is below ``F_HELPLESS``), its wound penalty as a shift of the shot table's
#: bits, a spare word, the rounds it went out and died in, its firearms band edges
#: (``kernel_parts.firearms_edges``) and ``dead_at``, its side and list of enemies (the list's
#: offset in ``lists``), its counts, its row and column of ``shot_at``, and the sums the tally
#: gathers over a chunk's trials (``_tally``). A last row stands for no one (it never can act).
(F_TRK, F_SHIFT, F_SPARE, F_OUT, F_DEATH, F_HURT, F_VERY, F_HELPLESS, F_GONE, F_DEAD, F_SIDE,
 F_LIST, F_ATT, F_LAND, F_DEALT, F_TAKEN, F_ROW, F_COL, F_SUM_DEALT, F_SQ_DEALT, F_SUM_TAKEN,
 F_SQ_TAKEN) = (np.uint64(f) for f in range(22))  # fmt: skip
_NF = np.uint64(24)
_U1 = np.uint64(1)
_U2 = np.uint64(2)
_U3 = np.uint64(3)


@jit(inline="always")
def _unlink(nxt, prv, t):
    """Take ``t`` out of the linked order (a member out of it links to itself: no change)."""
    b, f = prv[t], nxt[t]
    nxt[b] = f
    prv[f] = b
    nxt[t] = t
    prv[t] = t


@jit(**INNER)
def _tally(mem, un, firearms, track, width, dead_at, wound_levels, out_hist, death_hist):
    """Add a trial's members to the tally and set their rows back to the start of a fight:
    called once a trial, out of the trial loop (whose registers then stay the shots'). The
    sums and sums of squares gather in the rows (``F_SUM_*``), the counts of attacks and hits
    run on over the trials: :func:`_tally_end` adds them to the tally."""
    r = np.uint64(0)
    for c in range(un):
        state = mem[r + F_TRK]
        ci = np.int64(c)
        wound_levels[c, np.uint64(level_of(state, track, width[ci], dead_at[ci]))] += 1
        got = state if firearms else mem[r + F_TAKEN]
        out_hist[c, np.uint64(mem[r + F_OUT])] += 1
        death_hist[c, np.uint64(mem[r + F_DEATH])] += 1
        d = mem[r + F_DEALT]
        mem[r + F_SUM_DEALT] += d
        mem[r + F_SQ_DEALT] += d * d
        mem[r + F_SUM_TAKEN] += got
        mem[r + F_SQ_TAKEN] += got * got
        mem[r + F_TRK] = 0
        mem[r + F_SHIFT] = 0
        mem[r + F_OUT] = 0
        mem[r + F_DEATH] = 0
        mem[r + F_DEALT] = 0
        mem[r + F_TAKEN] = 0
        r += _NF


@jit(**INNER)
def _tally_end(mem, un, dealt_sum, dealt_sq, taken_sum, taken_sq, attacks_sum, landed_sum):
    """Add the sums the rows gathered over a chunk's trials to the tally."""
    r = np.uint64(0)
    for c in range(un):
        dealt_sum[c] += mem[r + F_SUM_DEALT]
        dealt_sq[c] += mem[r + F_SQ_DEALT]
        taken_sum[c] += mem[r + F_SUM_TAKEN]
        taken_sq[c] += mem[r + F_SQ_TAKEN]
        attacks_sum[c] += mem[r + F_ATT]
        landed_sum[c] += mem[r + F_LAND]
        r += _NF


@jit
def run_chunk(key, first, n_trials, n, n_sides, max_rounds, options, side, width, dead_at, battle,
              table, bits, shared, crippled, wound_levels, tally):  # fmt: skip
    """Run trials ``first .. first + n_trials - 1`` of a battle with stream ``key``.

    The fight: ``n`` members (all of them, ``Plan`` order) on ``n_sides`` sides, the plan's
    ``options``, ``side``, ``width`` and ``dead_at`` (the only fields of the plan it reads: the
    Python wrapper's code grows with every array it unboxes), and ``battle`` (a
    :class:`~.run.BattleArrays`): the shooters in listed order (``shooters``) and in initiative
    order (``order0``, ties by listing), the bounds of its groups of equal initiative
    (``groups``); each member's priority list of enemies (``list_of``; list ``l`` is
    ``foe[list_start[l]:list_start[l + 1]]``); where the shots of each pair are in the shot
    table (``shot_at[shot_row[a] + shot_col[t]]``); the table and its bits per penalty
    (``kernel_parts.shot_table``). Then the shared per-trial outputs
    (:class:`~fuzion_sim.engine.outcomes.Shared`), the ``crippled`` counter and the
    wound-level category, and the tally (:class:`~fuzion_sim.engine.outcomes.Streamed`): with its
    ``accumulate`` the trials go straight into it and the per-trial outputs are left alone
    (the numbers are the same).
    """
    shooters, order0, groups, list_of, list_start, foe, shot_row, shot_col, shot_at = battle
    n_lists = list_start.shape[0] - 1
    m = shooters.shape[0]
    pen_on = options[OPT_PENALTIES] != 0
    mem = np.zeros((n + 1) * 24, np.int64)
    side_count = np.zeros(n_sides, np.int64)
    for c in range(n):
        r = np.uint64(c) * _NF
        hurt, very, helpless, gone = firearms_edges(width[c], dead_at[c], pen_on,
                                                    options[OPT_OUT_LEVEL])  # fmt: skip
        mem[r + F_HURT] = hurt
        mem[r + F_VERY] = very
        # it can act while its track is below this: 3 x its width + 1 on the firearms track,
        # and on the core track a state without the Incapacitated box or worse (UA13)
        core = options[OPT_TRACK] != TRACK_FIREARMS
        mem[r + F_HELPLESS] = CORE_HURT << (L_INCAPACITATED - 2) if core else helpless
        mem[r + F_GONE] = gone
        mem[r + F_DEAD] = dead_at[c]
        mem[r + F_SIDE] = side[c]
        mem[r + F_LIST] = 4 * list_of[c]
        mem[r + F_ROW] = shot_row[c]
        mem[r + F_COL] = shot_col[c]
        side_count[side[c]] += 1
    # per list: the pointers to the first who may still act and who is not out, its end, and
    # the target it gave last (while that one can act, it is still the choice)
    lists = np.zeros(4 * max(n_lists, 1), np.uint64)
    mem[np.uint64(n) * _NF + F_TRK] = 1  # no one: never able (its track 1, its limit 0)
    for lst in range(n_lists):
        lists[4 * lst + 2] = list_start[lst + 1]
    foes = np.zeros(max(foe.shape[0], 1), np.uint64)
    for i in range(foe.shape[0]):
        foes[i] = foe[i]
    start = np.zeros(max(n_lists, 1), np.uint64)
    for lst in range(n_lists):
        start[lst] = list_start[lst]
    order = np.zeros(max(m, 1), np.uint64)
    listed = np.zeros(max(m, 1), np.uint64)
    for i in range(m):
        order[i] = order0[i]
        listed[i] = shooters[i]
    _trials(
        key, first, n_trials,
        n, n_sides, max_rounds, options, width, dead_at, m, listed, order, groups, start,
        foes, shot_at, table, bits, shared, crippled, wound_levels, tally,
        mem, side_count, lists, np.zeros(n, np.int64), np.zeros(n_sides, np.int64),
        np.zeros(max(m, 1), np.uint64), np.zeros(max(m, 1), np.uint64),
        np.zeros(8 * m + 4 + _NET_MAX, np.int64), np.arange(n + 1).astype(np.uint64),
        np.arange(n + 1).astype(np.uint64),
    )  # fmt: skip


@jit(**INNER)
def _trials(
    key, first, n_trials,
    n, n_sides, max_rounds, options, width, dead_at, m0, listed, order0, groups, start, foe,
    shot_at, table, bits, shared, crippled, wound_levels, tally,
    mem, side_count, lists, tie_key, side_left, live, tmp, buckets, nxt, prv,
):  # fmt: skip
    """The trial loop of :func:`run_chunk`, with its scratch arrays: compiled without
    reference counting (it allocates nothing). The hot loop indexes with unsigned integers
    (numba then adds no wraparound of negative indices). The groups (``shared``, ``tally``)
    are unpacked first: their fields are the loop's own variables from there on."""
    winner, end_slot, out_slot, death_slot, dealt, taken, attacks, landed = shared
    (accumulate, outcome_counts, end_hist, out_hist, death_hist, dealt_sum, dealt_sq, taken_sum,
     taken_sq, attacks_sum, landed_sum) = tally  # fmt: skip
    track = options[OPT_TRACK]
    firearms = track == TRACK_FIREARMS
    has_ties = options[OPT_HAS_TIES] != 0
    out_level = options[OPT_OUT_LEVEL]
    pen_on = options[OPT_PENALTIES] != 0
    up = options[OPT_CORE_UP] != 0
    dead_damage = options[OPT_CORE_DEAD]
    k0, k1, k2, k3 = key[0], key[1], key[2], key[3]
    mask = (np.int64(1) << bits) - 1
    n_lists = lists.shape[0] // 4
    n_groups = groups.shape[0] - 1
    un = np.uint64(n)

    for j in range(n_trials):
        s0, s1, s2, s3 = trial_seed(k0, k1, k2, k3, first + j)
        for s in range(n_sides):
            side_left[s] = side_count[s]
        for lst in range(n_lists):
            lists[4 * lst] = start[lst]
            lists[4 * lst + 1] = start[lst]
            lists[4 * lst + 3] = un  # no one
        for i in range(m0):
            live[i] = order0[i]
        if has_ties:  # a key per shooter, drawn once a fight in listed order (UA1)
            for i in range(m0):
                s0, s1, s2, s3, x = xoshiro_bits(s0, s1, s2, s3)
                tie_key[listed[i]] = np.int64(x >> _S1)
            for g in range(n_groups):
                lo, hi = groups[g], groups[g + 1]
                if hi - lo <= _NET_MAX:
                    _net_sort(live, lo, hi, tie_key, tmp, buckets)
                elif hi - lo <= _PACKED_MAX:
                    _bucket_sort(live, lo, hi, tie_key, tmp, buckets)
                else:
                    _sort_group(live, lo, hi, tie_key, tmp, buckets)
        # the order as a list linked through the no-one row ``un``: who can no longer act is
        # unlinked as it falls (a member out of the list links to itself)
        prev = un
        for i in range(m0):
            a = live[i]
            nxt[prev] = a
            prv[a] = prev
            prev = a
        nxt[prev] = un
        prv[un] = prev

        result = UNRESOLVED
        finish = max_rounds
        for rnd in range(1, max_rounds + 1):
            acted = 0
            ended = False
            a = un
            while True:
                a = nxt[a]
                if a == un:
                    break
                ra = a * _NF
                # the target (UA16): the first of a's list who can act, else who is not out
                lb = np.uint64(mem[ra + F_LIST])
                t = lists[lb + _U3]
                if mem[t * _NF + F_TRK] >= mem[t * _NF + F_HELPLESS]:  # it fell: the next one
                    end = lists[lb + _U2]
                    p = lists[lb]
                    while p < end and (mem[foe[p] * _NF + F_TRK]
                                       >= mem[foe[p] * _NF + F_HELPLESS]):  # fmt: skip
                        p += _U1
                    lists[lb] = p
                    if p < end:
                        t = foe[p]
                        lists[lb + _U3] = t
                    else:  # no one left who can act: the first who is not out
                        p = lists[lb + _U1]
                        while p < end and mem[foe[p] * _NF + F_OUT] != 0:
                            p += _U1
                        lists[lb + _U1] = p
                        if p == end:
                            continue
                        t = foe[p]
                acted += 1
                s0, s1, s2, s3, x = xoshiro_bits(s0, s1, s2, s3)
                rt = t * _NF
                row = np.uint64(shot_at[np.uint64(mem[ra + F_ROW] + mem[rt + F_COL])])
                code = (np.int64(table[row + index32(x & LOW32, _N_PAIRS)])
                        >> mem[ra + F_SHIFT]) & mask  # fmt: skip
                d = code >> 1  # the damage; code & 1: a hit
                mem[ra + F_ATT] += 1
                mem[ra + F_LAND] += code & 1
                mem[ra + F_DEALT] += d
                if firearms:  # the points add up (U3), and are what it has taken
                    pts = mem[rt + F_TRK] + d
                    mem[rt + F_TRK] = pts
                    mem[rt + F_SHIFT] = (np.int64(pts >= mem[rt + F_HURT])
                                         + np.int64(pts >= mem[rt + F_VERY])) * bits  # fmt: skip
                    if pts < mem[rt + F_HELPLESS]:
                        continue
                    _unlink(nxt, prv, t)  # it acts no more (UA15)
                    if pts < mem[rt + F_GONE]:
                        continue
                    mem[rt + F_OUT] = rnd  # out (UA15): for good
                    if pts >= mem[rt + F_DEAD]:
                        mem[rt + F_DEATH] = rnd
                    sd = mem[rt + F_SIDE]
                    side_left[sd] -= 1
                    if side_left[sd] != 0:
                        continue
                else:  # the core track: a hit marks a box (UA13)
                    mem[rt + F_TAKEN] += d
                    if d == 0:
                        continue
                    ti = np.int64(t)
                    state = take(mem[rt + F_TRK], d, False, track, width[ti], dead_at[ti], up,
                                 dead_damage)  # fmt: skip
                    mem[rt + F_TRK] = state
                    level = level_of(state, track, width[ti], dead_at[ti])
                    mem[rt + F_SHIFT] = -penalty(level, pen_on) * bits
                    if level >= L_INCAPACITATED:
                        _unlink(nxt, prv, t)
                    if level == L_DEAD and mem[rt + F_DEATH] == 0:
                        mem[rt + F_DEATH] = rnd
                    if level < out_level:
                        continue
                    mem[rt + F_OUT] = rnd  # out (UA15): for good
                    sd = mem[rt + F_SIDE]
                    side_left[sd] -= 1
                    if side_left[sd] != 0:
                        continue
                # a side has no one left standing: the fight may be over
                count, last = sides_standing(side_left, n_sides)
                if count <= 1:
                    result = last if count == 1 else DRAW
                    finish = rnd
                    ended = True
                    break
            if ended:
                break
            if acted == 0:  # nothing happened and nothing is due
                finish = rnd
                break

        # the outcomes, and each row back to the start of a fight
        k = outcome_index(result, n_sides)
        if accumulate:
            outcome_counts[k] += 1
            end_hist[k, finish] += 1
        else:
            winner[j] = result
            end_slot[j] = finish
        if accumulate:
            _tally(mem, un, firearms, track, width, dead_at, wound_levels, out_hist,
                   death_hist)  # fmt: skip
            continue
        for c in range(n):
            r = np.uint64(c) * _NF
            state = mem[r + F_TRK]
            wound_levels[c, level_of(state, track, width[c], dead_at[c])] += 1
            got = state if firearms else mem[r + F_TAKEN]
            out, death = mem[r + F_OUT], mem[r + F_DEATH]
            att, land, d = mem[r + F_ATT], mem[r + F_LAND], mem[r + F_DEALT]
            if accumulate:
                out_hist[c, out] += 1
                death_hist[c, death] += 1
                dealt_sum[c] += d
                dealt_sq[c] += d * d
                taken_sum[c] += got
                taken_sq[c] += got * got
                attacks_sum[c] += att
                landed_sum[c] += land
            else:
                out_slot[j, c] = out
                death_slot[j, c] = death
                dealt[j, c] = d
                taken[j, c] = got
                attacks[j, c] = att
                landed[j, c] = land
                crippled[j, c] = 0
            mem[r + F_TRK] = 0
            mem[r + F_SHIFT] = 0
            mem[r + F_OUT] = 0
            mem[r + F_DEATH] = 0
            mem[r + F_ATT] = 0
            mem[r + F_LAND] = 0
            mem[r + F_DEALT] = 0
            mem[r + F_TAKEN] = 0
    if accumulate:
        _tally_end(mem, un, dealt_sum, dealt_sq, taken_sum, taken_sq, attacks_sum,
                   landed_sum)  # fmt: skip
