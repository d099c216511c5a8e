"""Pieces the Fuzion kernels share that are not one mechanic each (those are in ``rules.py``):
the event log's rows, the standing kernels' per-chunk tables (each combatant's values under
every penalty, what stops each attack, the tie order of F9 switch1), target choice under a
targeting rule, and the initiative order of the phase.

Every function here is inlined into the kernels that call it (arrays passed to a helper that is
not inlined bring reference counting into the hot loop).
"""

from __future__ import annotations

import numpy as np

from ..._jit import INNER, jit
from ...engine.rng import high_bits, index32, xoshiro, xoshiro_bits
from . import tactics as tx
from .codes import (
    EV_ACTOR,
    EV_FLAGS,
    EV_HITS,
    EV_KIND,
    EV_LOCATION,
    EV_STUN,
    EV_TARGET,
    EV_TIME,
    EVENT_BLEED,
    EVENT_WAKE,
    FLAG_DEAD,
    FLAG_OUT,
    HOLD_NONE,
    N_EV_FIELDS,
)
from .dice import TABLE_DICE
from .rules import KILLING, bleed, combat_values, effective, out_of_fight, wakes, wound_penalty

__all__ = [
    "break_ties", "choose_target", "comes_back", "count_standing", "goes_out", "log_event",
    "log_wake", "refresh_values", "sort_by_key", "stop_table", "tie_tables",
    "values_table", "wake_and_bleed",
]  # fmt: skip

_TIE_LOW = 2047  # tie keys: the die's 53 bits over 11 bits of sheet order
_DIE_BITS = np.uint64(~_TIE_LOW & (1 << 64) - 1)


@jit
def log_event(events, ne, time, kind, actor, target):
    """Start event ``ne`` of the log (its common fields) and return its row. The last row of
    ``events`` is scratch: events past the end are written there and only counted."""
    row = min(ne, events.shape[0] - 1)
    for f in range(N_EV_FIELDS):
        events[row, f] = 0
    events[row, EV_TIME] = time
    events[row, EV_KIND] = kind
    events[row, EV_ACTOR] = actor
    events[row, EV_TARGET] = target
    events[row, EV_LOCATION] = -1
    return row


@jit(inline="always")
def _values(c, pen, ref, dex, strength, att_skill, w_acc, w_min_str, w_dc, w_melee, def_ranged,
            def_melee, nd6_offsets):  # fmt: skip
    """Combatant ``c``'s cached values under penalty ``pen`` (F1, F6, F12): attack base, DV
    against ranged and melee attacks, current REF, and its damage dice as full groups of
    ``TABLE_DICE`` plus the offset and size of the rest's table."""
    att, dv_r, dv_m, nd = combat_values(
        ref[c], dex[c], strength[c], pen, att_skill[c], w_acc[c], w_min_str[c], w_dc[c],
        w_melee[c], def_ranged[c], def_melee[c],
    )  # fmt: skip
    groups = nd // TABLE_DICE
    rest = nd - TABLE_DICE * groups
    lo = nd6_offsets[rest]
    return att, dv_r, dv_m, effective(ref[c], pen), groups, lo, nd6_offsets[rest + 1] - lo


@jit(inline="always")
def values_table(n_pen, ref, dex, strength, att_skill, w_acc, w_min_str, w_dc, w_melee,
                 def_ranged, def_melee, nd6_offsets):  # fmt: skip
    """``_values`` of every combatant under every penalty below ``n_pen``, worked out once per
    chunk: row ``c * n_pen + penalty``. A penalty is the wound penalty (0, 2, 4 or the dying
    penalty) plus 5 while stunned."""
    n_comb = ref.shape[0]
    table = np.empty((n_comb * n_pen, 7), np.int64)
    for c in range(n_comb):
        for pen in range(n_pen):
            row = c * n_pen + pen
            (table[row, 0], table[row, 1], table[row, 2], table[row, 3], table[row, 4],
             table[row, 5], table[row, 6]) = _values(
                c, pen, ref, dex, strength, att_skill, w_acc, w_min_str, w_dc, w_melee,
                def_ranged, def_melee, nd6_offsets,
            )  # fmt: skip
    return table


@jit(inline="always")
def refresh_values(c, row, table, att_base, dv_ranged, dv_melee, att_ref, groups, dice_lo,
                   dice_size):  # fmt: skip
    """Combatant ``c``'s cached values from row ``row`` of ``table`` (``_values`` per
    combatant and penalty, worked out once per chunk)."""
    att_base[c] = table[row, 0]
    dv_ranged[c] = table[row, 1]
    dv_melee[c] = table[row, 2]
    att_ref[c] = table[row, 3]
    groups[c] = table[row, 4]
    dice_lo[c] = table[row, 5]
    dice_size[c] = table[row, 6]


