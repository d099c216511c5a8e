"""The general FUDGE kernel: every rule of the system, any number of members and sides.

A fight runs in rounds (UA1, UA2). At the start of a round the charges due go off in listed
order (tamping roll, contact hit or breach, then each victim's blast, U4, UA17-UA25). Then
every shooter who can act (below Incapacitated, not out, not behind full cover) takes one
shot at the target its tactic picks (UA16), in the order of ``rules.order``: fixed by
initiative (ties broken once a fight), rolled each round, or simultaneous (every shot against
the round's opening state, the wounds landing at its end). A hit's damage comes from the
compiled table (U2, UA5-UA9), on a hit location (UA26) when they are on; a weapon with a
blast spreads it from its target. A side is beaten when none of its members stand (UA15;
a charge stands until it has gone off, a barrier until it is breached); the fight ends when at
most one side stands, or unresolved when a round passes in which nothing happened and nothing
is due, or at ``max_rounds``.

Random numbers (one generator step each): per trial, the time roll of each timed charge
(UA29), then with random initiative ties one key per shooter; per round, each charge's
tamping roll, contact or breach roll and each victim's rolls (Concussion Value, then
fragmentation), under ``order: rolled`` one step per shooter (roll and tie key); per action,
a target at random when there is a choice, the shot (to-hit roll and Damage Roll from the low
32 bits, the dodge roll from the high 32), a hit location (Method 1, or an aimed shot's random
fallback). The duel kernel draws exactly these numbers for a duel.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..._jit import INNER, jit
from ...engine.outcomes import record_trial
from ...engine.rng import index32, trial_seed, xoshiro_bits
from .codes import (
    BREACH_ABOUT,
    BREACH_DONE,
    DRAW,
    EV_ACTOR,
    EV_DAMAGE,
    EV_EXTRA,
    EV_HIT,
    EV_KIND,
    EV_LEVEL,
    EV_NEED,
    EV_PART,
    EV_POINTS,
    EV_RESULT,
    EV_ROLL,
    EV_ROUND,
    EV_ROW,
    EV_TARGET,
    EVENT_BLAST,
    EVENT_BREACH,
    EVENT_CONTACT,
    EVENT_CRIPPLE,
    EVENT_DETONATE,
    EVENT_END,
    EVENT_SHOT,
    EVENT_TAMP,
    EVENT_WOUND,
    FALLBACK_MISS,
    FALLBACK_RANDOM,
    KIND_BARRIER,
    KIND_CHARGE,
    KIND_MEMBER,
    L_INCAPACITATED,
    LOC_AIMED,
    LOC_NONE,
    NO_DODGE,
    OPT_BLAST_SEPARATE,
    OPT_CRITICAL,
    OPT_CV_AVOID,
    OPT_DODGE,
    OPT_FALLBACK,
    OPT_FRAG_BOTH,
    OPT_HAS_TIES,
    OPT_LOCATIONS,
    OPT_ORDER,
    OPT_PENALTIES,
    OPT_SHOT_ROLL,
    OPT_TORSO,
    ORDER_ROLLED,
    ORDER_SIMULTANEOUS,
    T_FIRST,
    T_NEAREST,
    T_RANDOM,
    T_STRONGEST,
    T_WEAKEST,
    UNRESOLVED,
)
from .kernel_parts import LOW32, draw_roll, draw_shot, roll_of_bits, sides_standing, wound
from .rules import fragments, penalty, shot

__all__ = ["Counts", "Scratch", "run_chunk"]

#: ``wound`` as a called function, for the rare paths (charges, blasts, a simultaneous round's
#: landing): four more inlined copies of it made the kernel slow to compile.
_wound = jit(wound.py_func, **INNER)

_S32 = np.uint64(32)


class Counts(NamedTuple):
    """What the general kernel counts beyond the shared outcomes (``run.schema_of``): per
    trial, ``crippled`` (int32[T, C], 1 when a part of the member was crippled, UA27); summed
    over the block (int64[C, K], added to), the ``wound_levels`` each member ends at (U3), the
    ``location_hits`` it took and its ``crippled_parts`` by location (UA26), and each barrier's
    ``breach_states`` (UA24)."""

    crippled: np.ndarray
    wound_levels: np.ndarray
    location_hits: np.ndarray
    crippled_parts: np.ndarray
    breach_states: np.ndarray


class Scratch(NamedTuple):
    """The working arrays :func:`run_chunk` allocates once a chunk for its trial loop (int64,
    one word a combatant unless said), so that the loop allocates nothing and compiles without
    reference counting.

    A fight's state, reset each trial: ``trk`` (the wound track), ``lvl`` (its wound level),
    ``outs`` and ``deaths`` (the round it went out, died; 0: not yet), ``crip`` (a part was
    crippled), ``part_dmg`` and ``part_crip`` (nine words a combatant: damage and crippling by
    location), ``breach`` (a barrier's state), ``side_left`` (one word a side: who still
    stands), ``dealt_t``, ``taken_t``, ``att_t`` and ``land_t`` (the trial's sums),
    ``det_round`` (the round a charge goes off). The order of a round: ``cand`` (a tactic's
    candidates), ``order``, ``key_hi`` and ``key_lo`` (the shooters and their sort keys). A
    simultaneous round's wounds, queued until its end (``C * (2C + 2) + 1`` words each, room
    for every wound a round's shots and blasts can queue): ``q_t`` (target), ``q_d``
    (damage), ``q_crit``, ``q_part``, ``q_src`` (shooter). Worked out once a chunk:
    ``shooters`` (who may shoot, in listed order), ``foes`` (C words a combatant: the members
    it may shoot, in listed order) and ``n_foes`` (how many).
    """

    trk: np.ndarray
    lvl: np.ndarray
    outs: np.ndarray
    deaths: np.ndarray
    crip: np.ndarray
    part_dmg: np.ndarray
    part_crip: np.ndarray
    breach: np.ndarray
    side_left: np.ndarray
    dealt_t: np.ndarray
    taken_t: np.ndarray
    att_t: np.ndarray
    land_t: np.ndarray
    det_round: np.ndarray
    cand: np.ndarray
    order: np.ndarray
    key_hi: np.ndarray
    key_lo: np.ndarray
    q_t: np.ndarray
    q_d: np.ndarray
    q_crit: np.ndarray
    q_part: np.ndarray
    q_src: np.ndarray
    shooters: np.ndarray
    foes: np.ndarray
    n_foes: np.ndarray


@jit(**INNER)
def _log(events, n_events, kind, rnd, actor, target, roll, need, result, hit, row, damage,
         part, level, extra, points):  # fmt: skip
    """Append one event row (past the log's end, into its scratch last row). Called, not
    inlined: it runs only for a replayed trial."""
    i = n_events[0]
    last = events.shape[0] - 1
    i = i if i < last else last
    e = events[i]
    e[EV_KIND] = kind
    e[EV_ROUND] = rnd
    e[EV_ACTOR] = actor
    e[EV_TARGET] = target
    e[EV_ROLL] = roll
    e[EV_NEED] = need
    e[EV_RESULT] = result
    e[EV_HIT] = hit
    e[EV_ROW] = row
    e[EV_DAMAGE] = damage
    e[EV_PART] = part
    e[EV_LEVEL] = level
    e[EV_EXTRA] = extra
    e[EV_POINTS] = points
    n_events[0] += 1


@jit(inline="always")
def _choose(s0, s1, s2, s3, a, n, foes, n_foes, pair_dist, targeting, outs, lvl, cand):
    """The target ``a``'s tactic picks (UA16): among the enemies it may shoot (``foes[a * n:]``,
    the ``n_foes[a]`` members it may shoot in listed order) that are not out, those who can
    still act first; then the first listed, the nearest, the most or least wounded, or one at
    random (a generator step when there is a choice). -1: none."""
    if targeting[a] == T_FIRST:  # the first able enemy, else the first helpless: no list
        first = -1
        for i in range(n_foes[a]):
            t = foes[a * n + i]
            if outs[t] == 0:
                if lvl[t] < L_INCAPACITATED:
                    return s0, s1, s2, s3, t
                if first < 0:
                    first = t
        return s0, s1, s2, s3, first
    m = 0
    able = 0
    for i in range(n_foes[a]):
        t = foes[a * n + i]
        if outs[t] == 0:
            cand[m] = t
            m += 1
            if lvl[t] < L_INCAPACITATED:
                able += 1
    if m == 0:
        return s0, s1, s2, s3, -1
    if 0 < able < m:  # a helpless enemy only when nobody able is left
        j = 0
        for i in range(m):
            if lvl[cand[i]] < L_INCAPACITATED:
                cand[j] = cand[i]
                j += 1
        m = j
    rule = targeting[a]
    if rule == T_FIRST or m == 1:
        return s0, s1, s2, s3, cand[0]
    if rule == T_RANDOM:
        s0, s1, s2, s3, x = xoshiro_bits(s0, s1, s2, s3)
        return s0, s1, s2, s3, cand[np.int64(index32(x & LOW32, np.uint64(m)))]
    best = cand[0]
    for i in range(1, m):
        t = cand[i]
        if rule == T_NEAREST:
            better = pair_dist[a * n + t] < pair_dist[a * n + best]
        elif rule == T_WEAKEST:
            better = lvl[t] > lvl[best]
        elif rule == T_STRONGEST:
            better = lvl[t] < lvl[best]
        else:
            better = False
        if better:
            best = t
    return s0, s1, s2, s3, best


@jit(inline="always")
def _sort_order(order, m, key_hi, key_lo):
    """Sort ``order[:m]`` by ``key_hi`` descending, then ``key_lo`` descending, then index
    ascending (an insertion sort: a few shooters)."""
    for i in range(1, m):
        c = order[i]
        j = i - 1
        while j >= 0:
            o = order[j]
            if key_hi[o] > key_hi[c] or (key_hi[o] == key_hi[c] and (
                    key_lo[o] > key_lo[c] or (key_lo[o] == key_lo[c] and o < c))):
                break
            order[j + 1] = o
            j -= 1
        order[j + 1] = c



@jit(inline="always")
def _blast_on(s0, s1, s2, s3, conc, zone, cv, adj, cv_avoid, frag_both, blast_separate):
    """A blast's rolls on one victim (UA25): its Concussion Value ``conc`` avoided on a roll of
    at least ``cv`` (``cv_avoid``), then the fragments of its ``zone``. Returns the generator,
    the concussion, the fragments and the damage of the blast's two pieces after the victim's
    adjustment ``adj`` (one piece, the sum, unless ``blast_separate``; -1: no piece, where its
    amount is under 1)."""
    if cv_avoid and conc > 0 and cv < 99:
        s0, s1, s2, s3, roll = draw_roll(s0, s1, s2, s3)
        if roll >= cv:
            conc = 0
    frag = 0
    if zone > 0:
        s0, s1, s2, s3, roll = draw_roll(s0, s1, s2, s3)
        frag = fragments(zone, roll)
        if frag_both and zone == 1:
            s0, s1, s2, s3, roll = draw_roll(s0, s1, s2, s3)
            frag += fragments(2, roll)
    first, second = (conc, frag) if blast_separate else (conc + frag, 0)
    d_first = max(first + adj, 0) if first >= 1 else -1
    d_second = max(second + adj, 0) if second >= 1 else -1
    return s0, s1, s2, s3, conc, frag, d_first, d_second


@jit(inline="always")
def _new_trial(s0, s1, s2, s3, max_rounds, track, tallies, charges, timing, ranks):
    """A trial's start: the state reset, each timed charge's time rolled (UA29: ``timing``, the
    plan's ``ch_round`` and ``ch_timed``) and the fixed order of the shooters (UA1: initiative,
    ties by a key drawn once a fight; ``ranks``, the order, its keys, the shooters and their
    initiative). Returns the generator and the charges due within ``max_rounds``."""
    (options, side, _, _, _, _, trk, lvl, outs, deaths, crip, part_dmg, part_crip, side_left, _,
     _) = track  # fmt: skip
    dealt_t, taken_t, att_t, land_t = tallies
    kind, det_round, breach = charges[0], charges[1], charges[2]
    ch_round, ch_timed = timing
    order, key_hi, key_lo, shooters, n_shooters, initiative = ranks
    n = kind.shape[0]
    order_mode = options[OPT_ORDER]
    trk[:] = 0
    lvl[:] = 0
    outs[:] = 0
    deaths[:] = 0
    crip[:] = 0
    part_dmg[:] = 0
    part_crip[:] = 0
    breach[:] = 0
    side_left[:] = 0
    dealt_t[:] = 0
    taken_t[:] = 0
    att_t[:] = 0
    land_t[:] = 0
    pending = 0
    for c in range(n):
        side_left[side[c]] += 1
        det_round[c] = 0
        if kind[c] == KIND_CHARGE:
            roll = 0
            if ch_timed[c]:  # UA29: the charge's time from a roll
                s0, s1, s2, s3, roll = draw_roll(s0, s1, s2, s3)
            det_round[c] = ch_round[c * 9 + roll + 4]
            if det_round[c] <= max_rounds:
                pending += 1
    # the fixed order (UA1): initiative, ties by a key drawn once a fight
    for i in range(n_shooters):
        c = shooters[i]
        order[i] = c
        key_hi[c] = initiative[c]
        key_lo[c] = 0
    if options[OPT_HAS_TIES] != 0:
        for i in range(n_shooters):
            s0, s1, s2, s3, x = xoshiro_bits(s0, s1, s2, s3)
            key_lo[shooters[i]] = np.int64(x >> np.uint64(1))
    if order_mode != ORDER_SIMULTANEOUS and order_mode != ORDER_ROLLED:
        _sort_order(order, n_shooters, key_hi, key_lo)
    return s0, s1, s2, s3, pending


@jit(inline="always")
def _charges_due(s0, s1, s2, s3, rnd, pending, n_sides, charges, track, tallies, logging,
                 events, n_events):  # fmt: skip
    """The charges due in round ``rnd`` go off in listed order (U4, UA17-UA25): the tamping
    roll, the contact hit or the breach, each victim's blast; a charge is out once it has gone
    off. ``charges``, ``track`` and ``tallies`` are :func:`_trials`' groups. Returns the
    generator, the charges still pending, how many went off and the fight's result if it ended
    (``UNRESOLVED``: it goes on). Inlined into :func:`_trials`."""
    (kind, det_round, breach, ch_tamp, ch_tamp_skill, ch_contact, ch_breach, ch_dmg, ch_conc,
     ch_zone, ch_cv, ch_adj) = charges  # fmt: skip
    (options, side, width, dead_at, loc_blow, loc_total, trk, lvl, outs, deaths, crip, part_dmg,
     part_crip, side_left, location_hits, crippled_parts) = track  # fmt: skip
    dealt_t, taken_t, att_t, land_t = tallies
    n = kind.shape[0]
    critical_on = options[OPT_CRITICAL] != 0
    cv_avoid = options[OPT_CV_AVOID] != 0
    blast_separate = options[OPT_BLAST_SEPARATE] != 0
    frag_both = options[OPT_FRAG_BOTH] != 0
    acted = 0
    for c in range(n):
        if kind[c] != KIND_CHARGE or det_round[c] != rnd:
            continue
        pending -= 1
        acted += 1
        tamped = ch_tamp[c]
        if tamped == 2:  # an Explosives roll of Fair or better tamps it (§8.32)
            s0, s1, s2, s3, roll = draw_roll(s0, s1, s2, s3)
            tamped = 1 if ch_tamp_skill[c] + roll >= 0 else 0
            if logging:
                _log(events, n_events, EVENT_TAMP, rnd, c, -1, roll, 0, ch_tamp_skill[c] + roll,
                     tamped, 0, 0, -1, 0, 0, 0)
        elif logging:
            _log(events, n_events, EVENT_DETONATE, rnd, c, -1, 0, 0, 0, tamped, 0, 0, -1, 0, 0,
                 0)
        att_t[c] += 1
        did = 0
        t = ch_contact[c]
        if t >= 0 and kind[t] == KIND_BARRIER:
            s0, s1, s2, s3, roll = draw_roll(s0, s1, s2, s3)
            value = ch_breach[(c * 2 + tamped) * 9 + roll + 4]
            # UA24: > 0 breaches; 0 is about to breach, and the next charge will
            if breach[t] != BREACH_DONE and (breach[t] == BREACH_ABOUT or value > 0):
                breach[t] = BREACH_DONE
                did = 1
                outs[t] = rnd
                side_left[side[t]] -= 1
            elif breach[t] != BREACH_DONE and value == 0:
                breach[t] = BREACH_ABOUT
            if logging:
                _log(events, n_events, EVENT_BREACH, rnd, c, t, roll, 0, value, did, 0, 0, -1,
                     breach[t], value, 0)
        elif t >= 0 and kind[t] == KIND_MEMBER:
            s0, s1, s2, s3, roll = draw_roll(s0, s1, s2, s3)
            dmg = ch_dmg[(c * 2 + tamped) * 9 + roll + 4]
            crit = critical_on and roll == 4
            if dmg > 0:
                did = 1
            dealt_t[c] += dmg
            taken_t[t] += dmg
            _wound(t, dmg, crit, -1, rnd, options, side, width, dead_at, loc_blow, loc_total,
                   trk, lvl, outs, deaths, crip, part_dmg, part_crip, side_left, location_hits,
                   crippled_parts)  # fmt: skip
            if logging:
                _log(events, n_events, EVENT_CONTACT, rnd, c, t, 0, 0, 0, 1, roll, dmg, -1,
                     lvl[t], 0, trk[t])
        for v in range(n):
            conc = ch_conc[(c * n + v) * 2 + tamped]
            if conc < 0:
                continue
            s0, s1, s2, s3, conc, frag, d_first, d_second = _blast_on(
                s0, s1, s2, s3, conc, ch_zone[c * n + v], ch_cv[c], ch_adj[c * n + v], cv_avoid,
                frag_both, blast_separate)  # fmt: skip
            for piece in range(2):
                dmg = d_first if piece == 0 else d_second
                if dmg < 0:
                    continue
                if dmg > 0:
                    did = 1
                dealt_t[c] += dmg
                taken_t[v] += dmg
                _wound(v, dmg, False, -1, rnd, options, side, width, dead_at, loc_blow,
                       loc_total, trk, lvl, outs, deaths, crip, part_dmg, part_crip, side_left,
                       location_hits, crippled_parts)  # fmt: skip
                if logging:
                    _log(events, n_events, EVENT_BLAST, rnd, c, v, 0, 0, 0, 1, conc, dmg, -1,
                         lvl[v], frag, trk[v])
        land_t[c] += did
        count, last = sides_standing(side_left, n_sides)
        if count <= 1:
            return s0, s1, s2, s3, pending, acted, last if count == 1 else DRAW
        outs[c] = rnd  # spent: the charge is out once it has gone off
        side_left[side[c]] -= 1
        count, last = sides_standing(side_left, n_sides)
        if count <= 1:
            return s0, s1, s2, s3, pending, acted, last if count == 1 else DRAW
    return s0, s1, s2, s3, pending, acted, UNRESOLVED


@jit(inline="always")
def _spread(s0, s1, s2, s3, rnd, a, t, nq, blasts, track, tallies, queue, logging, events,
            n_events):  # fmt: skip
    """Shooter ``a``'s weapon hit ``t`` and its blast spreads from there (UA25): each victim's
    rolls, its wounds queued under a simultaneous order (``nq`` queued so far), else taken.
    Returns the generator, the queue's length and 1 if a side has no one left standing."""
    blast_type, bl_conc, bl_zone, bl_adj, bl_cv = blasts
    (options, side, width, dead_at, loc_blow, loc_total, trk, lvl, outs, deaths, crip, part_dmg,
     part_crip, side_left, location_hits, crippled_parts) = track  # fmt: skip
    dealt_t, taken_t, _, _ = tallies
    q_t, q_d, q_crit, q_part, q_src = queue
    n = side.shape[0]
    simultaneous = options[OPT_ORDER] == ORDER_SIMULTANEOUS
    cv_avoid = options[OPT_CV_AVOID] != 0
    blast_separate = options[OPT_BLAST_SEPARATE] != 0
    frag_both = options[OPT_FRAG_BOTH] != 0
    b = blast_type[a]
    gone = 0
    for v in range(n):
        conc = bl_conc[(b * n + t) * n + v]
        if conc < 0:
            continue
        s0, s1, s2, s3, conc, frag, d_first, d_second = _blast_on(
            s0, s1, s2, s3, conc, bl_zone[(b * n + t) * n + v], bl_cv[b], bl_adj[b * n + v],
            cv_avoid, frag_both, blast_separate)  # fmt: skip
        for piece in range(2):
            bd = d_first if piece == 0 else d_second
            if bd < 0:
                continue
            dealt_t[a] += bd
            taken_t[v] += bd
            if simultaneous:
                q_t[nq], q_d[nq], q_crit[nq], q_part[nq], q_src[nq] = v, bd, False, -1, a
                nq += 1
            else:
                e, _ = _wound(v, bd, False, -1, rnd, options, side, width, dead_at, loc_blow,
                              loc_total, trk, lvl, outs, deaths, crip, part_dmg, part_crip,
                              side_left, location_hits, crippled_parts)  # fmt: skip
                gone += e
            if logging:
                _log(events, n_events, EVENT_BLAST, rnd, a, v, 0, 0, 0, 1, conc, bd, -1, lvl[v],
                     frag, trk[v])
    return s0, s1, s2, s3, nq, gone


@jit(inline="always")
def _land(rnd, nq, track, queue, logging, events, n_events):
    """A simultaneous round's ``nq`` queued wounds land together, in order (UA1)."""
    (options, side, width, dead_at, loc_blow, loc_total, trk, lvl, outs, deaths, crip, part_dmg,
     part_crip, side_left, location_hits, crippled_parts) = track  # fmt: skip
    q_t, q_d, q_crit, q_part, q_src = queue
    for i in range(nq):
        t = q_t[i]
        _, newly = _wound(t, q_d[i], q_crit[i] != 0, q_part[i], rnd, options, side, width,
                          dead_at, loc_blow, loc_total, trk, lvl, outs, deaths, crip, part_dmg,
                          part_crip, side_left, location_hits, crippled_parts)  # fmt: skip
        if logging:
            _log(events, n_events, EVENT_WOUND, rnd, q_src[i], t, 0, 0, 0, 1, 0, q_d[i],
                 q_part[i], lvl[t], 0, trk[t])
            if newly >= 0:
                _log(events, n_events, EVENT_CRIPPLE, rnd, q_src[i], t, 0, 0, 0, 1, 0,
                     part_dmg[t * 9 + newly], newly, lvl[t], 0, trk[t])


@jit
def run_chunk(key, first, n_trials, plan, shared, counts, log_trial, events, n_events):
    """Run trials ``first .. first + n_trials - 1`` of the chunk with stream ``key``.

    ``plan`` is a :class:`~.compile.Plan`, ``shared`` the shared per-trial outputs
    (:class:`~fuzion_sim.engine.outcomes.Shared`) and ``counts`` the system's own
    (:class:`Counts`). With ``log_trial`` >= 0 that trial's events go to ``events``
    (int64[E, N_EV_FIELDS]; ``n_events[0]`` counts them).
    """
    n = plan.n_combatants
    q_size = n * (2 * n + 2) + 1  # a simultaneous round's wounds
    scratch = Scratch(
        np.zeros(n, np.int64), np.zeros(n, np.int64), np.zeros(n, np.int64),
        np.zeros(n, np.int64), np.zeros(n, np.int64), np.zeros(n * 9, np.int64),
        np.zeros(n * 9, np.int64), np.zeros(n, np.int64), np.zeros(plan.n_sides, np.int64),
        np.zeros(n, np.int64), np.zeros(n, np.int64), np.zeros(n, np.int64),
        np.zeros(n, np.int64), np.zeros(n, np.int64), np.zeros(n, np.int64),
        np.zeros(n, np.int64), np.zeros(n, np.int64), np.zeros(n, np.int64),
        np.zeros(q_size, np.int64), np.zeros(q_size, np.int64), np.zeros(q_size, np.int64),
        np.zeros(q_size, np.int64), np.zeros(q_size, np.int64), np.zeros(n, np.int64),
        np.zeros(n * n, np.int64), np.zeros(n, np.int64),
    )  # fmt: skip
    _trials(key, first, n_trials, plan, shared, counts, log_trial, events, n_events, scratch)


@jit(**INNER)
def _trials(key, first, n_trials, plan, shared, counts, log_trial, events, n_events, scratch):
    """The trial loop of :func:`run_chunk`, with its :class:`Scratch`: compiled without
    reference counting (it allocates nothing), so an array handed to an inlined helper costs
    no reference count in the loop. The groups' fields it reads are the loop's own variables.

    A trial's start (:func:`_new_trial`), the charges (:func:`_charges_due`), a weapon's
    blast (:func:`_spread`) and a simultaneous round's landing (:func:`_land`) are written
    apart and inlined by numba (``inline="always"``): one trial loop in the machine code,
    as fast as written in place. The rare paths' wounds are called (``_wound``)."""
    n, n_sides, max_rounds = plan.n_combatants, plan.n_sides, plan.max_rounds
    n_dmg_parts, options, kind, side = plan.n_dmg_parts, plan.options, plan.kind, plan.side
    shooter, skill, initiative, dodge = plan.shooter, plan.skill, plan.initiative, plan.dodge
    dodges, targeting, width, dead_at = plan.dodges, plan.targeting, plan.width, plan.dead_at
    aim_part, aim_need, blast_type = plan.aim_part, plan.aim_need, plan.blast_type
    pair_ok, pair_need, pair_bonus = plan.pair_ok, plan.pair_need, plan.pair_bonus
    pair_dist, pair_dmg, loc_part = plan.pair_dist, plan.pair_dmg, plan.loc_part
    loc_blow, loc_total = plan.loc_blow, plan.loc_total
    winner, end_slot, out_slot, death_slot, dealt, taken, attacks, landed = shared
    crippled, wound_levels = counts.crippled, counts.wound_levels
    location_hits, crippled_parts = counts.location_hits, counts.crippled_parts
    breach_states = counts.breach_states
    trk, lvl, outs, deaths = scratch.trk, scratch.lvl, scratch.outs, scratch.deaths
    crip, part_dmg, part_crip = scratch.crip, scratch.part_dmg, scratch.part_crip
    breach, side_left, dealt_t = scratch.breach, scratch.side_left, scratch.dealt_t
    taken_t, att_t, land_t, cand = scratch.taken_t, scratch.att_t, scratch.land_t, scratch.cand
    order, key_hi, key_lo, q_t = scratch.order, scratch.key_hi, scratch.key_lo, scratch.q_t
    q_d, q_crit, q_part, q_src = scratch.q_d, scratch.q_crit, scratch.q_part, scratch.q_src
    shooters, foes, n_foes = scratch.shooters, scratch.foes, scratch.n_foes
    order_mode = options[OPT_ORDER]
    simultaneous = order_mode == ORDER_SIMULTANEOUS
    rolled = order_mode == ORDER_ROLLED
    dodge_on = options[OPT_DODGE] != 0
    shot_roll = options[OPT_SHOT_ROLL]
    critical_on = options[OPT_CRITICAL] != 0
    penalties_on = options[OPT_PENALTIES] != 0
    locations = options[OPT_LOCATIONS]
    fallback = options[OPT_FALLBACK]
    torso = options[OPT_TORSO]
    k0, k1, k2, k3 = key[0], key[1], key[2], key[3]
    n_events[0] = 0

    n_shooters = 0
    n_charges = 0
    for c in range(n):
        if shooter[c]:
            shooters[n_shooters] = c
            n_shooters += 1
        n_charges += kind[c] == KIND_CHARGE
        n_foes[c] = 0
        for t in range(n):  # the members c may shoot, in listed order (``_choose``)
            if pair_ok[c * n + t] and kind[t] == KIND_MEMBER:
                foes[c * n + n_foes[c]] = t
                n_foes[c] += 1

    # the groups the inlined steps take
    track = (options, side, width, dead_at, loc_blow, loc_total, trk, lvl, outs, deaths, crip,
             part_dmg, part_crip, side_left, location_hits, crippled_parts)
    tallies = (dealt_t, taken_t, att_t, land_t)
    queue = (q_t, q_d, q_crit, q_part, q_src)
    charges = (kind, scratch.det_round, breach, plan.ch_tamp, plan.ch_tamp_skill,
               plan.ch_contact, plan.ch_breach, plan.ch_dmg, plan.ch_conc, plan.ch_zone,
               plan.ch_cv, plan.ch_adj)
    blasts = (blast_type, plan.bl_conc, plan.bl_zone, plan.bl_adj, plan.bl_cv)
    timing = (plan.ch_round, plan.ch_timed)
    ranks = (order, key_hi, key_lo, shooters, n_shooters, initiative)

    for j in range(n_trials):
        logging = j == log_trial
        s0, s1, s2, s3 = trial_seed(k0, k1, k2, k3, first + j)
        s0, s1, s2, s3, pending = _new_trial(s0, s1, s2, s3, max_rounds, track, tallies, charges,
                                             timing, ranks)  # fmt: skip

        result = UNRESOLVED
        finish = max_rounds
        for rnd in range(1, max_rounds + 1):
            acted = 0
            ended = False
            # --- charges due this round (U4, UA17-UA25) ---
            if n_charges:
                s0, s1, s2, s3, pending, acted, outcome = _charges_due(
                    s0, s1, s2, s3, rnd, pending, n_sides, charges, track, tallies, logging,
                    events, n_events)  # fmt: skip
                if outcome != UNRESOLVED:
                    result = outcome
                    finish = rnd
                    break
            if ended:
                break

            # --- the shots of the round ---
            # (under simultaneous order the wounds wait for the round's end, so every shot
            # meets the state the round opened with)
            m = n_shooters
            if simultaneous:
                for i in range(n_shooters):
                    order[i] = shooters[i]
            elif rolled:  # UA1: 4dF + initiative each round, ties by a drawn key
                for i in range(n_shooters):
                    c = shooters[i]
                    s0, s1, s2, s3, x = xoshiro_bits(s0, s1, s2, s3)
                    key_hi[c] = roll_of_bits(x & LOW32) + initiative[c]
                    key_lo[c] = np.int64(x >> _S32)
                    order[i] = c
                _sort_order(order, m, key_hi, key_lo)
            nq = 0
            for i in range(m):
                a = order[i]
                if outs[a] != 0 or lvl[a] >= L_INCAPACITATED:
                    continue
                s0, s1, s2, s3, t = _choose(s0, s1, s2, s3, a, n, foes, n_foes, pair_dist,
                                            targeting, outs, lvl, cand)  # fmt: skip
                if t < 0:
                    continue
                acted += 1
                q = a * n + t
                pen = penalty(lvl[a], penalties_on)
                s0, s1, s2, s3, _, ra, rb, hi = draw_shot(s0, s1, s2, s3)
                dres = np.int64(NO_DODGE)
                if dodge_on and dodges[t] and outs[t] == 0 and lvl[t] < L_INCAPACITATED:
                    dres = dodge[t] + roll_of_bits(hi) + penalty(lvl[t], penalties_on)
                hit, row, res = shot(ra, rb, skill[a], pair_bonus[q], pen, pair_need[q], dres,
                                     shot_roll)  # fmt: skip
                part = -1
                if hit and locations != LOC_NONE:
                    if locations == LOC_AIMED and res >= aim_need[a]:
                        part = aim_part[a]
                    elif locations == LOC_AIMED and fallback == FALLBACK_MISS:
                        hit = False
                    elif locations == LOC_AIMED and fallback != FALLBACK_RANDOM:
                        part = torso
                    else:
                        s0, s1, s2, s3, lroll = draw_roll(s0, s1, s2, s3)
                        part = loc_part[lroll + 4]
                att_t[a] += 1
                dmg = 0
                crit = False
                if hit:
                    land_t[a] += 1
                    dmg = pair_dmg[(q * n_dmg_parts + (part if part >= 0 else 0)) * 9 + row + 4]
                    crit = critical_on and row == 4
                    dealt_t[a] += dmg
                    taken_t[t] += dmg
                gone = 0
                newly = -1
                if hit and simultaneous:
                    q_t[nq], q_d[nq], q_crit[nq], q_part[nq], q_src[nq] = t, dmg, crit, part, a
                    nq += 1
                elif hit:
                    e, newly = wound(t, dmg, crit, part, rnd, options, side, width, dead_at,
                                     loc_blow, loc_total, trk, lvl, outs, deaths, crip,
                                     part_dmg, part_crip, side_left, location_hits,
                                     crippled_parts)  # fmt: skip
                    gone += e
                if logging:
                    _log(events, n_events, EVENT_SHOT, rnd, a, t, ra, pair_need[q], res, hit,
                         row, dmg, part, lvl[t], dres, trk[t])
                    if newly >= 0:
                        _log(events, n_events, EVENT_CRIPPLE, rnd, a, t, 0, 0, 0, 1, 0,
                             part_dmg[t * 9 + newly], newly, lvl[t], 0, trk[t])
                if hit and blast_type[a] >= 0:  # the weapon's blast spreads from its target
                    s0, s1, s2, s3, nq, e = _spread(s0, s1, s2, s3, rnd, a, t, nq, blasts, track,
                                                    tallies, queue, logging, events, n_events)
                    gone += e
                if gone and not simultaneous:
                    count, last = sides_standing(side_left, n_sides)
                    if count <= 1:
                        result = last if count == 1 else DRAW
                        finish = rnd
                        ended = True
                        break
            if simultaneous and nq:  # the round's wounds land together (UA1)
                _land(rnd, nq, track, queue, logging, events, n_events)
                count, last = sides_standing(side_left, n_sides)
                if count <= 1:
                    result = last if count == 1 else DRAW
                    finish = rnd
                    ended = True
            if ended:
                break
            if acted == 0 and pending == 0:  # nothing happened and nothing is due
                finish = rnd
                break

        if logging:
            _log(events, n_events, EVENT_END, finish, -1, -1, 0, 0, 0, result, 0, 0, -1, 0, 0, 0)
        record_trial(j, result, finish, outs, deaths, dealt_t, taken_t, att_t, land_t, winner,
                     end_slot, out_slot, death_slot, dealt, taken, attacks, landed)
        for c in range(n):
            crippled[j, c] = crip[c]
            if kind[c] == KIND_MEMBER:
                wound_levels[c, lvl[c]] += 1
            elif kind[c] == KIND_BARRIER:
                breach_states[c, breach[c]] += 1
