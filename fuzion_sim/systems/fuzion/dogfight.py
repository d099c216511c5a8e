"""The general kernel's dogfight room (M-53 to M-58; VA-16, VA-32 to VA-34).

The kernel calls four entry points, each compiled with ``_nrt=False`` and never inlined,
behind one flag worked out once a chunk (``Dogfight.on``: some tactic names ``dogfight``;
PERFORMANCE-NOTES lessons 13 to 15): :func:`dogfight_reset` at the start of each trial,
:func:`dogfight_phase` at the start of each phase (or of each round, ``dogfight_cadence:
round``) before anyone acts, :func:`dogfight_act` for the ``dogfight`` and ``break_off``
actions, and :func:`dogfight_attack` once an attack's target is in reach. A fight without
a dogfight pays one predictable branch per phase, per non-moving action and per attack.

- **The roll** (M-54, VA-33): each pilot of an engaged pair rolls its Piloting (its vehicle's
  control skill) + current REF + the action die (the task die of the project: 3d6 or 1d10,
  criticals F3 unless ``criticals: none``; no flat 10) + the vehicle's Maneuver Value; the
  margin ``m`` is the difference, ``+m`` for one and ``-m`` for the other. It costs no action.
- **The chart** (VA-32, ``data/dogfight.yaml``, not from the seed): ``|m| >= tail_min`` is
  tailing, ``|m| >= adv_min`` the Advantage, else neutral. The loser may not attack the winner;
  in a neutral phase neither may attack the other (``dogfight_tie: both``: both may); the
  tailing winner has ``tail_bonus`` (+2) to its attack on the loser. Inside the pair the
  moving-target penalty is not applied (VA-16). Anyone else attacks, and is attacked, normally.
- **Engaging** (``dogfight``): the pilot's action of the phase is spent manoeuvring for
  position, a ``run`` toward the target; the pair is engaged from then on and makes its first
  roll at once (``intercept: perception``: that first roll is INT + Perception + die, VA-34,
  M-53). Both must be flying vehicles with a pilot; against any other target the action is idle.
  Engaging a new partner leaves the old pair.
- **Breaking off** (``break_off``, M-57, VA-34): a pilot holding the Advantage announces; from
  the round of the announcement (the next round when it is made after the round's first phase)
  it must win every roll for ``break_off_rounds`` rounds (``break_off_time: d6_half``:
  ceil(1d6 / 2), rolled at the announcement); a roll it does not win ends the announcement. At
  the start of the round after that it escapes: the pair disengages and the vehicle (with its
  crew) leaves the fight as fled (``gave_up``, as a surrender), counted in ``broke_off``. Both
  pilots choosing ``break_off`` in the same or consecutive phases is mutual agreement: both
  leave. Without the Advantage the action is spent in vain. Each ``break_off`` is a ``run``
  away from the other pilot.
- The pair disengages when either vehicle or its pilot is out.

``DState.dfs`` (int64[C, 3]: partner or -1, this phase's margin, 1 when tailing) is also
what the tactics read (``actions.Sense.dogfight_state``: ``advantage``, ``tailing``).
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from ..._jit import jit
from ...engine.rng import xoshiro
from . import tactics as tx
from .codes import (
    EV_ACTION,
    EV_AV,
    EV_DV,
    EV_FLAGS,
    EV_LOCATION,
    EV_RAW,
    EV_ROLL,
    EV_THROUGH,
    EVENT_BREAK_OFF,
    EVENT_DOGFIGHT,
    EVENT_DOGFIGHT_BARRED,
    EVENT_IDLE,
    FLAG_HIT,
    FLAG_OUT,
)
from .kernel_parts import log_event

__all__ = [
    "BO_ANNOUNCE", "BO_ESCAPE", "BO_LAPSE", "BO_MUTUAL", "BO_NO_ADVANTAGE", "DF_ENGAGE",
    "DF_INTERCEPT", "DF_ROLL", "DState", "Dogfight", "POS_ADVANTAGE", "POS_NEUTRAL",
    "POS_TAILING", "dogfight_act", "dogfight_attack", "dogfight_phase", "dogfight_reset",
]  # fmt: skip

#: The positions of the chart (``EV_LOCATION`` of a dogfight event).
POS_NEUTRAL = 0
POS_ADVANTAGE = 1
POS_TAILING = 2
#: What a dogfight event's roll was (``EV_ACTION``): a phase's roll, the engaging roll, the
#: engaging roll as a Perception intercept (VA-34).
DF_ROLL = 0
DF_ENGAGE = 1
DF_INTERCEPT = 2
#: What a break-off event says (``EV_ROLL``): announced (``EV_RAW`` the rounds to hold), the
#: announcement lapsed (a roll not won), escaped, mutual agreement, no Advantage to announce.
BO_ANNOUNCE = 0
BO_LAPSE = 1
BO_ESCAPE = 2
BO_MUTUAL = 3
BO_NO_ADVANTAGE = 4

#: ``df``: the switches and the rollers. ``on``: some tactic names ``dogfight``; ``fly``
#: int64[C] 1 for a flying vehicle; ``skill`` the pilot's control skill + the Maneuver Value;
#: ``intel`` the pilot's INT + Perception (the intercept); ``per_round``: ``dogfight_cadence:
#: round``; the chart's ``adv_min``, ``tail_min``, ``tail_bonus``; ``unit`` the slots a phase
Dogfight = namedtuple(
    "Dogfight",
    "on fly skill intel per_round tie_both perception break_rounds break_d6 adv_min tail_min "
    "tail_bonus unit",
)
#: ``ds``: the trial's state. ``dfs`` int64[C, 3] (partner, margin, tailing); ``since`` the
#: first round a break-off announcement counts (-1: none); ``need`` its rounds; ``wish`` the
#: phase it last chose ``break_off`` (mutual agreement); the counters: rolls made, won, won by
#: tailing, 1 when it broke off
DState = namedtuple("DState", "dfs since need wish c_rolls c_won c_tail c_broke")


@jit(_nrt=False)
def dogfight_reset(ds):
    """The start of a trial: nobody engaged, no announcement, the counters at 0."""
    for c in range(ds.dfs.shape[0]):
        ds.dfs[c, 0] = -1
        ds.dfs[c, 1] = 0
        ds.dfs[c, 2] = 0
        ds.since[c] = -1
        ds.need[c] = 0
        ds.wish[c] = -10
        ds.c_rolls[c] = 0
        ds.c_won[c] = 0
        ds.c_tail[c] = 0
        ds.c_broke[c] = 0


@jit(inline="always")
def _part(ds, c):
    """``c`` leaves its pair (no partner, no margin, no announcement)."""
    ds.dfs[c, 0] = -1
    ds.dfs[c, 1] = 0
    ds.dfs[c, 2] = 0
    ds.since[c] = -1


@jit(inline="always")
def _position(df, m):
    if m >= df.tail_min:
        return POS_TAILING
    if m >= df.adv_min:
        return POS_ADVANTAGE
    return POS_NEUTRAL


@jit(_nrt=False)
def roll_pair(a, b, how, df, ds, e_ref, pilot_of, task_table, s0, s1, s2, s3, log, events, ne,
              now):  # fmt: skip
    """The dogfight roll of the pair ``(a, b)`` (M-54): both roll, the margin is ``a``'s total
    less ``b``'s. ``how``: ``DF_ROLL``, ``DF_ENGAGE`` or ``DF_INTERCEPT`` (INT + Perception).
    A pilot whose announced break-off this roll does not win loses the announcement. Returns
    ``(state, ne)``."""
    n_task = task_table.shape[0]
    if how == DF_INTERCEPT:
        ta = df.intel[a]
        tb = df.intel[b]
    else:
        ta = e_ref[pilot_of[a]] + df.skill[a]
        tb = e_ref[pilot_of[b]] + df.skill[b]
    s0, s1, s2, s3, u = xoshiro(s0, s1, s2, s3)
    ra = np.int64(task_table[np.int64(u * n_task)])
    s0, s1, s2, s3, u = xoshiro(s0, s1, s2, s3)
    rb = np.int64(task_table[np.int64(u * n_task)])
    m = ta + ra - (tb + rb)
    ds.dfs[a, 1] = m
    ds.dfs[b, 1] = -m
    ds.dfs[a, 2] = m >= df.tail_min
    ds.dfs[b, 2] = -m >= df.tail_min
    ds.c_rolls[a] += 1
    ds.c_rolls[b] += 1
    w = a if m >= 0 else b
    lo = b if m >= 0 else a
    am = m if m >= 0 else -m
    pos = _position(df, am)
    if pos != POS_NEUTRAL:
        ds.c_won[w] += 1
        if pos == POS_TAILING:
            ds.c_tail[w] += 1
    if log:
        row = log_event(events, ne, now, EVENT_DOGFIGHT, w, lo)
        events[row, EV_ACTION] = how
        events[row, EV_RAW] = am
        events[row, EV_ROLL] = ra if w == a else rb
        events[row, EV_THROUGH] = rb if w == a else ra
        events[row, EV_AV] = ta + ra if w == a else tb + rb
        events[row, EV_DV] = tb + rb if w == a else ta + ra
        events[row, EV_LOCATION] = pos
        events[row, EV_FLAGS] = FLAG_HIT * (pos == POS_TAILING)
        ne += 1
    for c in (a, b):  # an announced break-off needs every roll won (VA-34)
        if ds.since[c] >= 0 and ds.dfs[c, 1] < df.adv_min:
            ds.since[c] = -1
            if log:
                row = log_event(events, ne, now, EVENT_BREAK_OFF, c, ds.dfs[c, 0])
                events[row, EV_ROLL] = BO_LAPSE
                ne += 1
    return s0, s1, s2, s3, ne


@jit(inline="always")
def _leave(c, how, ds, side, is_out, gave_up, c_out, carrier, standing, sides_left, log, events,
           ne, now):  # fmt: skip
    """``c`` breaks off and leaves the fight as fled, with its crew. Returns (ne, sides)."""
    p = ds.dfs[c, 0]
    if p >= 0:
        _part(ds, p)
    _part(ds, c)
    ds.c_broke[c] = 1
    for x in range(side.shape[0]):
        if (x == c or carrier[x] == c) and not is_out[x]:
            is_out[x] = True
            gave_up[x] = True
            if c_out[x] == 0:
                c_out[x] = now
            standing[side[x]] -= 1
            if standing[side[x]] == 0:
                sides_left -= 1
    if log:
        row = log_event(events, ne, now, EVENT_BREAK_OFF, c, p)
        events[row, EV_ROLL] = how
        events[row, EV_FLAGS] = FLAG_OUT
        ne += 1
    return ne, sides_left


@jit(_nrt=False)
def dogfight_phase(now, round_start, rounds_done, df, ds, side, is_out, gave_up, c_out, e_ref,
                   pilot_of, carrier, task_table, standing, sides_left, s0, s1, s2, s3, log,
                   events, ne):  # fmt: skip
    """The start of a phase (``round_start``: the round's first), before anyone acts: pairs
    with a vehicle or a pilot out part; at a round's start a break-off held long enough
    escapes (VA-34); every other engaged pair rolls (every phase, or only at a round's start
    under ``dogfight_cadence: round``, the margin holding for the round). Returns ``(state,
    ne, sides still standing)``."""
    if df.per_round and not round_start:
        return s0, s1, s2, s3, ne, sides_left
    n = side.shape[0]
    for a in range(n):
        b = ds.dfs[a, 0]
        if b <= a:
            continue  # each pair once (from its lower index); -1: not engaged
        if (is_out[a] or is_out[b] or pilot_of[a] < 0 or pilot_of[b] < 0
                or is_out[pilot_of[a]] or is_out[pilot_of[b]]):  # fmt: skip
            _part(ds, a)
            _part(ds, b)
            continue
        if round_start:
            escaped = False
            for c in (a, b):
                if not escaped and ds.since[c] >= 0 and rounds_done - ds.since[c] >= ds.need[c]:
                    ne, sides_left = _leave(c, BO_ESCAPE, ds, side, is_out, gave_up, c_out,
                                            carrier, standing, sides_left, log, events, ne,
                                            now)  # fmt: skip
                    escaped = True
            if escaped:
                continue
        s0, s1, s2, s3, ne = roll_pair(a, b, DF_ROLL, df, ds, e_ref, pilot_of, task_table, s0,
                                       s1, s2, s3, log, events, ne, now)  # fmt: skip
    return s0, s1, s2, s3, ne, sides_left


@jit(_nrt=False)
def dogfight_act(a, tgt, action, slot, rounds_done, df, ds, side, is_out, gave_up, c_out, e_ref,
                 pilot_of, carrier, task_table, standing, sides_left, s0, s1, s2, s3, log,
                 events, ne, now):  # fmt: skip
    """The ``dogfight`` and ``break_off`` actions of ``a`` at ``tgt`` (see the module's
    docstring). Returns ``(state, ne, sides still standing, action, param)``: ``run`` toward
    (``dogfight``) or away from the other pilot (``break_off``), or -1 when the action is
    spent here (idle, in vain, or it left the fight)."""
    if action == tx.A_DOGFIGHT:
        if (not (df.fly[a] and df.fly[tgt]) or pilot_of[a] < 0 or pilot_of[tgt] < 0
                or is_out[pilot_of[tgt]]):  # fmt: skip
            if log:
                row = log_event(events, ne, now, EVENT_IDLE, a, tgt)
                events[row, EV_ACTION] = action
                ne += 1
            return s0, s1, s2, s3, ne, sides_left, -1, 0
        if ds.dfs[a, 0] != tgt:  # engage: leave any other pair, the first roll at once
            if ds.dfs[a, 0] >= 0:
                _part(ds, ds.dfs[a, 0])
                _part(ds, a)
            if ds.dfs[tgt, 0] >= 0:
                _part(ds, ds.dfs[tgt, 0])
                _part(ds, tgt)
            ds.dfs[a, 0] = tgt
            ds.dfs[tgt, 0] = a
            how = DF_INTERCEPT if df.perception else DF_ENGAGE
            s0, s1, s2, s3, ne = roll_pair(a, tgt, how, df, ds, e_ref, pilot_of, task_table, s0,
                                           s1, s2, s3, log, events, ne, now)  # fmt: skip
        return s0, s1, s2, s3, ne, sides_left, tx.A_RUN, tx.M_TARGET
    # break_off
    p = ds.dfs[a, 0]
    if p < 0:
        if log:
            row = log_event(events, ne, now, EVENT_IDLE, a, tgt)
            events[row, EV_ACTION] = action
            ne += 1
        return s0, s1, s2, s3, ne, sides_left, -1, 0
    if now - ds.wish[p] <= 1:  # mutual agreement: both leave
        ne, sides_left = _leave(a, BO_MUTUAL, ds, side, is_out, gave_up, c_out, carrier,
                                standing, sides_left, log, events, ne, now)  # fmt: skip
        ne, sides_left = _leave(p, BO_MUTUAL, ds, side, is_out, gave_up, c_out, carrier,
                                standing, sides_left, log, events, ne, now)  # fmt: skip
        return s0, s1, s2, s3, ne, sides_left, -1, 0
    ds.wish[a] = now
    if ds.since[a] < 0:
        if ds.dfs[a, 1] < df.adv_min:
            if log:
                row = log_event(events, ne, now, EVENT_BREAK_OFF, a, p)
                events[row, EV_ROLL] = BO_NO_ADVANTAGE
                events[row, EV_RAW] = ds.dfs[a, 1]
                ne += 1
            return s0, s1, s2, s3, ne, sides_left, -1, 0
        ds.since[a] = rounds_done if slot < df.unit else rounds_done + 1
        need = df.break_rounds
        if df.break_d6:  # ceil(1d6 / 2), as the missile chase
            s0, s1, s2, s3, u = xoshiro(s0, s1, s2, s3)
            need = (np.int64(u * 6.0) + 2) // 2
        ds.need[a] = need
        if log:
            row = log_event(events, ne, now, EVENT_BREAK_OFF, a, p)
            events[row, EV_ROLL] = BO_ANNOUNCE
            events[row, EV_RAW] = need
            ne += 1
    return s0, s1, s2, s3, ne, sides_left, tx.A_RUN, tx.M_AWAY


@jit(_nrt=False)
def dogfight_attack(a, tgt, melee, df, ds, moved, next_mod, log, events, ne, now):
    """An attack of ``a`` on ``tgt`` once in reach: outside ``a``'s pair nothing changes;
    inside, the loser (and, neutral, both unless ``dogfight_tie: both``) may not attack
    (``EVENT_DOGFIGHT_BARRED``, the action spent); the tailing winner has ``tail_bonus``, and
    a ranged attack gets no moving-target penalty (VA-16): both through ``next_mod``, which
    ``strike.attack_odds`` adds and spends. Returns ``(barred, ne)``."""
    if ds.dfs[a, 0] != tgt:
        return False, ne
    m = ds.dfs[a, 1]
    if m <= -df.adv_min or (m < df.adv_min and not df.tie_both):
        if log:
            row = log_event(events, ne, now, EVENT_DOGFIGHT_BARRED, a, tgt)
            events[row, EV_RAW] = m
            ne += 1
        return True, ne
    bonus = np.int64(0)
    if m >= df.tail_min:
        bonus += df.tail_bonus
    if not melee and moved[tgt] >= 10.0:
        bonus += np.int64(moved[tgt] // 10.0)  # what attack_odds takes off for a moving target
    next_mod[a] += bonus
    return False, ne