@jit(inline="always")
def stop_table(pair_armour, w_dmg, sd):
    """What stops attacker ``a``'s damage on target ``t`` (at ``a * C + t``): the armour, and
    against Stun damage the target's SD if that is higher (F20)."""
    n_comb = sd.shape[0]
    stop = np.empty(n_comb * n_comb, np.int64)
    for a in range(n_comb):
        for t in range(n_comb):
            armour = pair_armour[a * n_comb + t]
            stop[a * n_comb + t] = armour if w_dmg[a] == KILLING or armour > sd[t] else sd[t]
    return stop


@jit(inline="always")
def choose_target(a, side, is_out, target, mode, hits, stun, pair_dist, hidden, s0, s1, s2, s3):
    """Combatant ``a``'s target under its targeting rule (``tactics.T_*``), exactly as the
    general kernel chooses it: ``focus`` the target of the side's first standing member that
    has one (if still standing); ``random`` one of the enemies standing (a die only when
    there are two or more); else the best enemy standing by the rule's score (``first``: the
    first listed, ``nearest`` by ``pair_dist``, ``weakest`` / ``strongest`` by Hits, then
    Stun), the first listed among equals. Nobody ``hidden`` is chosen (a vehicle's crew,
    inside it; the standing kernels pass ``is_out``). Returns the target (-1: none) and the
    generator state."""
    n_comb = side.shape[0]
    tgt = -1
    if mode == tx.T_FOCUS:
        for c in range(n_comb):
            if side[c] == side[a] and not is_out[c] and target[c] >= 0:
                if not is_out[target[c]]:
                    tgt = target[c]
                break
    if tgt < 0 and mode == tx.T_RANDOM:
        n_e = 0
        for c in range(n_comb):
            if side[c] != side[a] and not is_out[c] and not hidden[c]:
                n_e += 1
        if n_e > 0:
            pick = np.int64(0)
            if n_e > 1:
                s0, s1, s2, s3, u = xoshiro(s0, s1, s2, s3)
                pick = np.int64(u * n_e)
            for c in range(n_comb):
                if side[c] != side[a] and not is_out[c] and not hidden[c]:
                    if pick == 0:
                        tgt = c
                        break
                    pick -= 1
    if tgt < 0:
        best = 0.0
        for c in range(n_comb):
            if side[c] == side[a] or is_out[c] or hidden[c]:
                continue
            if mode == tx.T_WEAKEST:
                score = -(hits[c] + stun[c] * 0.001)
            elif mode == tx.T_STRONGEST:
                score = hits[c] + stun[c] * 0.001
            elif mode == tx.T_NEAREST:
                score = -pair_dist[a * n_comb + c]
            else:
                score = 0.0
            if tgt < 0 or score > best:
                tgt = c
                best = score
    return tgt, s0, s1, s2, s3


@jit(inline="always")
def tie_tables(ref, base_order):
    """F9 switch1, ties broken once per fight by a die roll: the combatants by REF, highest
    first, in ``base_order`` among equals (``by_ref``); for each place in it the end of the
    run of its REF (``run_end``); and the low bits of each one's tie key (``tie_low``: earlier
    in ``base_order`` wins a tied die)."""
    n_comb = ref.shape[0]
    by_ref = np.empty(n_comb, np.int64)
    for i in range(n_comb):
        by_ref[i] = base_order[i]
    for i in range(1, n_comb):  # a stable insertion sort on REF, once per chunk
        c = by_ref[i]
        k = i - 1
        while k >= 0 and ref[by_ref[k]] < ref[c]:
            by_ref[k + 1] = by_ref[k]
            k -= 1
        by_ref[k + 1] = c
    run_end = np.empty(n_comb, np.int64)
    end = n_comb
    for i in range(n_comb - 1, -1, -1):
        if i + 1 < n_comb and ref[by_ref[i]] != ref[by_ref[i + 1]]:
            end = i + 1
        run_end[i] = end
    base_pos = np.empty(n_comb, np.int64)
    for c in range(n_comb):
        base_pos[base_order[c]] = c
    tie_low = np.uint64(_TIE_LOW) - base_pos.astype(np.uint64)  # (< 2048 combatants)
    return by_ref, run_end, tie_low


