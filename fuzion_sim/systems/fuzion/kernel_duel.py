"""The duel kernel: a standing fight of exactly two combatants, with the state in scalars.

A standing fight (``kernel_standing``) of one against one under ``timing: phases`` with nobody
surprised needs no per-combatant arrays at all: both combatants' Hits, Stun, penalties and
cached attack and defence values live in local scalars, which the compiler keeps in registers.
That is the benchmark duel of PERFORMANCE-NOTES.md, and it runs about twice as fast here.
Every rule the standing kernel applies to such a fight is here too (criticals, range, armour,
killing and Stun damage, collateral Stun, stunned, impairment, dying and ``dying_can_act`` with
bleeding and death, initiative switch1 and switch2); waking never happens in a duel (a knocked
out combatant ends it). The tests hold it to the standing and general kernels bit for bit.

Four rule options the standing kernels do not run are run here as the general kernel runs them
(``strike.py``: ``strike`` and ``blast``; ``actions.py``: the default tactic's run), the same
draws in the same order: F27 hit locations (random and called), F15 autofire, F28 knockback
(and what it brings: the range band, reach, a default tactic running back into range, a moving
target, cover left behind) and F17 spreads (an area weapon that is not an explosive; the
attacker within the radius is caught too). One body (``_kernel``) makes six kernels: the bare
duel, compiled without the options' code, one for each option alone, and one for any mix;
``run.py`` picks by ``DuelPlan.options``. The options' arithmetic takes scalars only (an array
handed to a helper costs reference counting in the trial loop) and branches on no die it need
not branch on (a knockback die is drawn always and kept only for a hit).

Bulk runs only: a replay (event log) of the same trial runs on the standing kernel, which draws
the same numbers in the same order, or, for a fight with one of the options, on the general
kernel.

How it is laid out: a kernel (``_kernel``) works out the chunk's values (``_chunk_values``:
the values table, the damage dice, and per combatant what its attacks and its wounds are made
of, ``_side``) and runs ``trials``, compiled per set of options (``_trials``) without reference
counting. The trial loop keeps the duel's state in scalars and writes the rules as steps numba
inlines (each takes scalars and a few groups of the plans' arrays, ``_parts``): a lost action's
end (``_recovered``), a wound that crosses a line (``_struck``, and ``_blasted`` for a blast's),
a run back into range (``_run_back``), knockback (``_knock_back``, ``_knocked``), autofire and
hit locations (``_bullets``), a spread (``_spread``), a round's bleeding (``_round_end``,
``_bleeds``) and a trial's end (``_record``). A step that took the whole plans as its groups
made a fight 3 to 5 % slower than steps that take the arrays they read (PERFORMANCE-NOTES
lesson 55).
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from ..._jit import INNER, jit
from ...engine.outcomes import tally_duel
from ...engine.rng import high_bits, index32, split_bits, trial_seed, xoshiro, xoshiro_bits
from .codes import (
    DRAW,
    LOC_NONE,
    OPT_AUTOFIRE_HITS,
    OPT_AUTOFIRE_RATIO,
    OPT_DYING_CAN_ACT,
    OPT_DYING_PENALTY,
    OPT_HAS_TIES,
    OPT_IMPAIRMENT,
    OPT_INIT_DICE,
    OPT_STUNNED,
    OPT_SWITCH2,
    UNRESOLVED,
)
from .dice import TABLE_DICE
from .kernel_parts import values_table
from .rules import (
    KILLING,
    bleed,
    damage_dice,
    effective,
    initiative_key,
    split_through,
    watch_line,
    wound_penalty,
)


@jit(inline="always")
def _row(table, row, opponent_melee):
    """A combatant's cached values from its ``values_table`` row: (attack base, the DV its
    opponent's weapon meets, current REF, dice groups, offset and size of the rest's table)."""
    dv = table[row, 2] if opponent_melee else table[row, 1]
    lo, size = np.uint64(table[row, 5]), np.uint64(table[row, 6])
    return table[row, 0], dv, table[row, 3], table[row, 4], lo, size


@jit(inline="always")
def _take(h, dead, death, lose, st, stun_lost, t, body, hmax, stun_limit, impairment,
          dying_penalty, dying_can_act):  # fmt: skip
    """What a wound that crossed a watch line does (F21-F25), after Hits and Stun are taken:
    (dead, slot of death, stunned, the penalty now, out of the fight)."""
    if h <= -2 * body and not dead:
        dead = True
        death = t
    if stun_lost > stun_limit:
        lose = True
    pen = wound_penalty(h, hmax, impairment, dying_penalty) + 5 * lose
    out = dead or st <= 0 or (h <= 0 and not dying_can_act)
    return dead, death, lose, pen, out


# rules.range_modifier, move_toward and move_away, inlined (a call out of the trial loop would
# spill the duel's state kept in registers); the same operations, so the same numbers.


@jit(inline="always")
def _band(dist, listed):
    """F10: the range band's modifier at ``dist`` metres of a weapon of range ``listed``."""
    if dist > listed:
        return -6 - np.int64((dist - listed) // 50.0)
    if dist <= 4.0:
        return np.int64(0)
    if dist <= 10.0:
        return np.int64(-2)
    if dist <= 50.0:
        return np.int64(-4)
    return np.int64(-6)


@jit(inline="always")
def _span(dist, listed0, listed1):
    """The metres ``(lo, hi]`` around ``dist`` over which neither weapon's range band (``_band``)
    changes: between the band edges 4, 10 and 50 m and the listed ranges; ``(dist, dist]``,
    nothing, past either listed range (the extreme bands, worked out each time)."""
    if dist > listed0 or dist > listed1:
        return dist, dist
    lo = -np.inf
    hi = min(listed0, listed1)
    for edge in (4.0, 10.0, 50.0):
        if edge < dist:
            lo = edge
        elif edge < hi:
            hi = edge
    return lo, hi


@jit(inline="always")
def _toward(x, y, tx, ty, step, stop_at):
    """Up to ``step`` metres toward ``(tx, ty)``, stopping ``stop_at`` short: the new place and
    the metres moved."""
    dx = tx - x
    dy = ty - y
    dist = np.sqrt(dx * dx + dy * dy)
    go = dist - stop_at
    if go <= 0.0 or dist == 0.0:
        return x, y, 0.0
    if go > step:
        go = step
    return x + dx * go / dist, y + dy * go / dist, go


@jit(inline="always")
def _away(x, y, fx, fy, step):
    """``step`` metres straight away from ``(fx, fy)`` (along +x when on top of it)."""
    dx = x - fx
    dy = y - fy
    dist = np.sqrt(dx * dx + dy * dy)
    if dist == 0.0:
        return x + step, y
    return x + dx * step / dist, y + dy * step / dist


@jit(inline="always")
def _distance(x0, y0, x1, y1):
    """Metres between the two, as the general kernel's ``geometry`` computes them."""
    dx = x1 - x0
    dy = y1 - y0
    return np.sqrt(dx * dx + dy * dy)


@jit(inline="always")
def _mod(dist, cover_t, moved_t, ranged, listed, still, cover_mod):
    """The modifier to an attack once someone moved (``strike.attack_odds``): ``still`` what
    does not change (the target's size, the attacker's own modifier, a called shot, F27;
    autofire's -1 per full 10 shots, F15), ``cover_mod`` the target's cover and posture while
    it keeps them (``cover_t``), and for a ranged weapon of range ``listed`` the range band
    (F10) and a moving target's -1 per 10 m. Scalars only: an array handed to a helper would
    cost reference counting in the trial loop."""
    m = still
    if cover_t:
        m += cover_mod
    if ranged:
        m += _band(dist, listed)
        if moved_t >= 10.0:
            m -= np.int64(moved_t // 10.0)
    return m


_NO_SUMS = (np.int64(0),) * 16  # a chunk's sums before its first trial (``_add``)
#: A chunk's dice: the rolls' table size, the 5d6 table's offset and size, the acting and
#: defending rolls' table sizes (a blast's), whether the defender's roll is a flat 10 (HERO) and
#: that 10, the 3d6 table's offset (switch2), autofire's shots a full margin and whether the
#: first bullet needs no margin (F15).
_Dice = namedtuple("_Dice", "n_rolls nd6_start nd6_size n_task n_def one_def def_flat init_lo "
                            "ratio one_plus")  # fmt: skip
#: What one combatant's attacks on the other and its own wounds are made of (``_side``).
_Side = namedtuple("_Side", "killing stop mod band ranged listed still cover_mod reach "
                            "stun_limit fresh watch")  # fmt: skip


@jit(no_cpython_wrapper=True)
def _chunk_values(sp, dp):
    """What a chunk works out once from the standing plan ``sp`` and the duel plan ``dp``: the
    values table (``kernel_parts.values_table``) and its rows a combatant, the damage dice under
    each penalty (F12-F14), the wound rules (impairment, the dying penalty, the dying acting),
    the dice (``_Dice``), and per combatant (0 attacking 1, 1 attacking 0) what its attacks
    and its own wounds are made of (``_Side``)."""
    options, w_melee, w_range = sp.options, sp.w_melee, dp.w_range
    dying_penalty = options[OPT_DYING_PENALTY]
    wounds = (options[OPT_IMPAIRMENT] != 0, dying_penalty, options[OPT_DYING_CAN_ACT] != 0)
    n_pen = max(4, dying_penalty) + 6  # penalties 0 .. the dying penalty + 5
    table = values_table(
        n_pen, sp.ref, sp.dex, sp.strength, sp.att_skill, sp.w_acc, sp.w_min_str, sp.w_dc,
        w_melee, sp.def_ranged, sp.def_melee, sp.nd6_offsets,
    )  # fmt: skip
    n_dice = np.empty(2 * n_pen, np.int64)
    for c in range(2):
        for p in range(n_pen):
            n_dice[c * n_pen + p] = damage_dice(
                sp.w_dc[c], effective(sp.strength[c], p), sp.w_min_str[c], w_melee[c]
            )
    nd6_offsets = sp.nd6_offsets
    nd6_start = np.uint64(nd6_offsets[TABLE_DICE])  # the 5d6 table
    dice = _Dice(
        np.uint64(sp.roll_table.shape[0]), nd6_start,
        np.uint64(nd6_offsets[TABLE_DICE + 1]) - nd6_start,
        np.float64(dp.task_table.shape[0]), np.float64(dp.def_table.shape[0]),
        dp.def_table.shape[0] == 1, np.int64(dp.def_table[0]), nd6_offsets[3],
        max(options[OPT_AUTOFIRE_RATIO], 1), options[OPT_AUTOFIRE_HITS] != 0,
    )  # fmt: skip
    span = _span(sp.pair_dist[1], w_range[0], w_range[1])
    return (table, n_pen, n_dice, wounds, dice, span,
            _side(sp, dp, 0, table, n_pen, wounds[0]),
            _side(sp, dp, 1, table, n_pen, wounds[0]))  # fmt: skip


@jit(inline="always")
def _side(sp, dp, a, table, n_pen, impairment):
    """What combatant ``a``'s attacks on the other (``t``) and its own wounds are made of, at a
    fight's start: Killing or not, what stops its damage (armour, for Stun damage SD if higher:
    F20), its modifier, the range band of its weapon, its ranged attack's parts for ``_mod``
    (ranged, listed range, what does not change, the target's cover), how far it may stand from
    the target before its turn needs more than an attack (a run back into range under the
    default tactic, or no attack out of reach in melee), the Stun a blow must take for it to be
    stunned (F22: more than half), its values row and its watch line."""
    t = 1 - a
    pair = 1 if a == 0 else 2  # a * C + t
    killing = sp.w_dmg[a] == KILLING
    stop = sp.pair_armour[pair] if killing or sp.pair_armour[pair] > sp.sd[t] else sp.sd[t]
    ranged = sp.w_melee[a] == 0
    if ranged:
        still = dp.tgt_mod_r[t] + dp.att_mod_r[a] + dp.fixed_mod[a]
        cover_mod = dp.cover_r[t]
    else:
        still = dp.tgt_mod_m[t] + dp.att_mod_m[a] + dp.fixed_mod[a]
        cover_mod = dp.cover_m[t]
    listed = dp.w_range[a]
    reach = listed if dp.tac_default[a] != 0 or sp.w_melee[a] != 0 else np.inf
    never = np.int64(1 << 62)
    stun_limit = sp.stun_max[a] // 2 if sp.options[OPT_STUNNED] != 0 else never
    fresh = _row(table, a * n_pen, sp.w_melee[t] != 0)
    watch = watch_line(sp.hits_max[a], sp.hits_max[a], sp.body[a], impairment)
    return _Side(killing, stop, sp.pair_mod[pair] + dp.fixed_mod[a],
                 _band(sp.pair_dist[1], listed), ranged, listed, still, cover_mod, reach,
                 stun_limit, fresh, watch)  # fmt: skip


@jit(inline="always")
def _struck(h, st, stun_lost, t, fate, a, stun_limit, who, wounds, table, n_pen, row):
    """What a wound that crossed ``a``'s watch line, took its Stun to 0 or stunned it does, its
    Hits and Stun already taken (F21-F25): ``fate`` (dead, the time it died, stunned, its
    penalty) after it, its watch line, its values ``row`` (``_row``) under the new penalty and
    whether it is out of the fight."""
    body, hits_max, w_melee = who
    dead, death, lose, pen = fate
    impairment, dying_penalty, dying_can_act = wounds
    body, hits_max = body[a], hits_max[a]
    dead, death, lose, now, gone = _take(
        h, dead, death, lose, st, stun_lost, t, body, hits_max, stun_limit, impairment,
        dying_penalty, dying_can_act,
    )  # fmt: skip
    if now != pen:
        row = _row(table, a * n_pen + now, w_melee[1 - a] != 0)
    return dead, death, lose, now, watch_line(h, hits_max, body, impairment), row, gone


@jit(inline="always")
def _recovered(h, a, who, wounds, table, n_pen):
    """The end of ``a``'s lost action (F22): the -5 gone, its penalty and values ``row``."""
    _, hits_max, w_melee = who
    impairment, dying_penalty, _ = wounds
    pen = wound_penalty(h, hits_max[a], impairment, dying_penalty)
    return False, pen, _row(table, a * n_pen + pen, w_melee[1 - a] != 0)


@jit(inline="always")
def _round_end(h0, h1, fates, out0, out1, watch0, watch1, t, who, wounds, table, n_pen):
    """The end of a round: the dying bleed 1 Hit and die at -2 x BODY (F25; ``_bleeds``); only
    a dying combatant that fights on (``dying_can_act``) is still in a duel to bleed. Returns
    both ones' Hits, fates, times out, watch lines and values rows."""
    _, _, w_melee = who
    fate0, fate1 = fates
    row0 = _row(table, fate0[3], w_melee[1] != 0)
    row1 = _row(table, n_pen + fate1[3], w_melee[0] != 0)
    if h0 <= 0 and not fate0[0]:
        h0, fate0, out0, watch0, row0 = _bleeds(h0, fate0, out0, t, 0, who, wounds, table, n_pen)
    if h1 <= 0 and not fate1[0]:
        h1, fate1, out1, watch1, row1 = _bleeds(h1, fate1, out1, t, 1, who, wounds, table, n_pen)
    return h0, h1, (fate0, fate1), out0, out1, watch0, watch1, row0, row1


@jit(inline="always")
def _bleeds(h, fate, out, t, a, who, wounds, table, n_pen):
    """F25 at a round's end for ``a``, dying: a Hit lost, death at -2 x BODY. Returns its Hits,
    ``fate`` (as ``_struck``'s), its time out, watch line and values ``row``."""
    body, hits_max, w_melee = who
    dead, death, lose, pen = fate
    impairment, dying_penalty, _ = wounds
    h, died = bleed(h, body[a])
    if died:
        dead = True
        death = t
        out = t
    watch = watch_line(h, hits_max[a], body[a], impairment)
    pen = wound_penalty(h, hits_max[a], impairment, dying_penalty) + 5 * lose
    row = _row(table, a * n_pen + pen, w_melee[1 - a] != 0)
    return h, (dead, death, lose, pen), out, watch, row


@jit(inline="always")
def _mods(dist, cover, moved, c0, c1):
    """Each one's attack modifier (``_mod``; 0 attacking 1, then 1 attacking 0) at ``dist``,
    from whether each keeps its cover (``cover``) and the metres each ran (``moved``)."""
    return (_mod(dist, cover[1], moved[1], c0.ranged, c0.listed, c0.still, c0.cover_mod),
            _mod(dist, cover[0], moved[0], c1.ranged, c1.listed, c1.still, c1.cover_mod))


@jit(inline="always")
def _run_back(a, pos, moved, cover, dist, bands, moves, c0, c1):
    """The default tactic's run of ``a`` back into its weapon's range (``actions.act_move``),
    its whole action: up to ``run_m`` metres toward the other, stopping just inside the range,
    leaving its cover. Returns the places, the metres each ran, their cover, how far each may
    stand before its turn needs more than an attack (the runner's -1: it ran), the distance,
    the range bands there (``_band``, and the metres ``_span`` over which they hold) and the
    attack modifiers."""
    _, w_range, run_m, _, _, _ = moves
    px0, py0, px1, py1 = pos
    reach = max(w_range[a] - 0.01, 0.0)
    if a == 0:
        px0, py0, went = _toward(px0, py0, px1, py1, run_m[0], reach)
        moved = (went, moved[1])
        cover = (cover[0] and not went > 0.0, cover[1])
    else:
        px1, py1, went = _toward(px1, py1, px0, py0, run_m[1], reach)
        moved = (moved[0], went)
        cover = (cover[0], cover[1] and not went > 0.0)
    if went > 0.0:
        dist = _distance(px0, py0, px1, py1)
        bands = _bands(dist, w_range)
    lim = -1.0 if went != 0.0 else (c0.reach if a == 0 else c1.reach)
    mod0, mod1 = _mods(dist, cover, moved, c0, c1)
    return (px0, py0, px1, py1), moved, cover, lim, dist, bands, mod0, mod1


@jit(inline="always")
def _bands(dist, w_range):
    """The range band of each one's weapon at ``dist`` and the metres ``(lo, hi]`` over which
    neither changes."""
    lo, hi = _span(dist, w_range[0], w_range[1])
    return _band(dist, w_range[0]), _band(dist, w_range[1]), lo, hi


@jit(inline="always")
def _knocked(s0, s1, s2, s3, a, hit, n_knock, pos, moves):
    """F28: a hit of ``a`` knocks the other back (DC + 1d6) - BODY units (``n_knock``: the
    attacker's damage dice), away from the blow. Only a hit draws the die; a knocked-back
    target makes hits a toss-up, so the draw is made always and kept only for a hit (no branch
    to mispredict). Knockback and runs keep both on a line along x when they start on one
    (``flat``): the distance is then |dx|, the square root of dx * dx (exactly so in binary
    floating point: Boldo 2015). Returns the generator, the units and the places."""
    _, _, _, knock_body, knock_unit, flat = moves
    n0, n1, n2, n3, u = xoshiro(s0, s1, s2, s3)
    keep = np.uint64(0) - np.uint64(hit)
    s0 = (n0 & keep) | (s0 & ~keep)
    s1 = (n1 & keep) | (s1 & ~keep)
    s2 = (n2 & keep) | (s2 & ~keep)
    s3 = (n3 & keep) | (s3 & ~keep)
    units = max(n_knock + 1 + np.int64(u * 6.0) - knock_body[1 - a], 0) * hit
    step = units * knock_unit
    px0, py0, px1, py1 = pos
    if a == 0:
        if flat:  # on a line along x: no square roots (``flat`` in the kernel)
            dx = px1 - px0
            ax = abs(dx)
            px1 += dx * step / ax if ax != 0.0 else step
        else:
            px1, py1 = _away(px1, py1, px0, py0, step)
    else:
        if flat:
            dx = px0 - px1
            ax = abs(dx)
            px0 += dx * step / ax if ax != 0.0 else step
        else:
            px0, py0 = _away(px0, py0, px1, py1, step)
    return s0, s1, s2, s3, units, (px0, py0, px1, py1)


@jit(inline="always")
def _knock_back(s0, s1, s2, s3, a, hit, n_knock, pos, bands, moves):
    """A hit's knockback (``_knocked``) and what it changes: the distance, and whether a range
    band changed (a move of 0 m changes nothing; the modifiers change only with a band).
    Returns the generator, the units, the places, the distance and whether a band changed."""
    w_range, flat = moves[1], moves[5]
    s0, s1, s2, s3, units, pos = _knocked(s0, s1, s2, s3, a, hit, n_knock, pos, moves)
    px0, py0, px1, py1 = pos
    dist = abs(px1 - px0) if flat else _distance(px0, py0, px1, py1)
    changed = (dist <= bands[2] or dist > bands[3]) and (
        _band(dist, w_range[0]) != bands[0] or _band(dist, w_range[1]) != bands[1])
    return s0, s1, s2, s3, units, pos, dist, changed


@jit(inline="always")
def _blasted(killing, thr, h, st, watch, fate, row, t, a, stun_limit, who, wounds, table, n_pen):
    """A blast's damage through to ``a`` (``thr``) taken: its Hits and Stun, and where that
    crosses its watch line, takes its Stun to 0 or stuns it, the rest (``_struck``). Returns
    its Hits, Stun, watch line, fate, values row and whether it is out of the fight."""
    lost, stun_lost = split_through(killing, thr, st)
    h, st = h - lost, st - stun_lost
    if h <= watch or st <= 0 or stun_lost > stun_limit:
        dead, death, lose, pen, watch, row, gone = _struck(
            h, st, stun_lost, t, fate, a, stun_limit, who, wounds, table, n_pen, row)
        return h, st, watch, (dead, death, lose, pen), row, gone
    return h, st, watch, fate, row, False


@jit(inline="always")
def _first_to_act(s0, s1, s2, s3, eref0, eref1, init_dice, nd6_table, init_lo):
    """F9 switch2: who acts first this phase, by each one's action die and current REF (ties
    by a die); returns the generator and 0 or 1."""
    s0, s1, s2, s3, key0 = initiative_key(s0, s1, s2, s3, eref0, init_dice, nd6_table, init_lo)
    s0, s1, s2, s3, key1 = initiative_key(s0, s1, s2, s3, eref1, init_dice, nd6_table, init_lo)
    return s0, s1, s2, s3, 0 if key0 >= key1 else 1


@jit(inline="always")
def _damage(s0, s1, s2, s3, bits, groups, lo, size, nd6_table, dice):
    """The attacker's damage dice: ``groups`` full groups from the 5d6 table, one from each
    32 bits (``bits`` first, then one more generator step each), then the rest's table (at
    ``lo``, ``size`` entries). Table indices are unsigned: no negative-index wraparound in the
    hot loop. Returns the generator and the damage."""
    nd6_start, nd6_size = dice.nd6_start, dice.nd6_size
    raw = np.int64(0)
    for _ in range(groups):
        raw += nd6_table[nd6_start + index32(bits, nd6_size)]
        s0, s1, s2, s3, x = xoshiro_bits(s0, s1, s2, s3)
        bits = high_bits(x)
    return s0, s1, s2, s3, raw + nd6_table[lo + index32(bits, size)]


@jit(inline="always")
def _bullets(s0, s1, s2, s3, bits, margin, a, groups, lo, size, killing, stop, stun_t, dice,
             nd6_table, locs, with_auto, with_locs):  # fmt: skip
    """``strike.strike``'s attack with autofire (F15: ``margin`` the roll over what it needed)
    or hit locations (F27: 3d6 for a location, or the called one; the wound table applies the
    location's armour and multiplier): each bullet's damage dice, its damage through, and the
    Hits and Stun that costs (never more Stun than is left). Returns the generator, the hit,
    the Hits and Stun lost and the damage through."""
    locs_on, shots, fixed_loc, loc_of_roll, wound, wound_size, location_hits = locs
    ratio, one_plus = dice.ratio, dice.one_plus
    hit = np.int64(margin >= 0)
    n_bullets = np.int64(1)
    if with_auto:
        fired = shots[a]
        if hit and fired > 1:
            if one_plus:
                n_bullets = min(fired, 1 + margin // ratio)
            else:
                n_bullets = min(fired, max(1, -(-margin // ratio)))
    hits_lost = stun_lost = through = np.int64(0)
    plane = wound.shape[0] // 2  # one attacker's part of the wound table
    for b in range(n_bullets):
        if b > 0:
            s0, s1, s2, s3, x = xoshiro_bits(s0, s1, s2, s3)
            bits = high_bits(x)
        s0, s1, s2, s3, raw = _damage(s0, s1, s2, s3, bits, groups, lo, size, nd6_table, dice)
        if with_locs and locs_on:
            loc = fixed_loc[a]
            if loc < 0:
                s0, s1, s2, s3, u = xoshiro(s0, s1, s2, s3)
                loc = loc_of_roll[np.int64(u * 216.0)]
            thr = wound[a * plane + loc * wound_size + raw] * hit
            location_hits[1 - a, loc] += hit
        else:
            thr = raw - stop
            thr = (thr if thr > 0 else 0) * hit
        lost, lost_stun = split_through(killing, thr, stun_t - stun_lost)
        hits_lost += lost
        stun_lost += lost_stun
        through += thr
    return s0, s1, s2, s3, hit, hits_lost, stun_lost, through


@jit(inline="always")
def _defends(s0, s1, s2, s3, total, dv, def_table, dice):
    """One defence against a blast's ``total`` (the attacker's value and roll): the defending
    roll (HERO's flat 10, or a draw from ``def_table``; the generator steps either way) added
    to ``dv``. Returns the generator and whether the defender was caught."""
    s0, s1, s2, s3, u = xoshiro(s0, s1, s2, s3)
    droll = dice.def_flat
    if not dice.one_def:
        droll = np.int64(def_table[np.int64(u * dice.n_def)])
    return s0, s1, s2, s3, total >= dv + droll


@jit(inline="always")
def _spread(s0, s1, s2, s3, a, groups, lo, size, av, dist, table, dv_rows, blast, dice):
    """F17, a spread (``strike.blast``): the acting roll alone, one damage roll, and each
    combatant within the radius of the target (the target, the attacker too when it stands that
    close) defends in turn, index order, against ``av`` (the attacker's attack value and
    modifier; ``dv_rows``: each one's row of ``table``, whose DV it meets, read only for one
    who defends). The attacker's dice as it rolls them (full groups, then the rest's table),
    each group from a uniform as a blast draws them. Returns the generator, who was caught and
    the damage through to each (no branch on who was caught: whoever was not takes 0)."""
    nd6_table, task_table, def_table, w_area, blast_stop = blast
    nd6_start, nd6_size, n_task = dice.nd6_start, dice.nd6_size, dice.n_task
    i_start, i_size = np.int64(nd6_start), np.float64(nd6_size)  # as a blast indexes the table
    s0, s1, s2, s3, u = xoshiro(s0, s1, s2, s3)
    roll = np.int64(task_table[np.int64(u * n_task)])
    raw = np.int64(0)
    for _ in range(groups):
        s0, s1, s2, s3, u = xoshiro(s0, s1, s2, s3)
        raw += nd6_table[i_start + np.int64(u * i_size)]
    s0, s1, s2, s3, u = xoshiro(s0, s1, s2, s3)
    raw += nd6_table[lo + np.uint64(np.int64(u * np.float64(size)))]
    near = dist <= w_area[a]
    caught0 = caught1 = False
    if a == 1 or near:
        s0, s1, s2, s3, caught0 = _defends(s0, s1, s2, s3, av + roll, table[dv_rows[0], 1],
                                           def_table, dice)  # fmt: skip
    if a == 0 or near:
        s0, s1, s2, s3, caught1 = _defends(s0, s1, s2, s3, av + roll, table[dv_rows[1], 1],
                                           def_table, dice)  # fmt: skip
    thr0 = max(raw - blast_stop[a * 2], 0) * caught0
    thr1 = max(raw - blast_stop[a * 2 + 1], 0) * caught1
    return s0, s1, s2, s3, caught0, caught1, thr0, thr1


@jit(inline="always")
def _record(j, result, finish, n_sides, c0, c1, sums, outs, tl):
    """A trial's end, each one's (time out, time of death, damage dealt, damage taken, attacks,
    hits, knockback units) in ``c0`` and ``c1``: with ``accumulate`` its outcome into the
    tally's histograms and its counts into the chunk's ``sums`` (returned: ``_add``), else
    into the per-trial outputs (``_put``)."""
    if tl[0]:
        tally_duel(result, n_sides, finish, c0[0], c1[0], c0[1], c1[1], tl[1], tl[2], tl[3],
                   tl[4])  # fmt: skip
        return _add(sums, c0, c1)
    outs[0][j] = result
    outs[1][j] = finish
    _put(outs, j, 0, c0)
    _put(outs, j, 1, c1)
    return sums


@jit(inline="always")
def _add(sums, c0, c1):
    """One trial's counts (``_record``'s) added to a chunk's ``sums``, kept in scalars: damage
    dealt, its square, damage taken, its square, attacks, hits, knockback and its square, each
    for 0 then 1."""
    d0, d1, t0, t1, a0, a1, h0, h1, k0, k1 = (
        c0[2], c1[2], c0[3], c1[3], c0[4], c1[4], c0[5], c1[5], c0[6], c1[6])
    return (sums[0] + d0, sums[1] + d1, sums[2] + d0 * d0, sums[3] + d1 * d1,
            sums[4] + t0, sums[5] + t1, sums[6] + t0 * t0, sums[7] + t1 * t1,
            sums[8] + a0, sums[9] + a1, sums[10] + h0, sums[11] + h1,
            sums[12] + k0, sums[13] + k1, sums[14] + k0 * k0, sums[15] + k1 * k1)  # fmt: skip


@jit(inline="always")
def _put(outs, j, c, row):
    """One trial's counts of a combatant (``_record``'s) into the per-trial outputs."""
    out_slot, death_slot, dealt, taken, attacks, landed, knock = outs[2:9]
    out_slot[j, c], death_slot[j, c], dealt[j, c], taken[j, c] = row[0], row[1], row[2], row[3]
    attacks[j, c], landed[j, c], knock[j, c] = row[4], row[5], row[6]


@jit(inline="always")
def _flush(sums, tl):
    """A streamed chunk's sums (``_add``) into the tally's."""
    for i in range(2):  # 0, then 1
        tl[5][i] += sums[i]  # damage dealt, its square, damage taken, its square
        tl[6][i] += sums[2 + i]
        tl[7][i] += sums[4 + i]
        tl[8][i] += sums[6 + i]
        tl[9][i] += sums[8 + i]  # attacks, hits
        tl[10][i] += sums[10 + i]
        tl[11][i] += sums[12 + i]  # knockback units, their square
        tl[12][i] += sums[14 + i]


@jit(inline="always")
def _parts(sp, dp, outs):
    """What the trial's steps read of the plans, in groups: a wound's (each one's BODY, Hits,
    melee or not: ``_struck``), knockback's and a run's (whether the fight knocks back, the
    weapons' ranges, the run, BODY against knockback, metres a unit, and whether both stand on a
    line along x: ``_knocked``), hit locations' (whether the fight uses them, then
    ``_bullets``'s) and a blast's (``_spread``)."""
    return ((sp.body, sp.hits_max, sp.w_melee),
            (dp.knockback != 0, dp.w_range, dp.run_m, dp.knock_body, dp.knock_unit,
             dp.pos_y0[0] == dp.pos_y0[1]),
            (dp.loc_mode != LOC_NONE, dp.shots, dp.fixed_loc, dp.loc_of_roll, dp.wound,
             dp.wound_size, outs[9]),
            (sp.nd6_table, dp.task_table, dp.def_table, dp.w_area, dp.blast_stop))  # fmt: skip


def _kernel(name, doc, with_locs, with_auto, with_moves, with_area):
    """The duel kernel ``name``: it works out the chunk's values (``_chunk_values``) and runs
    the trials (``_trials``, compiled with the options switched on here)."""
    trials = _trials(name, with_locs, with_auto, with_moves, with_area)

    def kernel(key, first, n_trials, sp, dp, outs, tl):
        sums = trials(key, first, n_trials, sp, dp, outs, tl, _chunk_values(sp, dp))
        if tl[0]:
            _flush(sums, tl)

    kernel.__name__, kernel.__qualname__, kernel.__doc__ = name, name, doc
    return jit(kernel)


def _trials(name, with_locs, with_auto, with_moves, with_area):
    """The trials of the duel kernel ``name``, the options switched on here compiled in (numba
    prunes the branches on a closure's variables before it types anything), without reference
    counting (``_jit.INNER``: the steps numba inlines take arrays at no cost, lesson 52)."""

    def trials(key, first, n_trials, sp, dp, outs, tl, values):
        side, hits_max, stun_max, max_slots = sp.side, sp.hits_max, sp.stun_max, sp.max_slots
        roll_table, nd6_table, options = sp.roll_table, sp.nd6_table, sp.options
        table, n_pen, n_dice, wounds, dice, span_fresh, c0, c1 = values
        dying_can_act = wounds[2]
        n_rolls, init_lo = dice.n_rolls, dice.init_lo
        kill0, stop0, lim_fresh0, stun_limit0 = c0.killing, c0.stop, c0.reach, c0.stun_limit
        kill1, stop1, lim_fresh1, stun_limit1 = c1.killing, c1.stop, c1.reach, c1.stun_limit
        has_ties, switch2 = options[OPT_HAS_TIES] != 0, options[OPT_SWITCH2] != 0
        init_dice = options[OPT_INIT_DICE]
        k0, k1, k2, k3 = key[0], key[1], key[2], key[3]
        who, moves, locs, blast = _parts(sp, dp, outs)
        sums = _NO_SUMS  # a streamed chunk's sums (``_record``)
        for j in range(n_trials):
            s0, s1, s2, s3 = trial_seed(k0, k1, k2, k3, first + j)
            h0, h1, st0, st1 = hits_max[0], hits_max[1], stun_max[0], stun_max[1]
            watch0, watch1 = c0.watch, c1.watch
            dead0 = dead1 = lose0 = lose1 = False
            pen0 = pen1 = death0 = death1 = np.int64(0)
            att0, dv0, eref0, grp0, lo0, size0 = c0.fresh
            att1, dv1, eref1, grp1, lo1, size1 = c1.fresh
            mod0, mod1 = c0.mod, c1.mod
            need0, need1 = dv1 - att0 - mod0, dv0 - att1 - mod1  # what each must roll to hit
            out0 = out1 = dealt0 = dealt1 = natt0 = natt1 = land0 = land1 = np.int64(0)
            kn0 = kn1 = self0 = self1 = np.int64(0)  # knockback (F28), damage to oneself (F17)
            pos = (dp.pos_x0[0], dp.pos_y0[0], dp.pos_x0[1], dp.pos_y0[1])  # knockback moves them
            moved, cover, dist = (0.0, 0.0), (True, True), sp.pair_dist[1]  # metres each ran last
            bands = (c0.band, c1.band, span_fresh[0], span_fresh[1])  # ``_bands``
            lim0, lim1 = lim_fresh0, lim_fresh1
            first_c = sp.base_order[0]
            if has_ties:  # F9 switch1: equal REF, a die roll once per fight
                s0, s1, s2, s3, tie0 = xoshiro(s0, s1, s2, s3)
                s0, s1, s2, s3, tie1 = xoshiro(s0, s1, s2, s3)
                first_c = 0 if tie0 >= tie1 else 1
            result, finish = UNRESOLVED, max_slots
            for t in range(1, max_slots + 1):
                if switch2:  # F9 switch2: action die + current REF each phase, ties by a die
                    s0, s1, s2, s3, first_c = _first_to_act(
                        s0, s1, s2, s3, eref0, eref1, init_dice, nd6_table, init_lo)
                for k in range(2):
                    a = first_c if k == 0 else 1 - first_c
                    # the actor: skip when out; a stunned actor loses this action (F22)
                    if a == 0:
                        if out0:
                            continue
                        if lose0:
                            lose0, pen0, row = _recovered(h0, 0, who, wounds, table, n_pen)
                            att0, dv0, eref0, grp0, lo0, size0 = row
                            need0, need1 = dv1 - att0 - mod0, dv0 - att1 - mod1
                            continue
                        need, groups, lo, size = need0, grp0, lo0, size0
                        killing, stop, stun_t = kill0, stop0, st1
                    else:
                        if out1:
                            continue
                        if lose1:
                            lose1, pen1, row = _recovered(h1, 1, who, wounds, table, n_pen)
                            att1, dv1, eref1, grp1, lo1, size1 = row
                            need0, need1 = dv1 - att0 - mod0, dv0 - att1 - mod1
                            continue
                        need, groups, lo, size = need1, grp1, lo1, size1
                        killing, stop, stun_t = kill1, stop1, st0
                    if with_moves and dist > (lim0 if a == 0 else lim1):
                        # knocked out of range or reach, or the actor ran last time (its limit -1)
                        if dp.tac_default[a] != 0 and dist > dp.w_range[a]:
                            pos, moved, cover, lim, dist, bands, mod0, mod1 = _run_back(
                                a, pos, moved, cover, dist, bands, moves, c0, c1)
                            lim0, lim1 = (lim, lim1) if a == 0 else (lim0, lim)
                            need0, need1 = dv1 - att0 - mod0, dv0 - att1 - mod1
                            continue
                        # any other action ends the actor's movement: no longer a moving target
                        lim0, lim1 = (lim_fresh0, lim1) if a == 0 else (lim0, lim_fresh1)
                        if moved[a] != 0.0:  # the other's modifier against it changes
                            moved = (0.0, moved[1]) if a == 0 else (moved[0], 0.0)
                            m0, m1 = _mods(dist, cover, moved, c0, c1)
                            mod0, mod1 = (mod0, m1) if a == 0 else (m0, mod1)
                            need0, need1 = dv1 - att0 - mod0, dv0 - att1 - mod1
                        if sp.w_melee[a] != 0 and dist > dp.w_range[a]:
                            continue  # out of reach (a tactic that attacks without closing in)
                    if with_area and dp.w_area[a] > 0.0:
                        s0, s1, s2, s3, caught0, caught1, thr0, thr1 = _spread(
                            s0, s1, s2, s3, a, groups, lo, size, att0 + mod0 if a == 0 else
                            att1 + mod1, dist, table, (pen0, n_pen + pen1), blast, dice,
                        )  # fmt: skip
                        h0, st0, watch0, (dead0, death0, lose0, pen0), row, gone0 = _blasted(
                            killing, thr0, h0, st0, watch0, (dead0, death0, lose0, pen0),
                            (att0, dv0, eref0, grp0, lo0, size0), t, 0, stun_limit0, who, wounds,
                            table, n_pen)  # fmt: skip
                        att0, dv0, eref0, grp0, lo0, size0 = row
                        h1, st1, watch1, (dead1, death1, lose1, pen1), row, gone1 = _blasted(
                            killing, thr1, h1, st1, watch1, (dead1, death1, lose1, pen1),
                            (att1, dv1, eref1, grp1, lo1, size1), t, 1, stun_limit1, who, wounds,
                            table, n_pen)  # fmt: skip
                        att1, dv1, eref1, grp1, lo1, size1 = row
                        need0, need1 = dv1 - att0 - mod0, dv0 - att1 - mod1
                        if a == 0:
                            natt0, land0, self0 = natt0 + 1, land0 + caught1, self0 + thr0
                            dealt0 += thr0 + thr1
                        else:
                            natt1, land1, self1 = natt1 + 1, land1 + caught0, self1 + thr1
                            dealt1 += thr0 + thr1
                        if gone0 or gone1:
                            out0 = t if gone0 else out0
                            out1 = t if gone1 else out1
                            result = DRAW if gone0 and gone1 else side[1] if gone0 else side[0]
                            finish = t
                            break
                        continue
                    # the attack: one generator step for the roll and the first group of damage
                    # dice (split_bits), one more for every further group (table indices are
                    # unsigned: no negative-index wraparound in the hot loop)
                    s0, s1, s2, s3, x = xoshiro_bits(s0, s1, s2, s3)
                    ri, bits = split_bits(x, n_rolls)
                    if with_locs or with_auto:  # strike.strike: bullets (F15), each to a place
                        s0, s1, s2, s3, hit, hits_lost, stun_lost, through = _bullets(
                            s0, s1, s2, s3, bits, np.int64(roll_table[ri]) - need, a, groups, lo,
                            size, killing, stop, stun_t, dice, nd6_table, locs, with_auto,
                            with_locs,
                        )  # fmt: skip
                    else:
                        hit = np.int64(roll_table[ri] >= need)
                        s0, s1, s2, s3, raw = _damage(
                            s0, s1, s2, s3, bits, groups, lo, size, nd6_table, dice)
                        # F20-F21: armour (and SD against Stun damage) stops; Killing damage costs
                        # as much Stun (never below 0), Stun damage 1 Hit per full 5
                        through = raw - stop
                        through = (through if through > 0 else 0) * hit
                        hits_lost, stun_lost = split_through(killing, through, stun_t)
                    if with_moves and moves[0]:  # F28: (DC + 1d6) - BODY units, away from the blow
                        n_knock = n_dice[pen0] if a == 0 else n_dice[n_pen + pen1]
                        s0, s1, s2, s3, units, pos, dist, changed = _knock_back(
                            s0, s1, s2, s3, a, hit, n_knock, pos, bands, moves)
                        if changed:
                            bands = _bands(dist, moves[1])
                            mod0, mod1 = _mods(dist, cover, moved, c0, c1)
                            need0, need1 = dv1 - att0 - mod0, dv0 - att1 - mod1
                        if a == 0:
                            kn1 += units
                        else:
                            kn0 += units
                    if a == 0:
                        natt0, land0, dealt0 = natt0 + 1, land0 + hit, dealt0 + through
                        h1, st1 = h1 - hits_lost, st1 - stun_lost
                        if h1 <= watch1 or st1 <= 0 or stun_lost > stun_limit1:
                            dead1, death1, lose1, pen1, watch1, row, gone = _struck(
                                h1, st1, stun_lost, t, (dead1, death1, lose1, pen1), 1,
                                stun_limit1, who, wounds, table, n_pen,
                                (att1, dv1, eref1, grp1, lo1, size1))  # fmt: skip
                            att1, dv1, eref1, grp1, lo1, size1 = row
                            need0, need1 = dv1 - att0 - mod0, dv0 - att1 - mod1
                            if gone:
                                out1, result, finish = t, side[0], t
                                break
                    else:
                        natt1, land1, dealt1 = natt1 + 1, land1 + hit, dealt1 + through
                        h0, st0 = h0 - hits_lost, st0 - stun_lost
                        if h0 <= watch0 or st0 <= 0 or stun_lost > stun_limit0:
                            dead0, death0, lose0, pen0, watch0, row, gone = _struck(
                                h0, st0, stun_lost, t, (dead0, death0, lose0, pen0), 0,
                                stun_limit0, who, wounds, table, n_pen,
                                (att0, dv0, eref0, grp0, lo0, size0))  # fmt: skip
                            att0, dv0, eref0, grp0, lo0, size0 = row
                            need0, need1 = dv1 - att0 - mod0, dv0 - att1 - mod1
                            if gone:
                                out0, result, finish = t, side[1], t
                                break
                if result != UNRESOLVED:
                    break
                # end of a round: the dying bleed 1 Hit and die at -2 x BODY (F25); only a dying
                # combatant that fights on (dying_can_act) is still in a duel to bleed
                if dying_can_act and (t & 3) == 0 and (h0 <= 0 or h1 <= 0):
                    fates = ((dead0, death0, lose0, pen0), (dead1, death1, lose1, pen1))
                    h0, h1, fates, out0, out1, watch0, watch1, row0, row1 = _round_end(
                        h0, h1, fates, out0, out1, watch0, watch1, t, who, wounds, table, n_pen)
                    (dead0, death0, lose0, pen0), (dead1, death1, lose1, pen1) = fates
                    att0, dv0, eref0, grp0, lo0, size0 = row0
                    att1, dv1, eref1, grp1, lo1, size1 = row1
                    need0, need1 = dv1 - att0 - mod0, dv0 - att1 - mod1
                    if out0 or out1:
                        result = DRAW if out0 and out1 else side[1] if out0 else side[0]
                        finish = t
                        break
            sums = _record(j, result, finish, sp.n_sides,
                           (out0, death0, dealt0, dealt1 - self1 + self0, natt0, land0, kn0),
                           (out1, death1, dealt1, dealt0 - self0 + self1, natt1, land1, kn1),
                           sums, outs, tl)  # fmt: skip
        return sums

    trials.__name__ = trials.__qualname__ = f"{name}_trials"
    return jit(trials, **INNER)


# The kernels: the bare duel, one for each rule option alone (its code compiled in, the others'
# out: a fight with one option runs as fast as that option allows), and one with all four's code
# for any mix of them. ``run.py`` picks by ``DuelPlan.options``; each compiles on first use.
# The arguments: the chunk's key, its first trial and how many, then in tuples the standing
# plan's arrays (``StandingPlan``), the duel plan's (``DuelPlan``), the per-trial outputs
# (``run.kernel_outputs``) and the tally's (``engine.outcomes.Streamed``, then knockback's sum
# and sum of squares). With ``accumulate`` the trials are added straight into the tally's
# arrays and the per-trial outputs are left alone (a run that streams its results skips writing
# them and reading them back; the numbers are the same either way).
run_chunk = _kernel("run_chunk", "The bare duel: no hit locations, autofire, knockback or spread.",
                    False, False, False, False)  # fmt: skip
run_chunk_locations = _kernel("run_chunk_locations", "Hit locations (F27), random or called.",
                              True, False, False, False)  # fmt: skip
run_chunk_autofire = _kernel("run_chunk_autofire", "Autofire, more than one shot an attack (F15).",
                             False, True, False, False)  # fmt: skip
run_chunk_knockback = _kernel("run_chunk_knockback", "Knockback (F28) and the moves it brings.",
                              False, False, True, False)  # fmt: skip
run_chunk_area = _kernel("run_chunk_area", "A spread (F17).", False, False, False, True)
run_chunk_options = _kernel("run_chunk_options", "Any mix of the four, each where a fight uses it.",
                            True, True, True, True)  # fmt: skip


#: The kernel for each set of options in use (``DuelPlan.options``), any other set
#: ``run_chunk_options``.
KERNELS = {
    (): run_chunk,
    ("locations",): run_chunk_locations,
    ("autofire",): run_chunk_autofire,
    ("knockback",): run_chunk_knockback,
    ("area",): run_chunk_area,
}
