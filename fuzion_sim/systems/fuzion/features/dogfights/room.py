"""The general kernel's dogfight room (M-53 to M-58; VA-16, VA-32 to VA-34).

The kernel calls three entry points, each compiled with ``_nrt=False`` and never inlined,
behind one flag worked out once a chunk (``Dogfight.on``: some tactic names ``dogfight``;
PERFORMANCE-NOTES lessons 13 to 15): :func:`dogfight_reset` at the start of each trial,
:func:`dogfight_phase` at the start of each phase before anyone acts, and
:func:`dogfight_choice` (from ``gate.gate``, the trial loop's one call between the tactics'
choice and the action) when it is ``dogfight`` or ``break_off`` or its target is its dogfight
partner. Nothing is added to the attack's path: the tailing bonus
rides in the pair's modifier (``called_mod``, a copy the chunk owns) and the moving-target
exemption is a test inside ``strike.attack_odds``'s moving-target branch (read only when the
target moved). A fight without a dogfight pays one predictable branch per phase and per choice.

- **The roll** (M-54, VA-33): each pilot of an engaged pair rolls its Piloting (its vehicle's
  control skill) + current REF + the action die (the task die of the project: 3d6 or 1d10,
  criticals F3 unless ``criticals: none``; no flat 10) + the vehicle's Maneuver Value; the
  margin ``m`` is the difference, ``+m`` for one and ``-m`` for the other. It costs no action.
  Under ``dogfight_cadence: round`` a pair rolls at a round's start only (and when engaged).
- **The chart** (VA-32, ``data/dogfight.yaml``, not from the seed): ``|m| >= tail_min`` is
  tailing, ``|m| >= adv_min`` the Advantage, else level (neutral). The loser may not attack the
  winner; after a level roll neither may attack the other (``dogfight_tie: both``: both may);
  an attack the chart bars spends the action. The tailing winner has ``tail_bonus`` (+2) to
  its attacks on the loser (not to a missile's launch, which leaves the pair's modifier out).
  Inside the pair the moving-target penalty is not applied (VA-16). Anyone else attacks, and
  is attacked, normally.
- **Engaging** (``dogfight``): the pilot's action of the phase is spent manoeuvring for
  position, a ``run`` toward the target; the pair is engaged at the start of the next phase and
  makes its first roll then (``intercept: perception``: that first roll is INT + Perception +
  die, VA-34, M-53). Both must be flying vehicles with a pilot; against any other target the
  action is idle. Engaging a new partner leaves the old pair.
- **Breaking off** (``break_off``, M-57, VA-34): a ``run`` away from the target, weighed at the
  next phase's start: if the other pilot chose it too (that phase or the one before), mutual
  agreement, both leave; else a pilot holding the Advantage announces, and from the round of
  the announcement (the next round when it is not a round's first phase) it must win every roll
  for ``break_off_rounds`` rounds (``break_off_time: d6_half``: ceil(1d6 / 2), rolled at the
  announcement); a roll it does not win ends the announcement. At the start of the round after,
  it escapes: the pair parts and the vehicle (with its crew) leaves the fight as fled
  (``gave_up``, as a surrender), counted in ``broke_off``. Without the Advantage the choice is
  spent in vain; outside a dogfight ``break_off`` is idle.
- The pair parts when either vehicle or its pilot is out.

``DState.dfs`` (int64[C, 4]: partner or -1, this phase's margin, 1 when tailing, the partner
its tailing bonus is against) is also what the tactics read (``actions.Sense.dogfight_state``:
``advantage``, ``tailing``) and what ``attack_odds`` reads (``strike.Where.dogfight``).
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from ....._jit import INNER, jit
from .....engine.rng import xoshiro
from ... import tactics as tx
from ...actions import is_attack
from ...codes import (
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
from ...kernel_parts import goes_out, log_event

__all__ = [
    "BO_ANNOUNCE", "BO_ESCAPE", "BO_LAPSE", "BO_MUTUAL", "BO_NO_ADVANTAGE", "DF_ENGAGE",
    "DF_INTERCEPT", "DF_ROLL", "DState", "Dogfight", "POS_ADVANTAGE", "POS_NEUTRAL",
    "POS_TAILING", "dogfight_choice", "dogfight_phase", "dogfight_reset",
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
#: ``ds``: the trial's state. ``dfs`` int64[C, 4] (partner, margin, 1 while its tailing bonus
#: is in ``called_mod``, the partner that bonus is against); ``req`` the target a ``dogfight``
#: chose (-1: none), engaged at the next phase's start; ``since`` the first round a break-off
#: announcement counts (-1: none); ``need`` its rounds; ``wish`` the phase it last chose
#: ``break_off``; the counters: rolls made, won, won by tailing, 1 when it broke off
DState = namedtuple("DState", "dfs req since need wish c_rolls c_won c_tail c_broke")


@jit(**INNER)
def dogfight_reset(df, ds, called_mod):
    """The start of a trial: nobody engaged (the last trial's tailing bonus taken back out of
    ``called_mod``), no announcement, the counters at 0."""
    n = ds.dfs.shape[0]
    for c in range(n):
        if ds.dfs[c, 2] and ds.dfs[c, 3] >= 0:
            called_mod[c * n + ds.dfs[c, 3]] -= df.tail_bonus
        ds.dfs[c, 2] = 0
        ds.dfs[c, 3] = -1
    for c in range(ds.dfs.shape[0]):
        ds.dfs[c, 0] = -1
        ds.dfs[c, 1] = 0
        ds.req[c] = -1
        ds.since[c] = -1
        ds.need[c] = 0
        ds.wish[c] = -10
        ds.c_rolls[c] = 0
        ds.c_won[c] = 0
        ds.c_tail[c] = 0
        ds.c_broke[c] = 0


@jit(**INNER)
def _part(ds, c):
    """``c`` leaves its pair (no partner, no margin, no announcement)."""
    ds.dfs[c, 0] = -1
    ds.dfs[c, 1] = 0
    ds.since[c] = -1


@jit(**INNER)
def _position(df, m):
    if m >= df.tail_min:
        return POS_TAILING
    if m >= df.adv_min:
        return POS_ADVANTAGE
    return POS_NEUTRAL


@jit(**INNER)
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


@jit(**INNER)
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
            gave_up[x] = True
            sides_left = goes_out(x, now, is_out, c_out, side, standing, sides_left)
    if log:
        row = log_event(events, ne, now, EVENT_BREAK_OFF, c, p)
        events[row, EV_ROLL] = how
        events[row, EV_FLAGS] = FLAG_OUT
        ne += 1
    return ne, sides_left


@jit(**INNER)
def _bonus(ds, df, called_mod, c):
    """Keep ``c``'s tailing bonus in its attacks on its partner (``called_mod``, which
    ``strike.attack_odds`` adds to every attack of the pair) and its ``tailing`` flag:
    ``ds.dfs[c, 2]`` says whether the bonus is in, against ``ds.dfs[c, 3]``."""
    n = ds.dfs.shape[0]
    p = ds.dfs[c, 0]
    tail = p >= 0 and ds.dfs[c, 1] >= df.tail_min
    if ds.dfs[c, 2] and ds.dfs[c, 3] >= 0:
        called_mod[c * n + ds.dfs[c, 3]] -= df.tail_bonus
    if tail:
        called_mod[c * n + p] += df.tail_bonus
    ds.dfs[c, 2] = tail
    ds.dfs[c, 3] = p


@jit(**INNER)
def dogfight_phase(now, round_start, rounds_done, df, ds, side, is_out, gave_up, c_out, e_ref,
                   pilot_of, carrier, task_table, called_mod, standing, sides_left, s0, s1, s2,
                   s3, log, events, ne):  # fmt: skip
    """The start of a phase (``round_start``: the round's first), before anyone acts:

    1. the last phase's ``dogfight`` choices engage their pairs (leaving any other pair);
    2. pairs with a vehicle or a pilot out part;
    3. the last phase's ``break_off`` choices: mutual agreement (both chose it, this phase or
       the one before) puts both out as fled; else a pilot holding the Advantage announces;
    4. at a round's start a break-off held long enough escapes (VA-34);
    5. every engaged pair rolls (every phase, or only at a round's start under
       ``dogfight_cadence: round``, the margin holding for the round); a pair just engaged
       rolls at once (its first roll: INT + Perception under ``intercept: perception``).

    Returns ``(state, ne, sides still standing)``."""
    n = side.shape[0]
    for a in range(n):  # 1. engagements
        b = ds.req[a]
        if b < 0:
            continue
        ds.req[a] = -1
        if is_out[a] or is_out[b] or ds.dfs[a, 0] == b:
            continue
        for c in (a, b):
            if ds.dfs[c, 0] >= 0:
                p = ds.dfs[c, 0]
                _part(ds, p)
                _bonus(ds, df, called_mod, p)
                _part(ds, c)
                _bonus(ds, df, called_mod, c)
        ds.dfs[a, 0] = b
        ds.dfs[b, 0] = a
        ds.dfs[a, 1] = 0
        ds.dfs[b, 1] = 0
        ds.since[a] = -2  # just engaged: its first roll now (reset below)
        ds.since[b] = -2
    for a in range(n):
        b = ds.dfs[a, 0]
        if b <= a:
            continue  # each pair once (from its lower index); -1: not engaged
        if (is_out[a] or is_out[b] or pilot_of[a] < 0 or pilot_of[b] < 0
                or is_out[pilot_of[a]] or is_out[pilot_of[b]]):  # 2. fmt: skip
            _part(ds, a)
            _part(ds, b)
            _bonus(ds, df, called_mod, a)
            _bonus(ds, df, called_mod, b)
            continue
        first = ds.since[a] == -2
        if first:
            ds.since[a] = -1
            ds.since[b] = -1
        left = False
        for c in (a, b):  # 3. break-off choices of the last phase
            p = b if c == a else a
            if left or ds.wish[c] != now - 1:
                continue
            if ds.wish[p] >= now - 2:  # mutual agreement: both leave
                ne, sides_left = _leave(c, BO_MUTUAL, ds, side, is_out, gave_up, c_out, carrier,
                                        standing, sides_left, log, events, ne, now)  # fmt: skip
                ne, sides_left = _leave(p, BO_MUTUAL, ds, side, is_out, gave_up, c_out, carrier,
                                        standing, sides_left, log, events, ne, now)  # fmt: skip
                left = True
            elif ds.since[c] < 0:
                if ds.dfs[c, 1] < df.adv_min:
                    if log:
                        row = log_event(events, ne, now, EVENT_BREAK_OFF, c, p)
                        events[row, EV_ROLL] = BO_NO_ADVANTAGE
                        events[row, EV_RAW] = ds.dfs[c, 1]
                        ne += 1
                    continue
                ds.since[c] = rounds_done if round_start else rounds_done + 1
                need = df.break_rounds
                if df.break_d6:  # ceil(1d6 / 2), as the missile chase
                    s0, s1, s2, s3, u = xoshiro(s0, s1, s2, s3)
                    need = (np.int64(u * 6.0) + 2) // 2
                ds.need[c] = need
                if log:
                    row = log_event(events, ne, now, EVENT_BREAK_OFF, c, p)
                    events[row, EV_ROLL] = BO_ANNOUNCE
                    events[row, EV_RAW] = need
                    ne += 1
        if left:
            _bonus(ds, df, called_mod, a)
            _bonus(ds, df, called_mod, b)
            continue
        if round_start:  # 4.
            for c in (a, b):
                if not left and ds.since[c] >= 0 and rounds_done - ds.since[c] >= ds.need[c]:
                    ne, sides_left = _leave(c, BO_ESCAPE, ds, side, is_out, gave_up, c_out,
                                            carrier, standing, sides_left, log, events, ne,
                                            now)  # fmt: skip
                    left = True
            if left:
                _bonus(ds, df, called_mod, a)
                _bonus(ds, df, called_mod, b)
                continue
        if first or round_start or not df.per_round:  # 5.
            how = DF_ROLL
            if first:
                how = DF_INTERCEPT if df.perception else DF_ENGAGE
            s0, s1, s2, s3, ne = roll_pair(a, b, how, df, ds, e_ref, pilot_of, task_table, s0,
                                           s1, s2, s3, log, events, ne, now)  # fmt: skip
            _bonus(ds, df, called_mod, a)
            _bonus(ds, df, called_mod, b)
    return s0, s1, s2, s3, ne, sides_left


@jit(**INNER)
def dogfight_choice(a, tgt, action, param, now, df, ds, pilot_of, is_out, log, events, ne):
    """What ``a`` chose at ``tgt``, when it is ``dogfight`` or ``break_off`` or ``tgt`` is its
    partner. ``dogfight``: a ``run`` toward the target, engaging it at the next phase's start
    (idle at a target that is not a flying vehicle with a pilot); ``break_off``: a ``run`` away
    from it, the break-off weighed at the next phase's start (idle outside a dogfight); an
    attacking action at its partner that the chart bars (the loser's, or either's in a level
    roll unless ``dogfight_tie: both``) is spent (``EVENT_DOGFIGHT_BARRED``). Returns
    ``(action, param, ne)``; action -1: spent here."""
    if action == tx.A_DOGFIGHT:
        if (not (df.fly[a] and df.fly[tgt]) or pilot_of[a] < 0 or pilot_of[tgt] < 0
                or is_out[pilot_of[tgt]]):  # fmt: skip
            if log:
                row = log_event(events, ne, now, EVENT_IDLE, a, tgt)
                events[row, EV_ACTION] = action
                ne += 1
            return -1, param, ne
        if ds.dfs[a, 0] != tgt:
            ds.req[a] = tgt
        return tx.A_RUN, tx.M_TARGET, ne
    if action == tx.A_BREAK_OFF:
        if ds.dfs[a, 0] < 0:
            if log:
                row = log_event(events, ne, now, EVENT_IDLE, a, tgt)
                events[row, EV_ACTION] = action
                ne += 1
            return -1, param, ne
        ds.wish[a] = now
        return tx.A_RUN, tx.M_AWAY, ne
    if not is_attack(action):
        return action, param, ne
    m = ds.dfs[a, 1]
    if m <= -df.adv_min or (m < df.adv_min and not df.tie_both):
        if log:
            row = log_event(events, ne, now, EVENT_DOGFIGHT_BARRED, a, tgt)
            events[row, EV_RAW] = m
            ne += 1
        return -1, param, ne
    return action, param, ne