@jit(inline="always")
def _sift_down(order, lo, root, size, key):
    """Heapsort's step on ``order[lo:lo + size]``: a min-heap on ``key`` (the smallest key
    rises, so the sorted run ends up highest first)."""
    while True:
        child = 2 * root + 1
        if child >= size:
            return
        if child + 1 < size and key[order[lo + child + 1]] < key[order[lo + child]]:
            child += 1
        if key[order[lo + child]] < key[order[lo + root]]:
            order[lo + root], order[lo + child] = order[lo + child], order[lo + root]
            root = child
        else:
            return


@jit(inline="always")
def _sort_desc(order, lo, hi, key):
    """Sort ``order[lo:hi]`` on ``key`` (distinct keys), highest first: insertion for a short
    run, heapsort (O(k log k)) for a long one."""
    size = hi - lo
    if size <= 16:
        for i in range(lo + 1, hi):
            c = order[i]
            k = i - 1
            while k >= lo and key[order[k]] < key[c]:
                order[k + 1] = order[k]
                k -= 1
            order[k + 1] = c
        return
    for root in range(size // 2 - 1, -1, -1):
        _sift_down(order, lo, root, size, key)
    for last in range(size - 1, 0, -1):
        order[lo], order[lo + last] = order[lo + last], order[lo]
        _sift_down(order, lo, 0, last, key)


@jit(inline="always")
def break_ties(s0, s1, s2, s3, order, key, by_ref, run_end, tie_low):
    """Roll every combatant's tie die and write the fight's ``order``: sorted on (REF desc,
    die desc, place in ``base_order``), each run of equal REF sorted on its keys (O(N log N)
    a fight, not N^2). The die is xoshiro's 53-bit uniform, kept as an integer key above
    ``tie_low``, so no two keys are equal. Returns the generator state."""
    n_comb = key.shape[0]
    for c in range(n_comb):
        s0, s1, s2, s3, x = xoshiro_bits(s0, s1, s2, s3)
        key[c] = (x & _DIE_BITS) | tie_low[c]
    i = 0
    while i < n_comb:
        end = run_end[i]
        for p in range(i, end):
            order[p] = by_ref[p]
        if end - i > 1:
            _sort_desc(order, i, end, key)
        i = end
    return s0, s1, s2, s3


@jit(inline="always")
def sort_by_key(order, key):
    """``order`` = every combatant, highest ``key`` first (an insertion sort; equal keys keep
    index order). F9 switch2's order of the phase."""
    n_comb = order.shape[0]
    for i in range(n_comb):
        order[i] = i
    for i in range(1, n_comb):
        c = order[i]
        k = i - 1
        while k >= 0 and key[order[k]] < key[c]:
            order[k + 1] = order[k]
            k -= 1
        order[k + 1] = c


@jit(inline="always")
def hit_damage(h, dice_bits, n_dice, nd6_table, nd6_offsets, nd6_start, u_nd6_size, s0, s1, s2,
               s3):  # fmt: skip
    """The damage dice of hit ``h`` of an attack (the rooms' one roll): the first hit reads the
    attack roll's spare bits (``dice_bits``), each later one draws its own; ``n_dice`` d6 in
    groups of ``TABLE_DICE`` from the equally-likely-outcome tables (``nd6_start``,
    ``u_nd6_size``: the full group's offset and size). Returns ``(state, damage)``."""
    if h == 0:
        bits = dice_bits
    else:
        s0, s1, s2, s3, x = xoshiro_bits(s0, s1, s2, s3)
        bits = high_bits(x)
    dice_left = n_dice
    raw = np.int64(0)
    while dice_left >= TABLE_DICE:
        raw += nd6_table[nd6_start + index32(bits, u_nd6_size)]
        s0, s1, s2, s3, x = xoshiro_bits(s0, s1, s2, s3)
        bits = high_bits(x)
        dice_left -= TABLE_DICE
    lo = nd6_offsets[dice_left]
    size = nd6_offsets[dice_left + 1] - lo
    raw += nd6_table[lo + np.int64(index32(bits, np.uint64(size)))]
    return s0, s1, s2, s3, raw


@jit(**INNER)
def land_wound(c, hits_lost, stun_lost, through, now, sh, hl, st, tl, rl, standing, sides_left):
    """Damage that no attack dealt (a hazard's, a fall's) lands on ``c`` as
    ``strike.take_wounds`` lands an attack's: Hits and Stun, death at -2 x BODY, F22 stunned,
    F24 penalty, F26 out (its holds let go). Returns ``(went out, sides still standing)``."""
    if through > 0:
        hl.damaged[c] = True
        st.aim[c] = 0
    hl.hits[c] -= hits_lost
    hl.stun[c] -= stun_lost
    if hl.hits[c] <= -2 * sh.body[c] and not hl.dead[c]:
        hl.dead[c] = True
        tl.c_death[c] = now
    if rl.stunned_rule and 2 * stun_lost > sh.stun_max[c]:
        hl.lose[c] = True
    pen = wound_penalty(
        hl.hits[c], sh.hits_max[c], rl.impairment and sh.scale[c] == 0, rl.dying_penalty
    )
    if hl.lose[c]:
        pen += 5
    if pen != hl.penalty[c]:
        hl.penalty[c] = pen
        hl.e_ref[c] = effective(sh.ref[c], pen)
        hl.e_dex[c] = effective(sh.dex[c], pen)
        hl.e_str[c] = effective(sh.strength[c], pen)
    went_out = False
    if not hl.is_out[c] and (
        hl.gave_up[c] or out_of_fight(hl.hits[c], hl.stun[c], hl.dead[c], rl.dying_can_act)
    ):
        went_out = True
        sides_left = goes_out(c, now, hl.is_out, tl.c_out, sh.side, standing, sides_left)
        if st.held_by[c] >= 0 or st.hold[c] != HOLD_NONE:
            st.held_by[c] = -1
            st.hold[c] = HOLD_NONE
    return went_out, sides_left


@jit(**INNER)
def count_standing(s, out, standing, sides_left):
    """One of side ``s`` goes out of the fight (``out``) or comes back: the side's count of
    those standing, and the number of sides with anyone standing, which it returns."""
    if out:
        standing[s] -= 1
        if standing[s] == 0:
            sides_left -= 1
    else:
        if standing[s] == 0:
            sides_left += 1
        standing[s] += 1
    return sides_left


@jit(**INNER)
def goes_out(c, now, is_out, c_out, side, standing, sides_left):
    """Combatant ``c`` goes out of the fight in time unit ``now`` (F26): marked out, the time
    unit it first went out kept, one fewer standing on its side. Returns the sides left."""
    is_out[c] = True
    if c_out[c] == 0:
        c_out[c] = now
    return count_standing(side[c], True, standing, sides_left)


@jit(**INNER)
def comes_back(c, now, now_out, is_out, c_out, side, standing, sides_left):
    """Combatant ``c`` is out of the fight when ``now_out``, at the end of a slot (woken, or
    bled to death): its side's count follows a change. Returns the sides left."""
    if now_out == is_out[c]:
        return sides_left
    if now_out:
        return goes_out(c, now, is_out, c_out, side, standing, sides_left)
    is_out[c] = False
    return count_standing(side[c], False, standing, sides_left)


@jit(inline="always")
def wake_and_bleed(c, now, phase_end, end_of_round, minute, free_recovery, stable, hits, stun,
                   stun_max, rec, body, dead, c_death, log, events, ne):  # fmt: skip
    """The end of a slot for combatant ``c``, alive: it wakes (F23: its REC back in Stun, up
    to its STUN) when knocked out and ``wakes`` says so or the free Recovery comes, and, dying
    and not ``stable``, bleeds at the end of a round (F25: dead past -2 x BODY). Returns
    (anything changed, it woke, the events logged)."""
    changed = False
    woke = False
    if hits[c] > 0 and stun[c] < stun_max[c]:
        if free_recovery or wakes(stun[c], phase_end, end_of_round, minute):
            stun[c] = min(stun[c] + rec[c], stun_max[c])
            changed = True
            woke = True
    if end_of_round and hits[c] <= 0 and not stable:
        hits[c], died = bleed(hits[c], body[c])
        changed = True
        if died:
            dead[c] = True
            c_death[c] = now
        if log:
            row = log_event(events, ne, now, EVENT_BLEED, c, -1)
            events[row, EV_HITS] = hits[c]
            events[row, EV_STUN] = stun[c]
            events[row, EV_FLAGS] = FLAG_DEAD * dead[c]
            ne += 1
    return changed, woke, ne


@jit(inline="always")
def log_wake(events, ne, now, c, hits, stun, out):
    """An event row for combatant ``c`` waking (its Hits, Stun and whether it is still out);
    returns the events logged."""
    row = log_event(events, ne, now, EVENT_WAKE, c, -1)
    events[row, EV_HITS] = hits[c]
    events[row, EV_STUN] = stun[c]
    events[row, EV_FLAGS] = FLAG_OUT * out
    return ne + 1
