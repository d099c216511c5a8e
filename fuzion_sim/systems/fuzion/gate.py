"""The general kernel's one call between the tactics' choice and the action: what may change or
stop the action before it is made.

* a dogfight (``dogfights.room.dogfight_choice``): ``dogfight`` and ``break_off`` become runs toward
  or away from the target, and an attack the chart bars at the partner is spent;
* the weapon a rule names is taken up, and a vehicle weapon must bear on its arc
  (``arsenal.take_up``: the vehicle turns to face the target, or its gunner waits);
* a wall in the line of fire (M-10: nobody shoots through a solid object;
  ``scene.room.line_blocked``) spends an attack with a weapon.

Each of these rooms once had its own call in the trial loop, and every call site there costs,
taken or not (PERFORMANCE-NOTES lessons 13 to 16): the kernel calls :func:`gate` once, behind one
flag worked out once a chunk (someone fires several weapons or one with an arc, a dogfight, or
obstacles that block), and only for an action one of them reads.
"""

from __future__ import annotations

from ..._jit import INNER, jit
from . import tactics as tx
from .actions import is_weapon_action
from .arsenal import take_up
from .codes import (
    EV_ACTION,
    EV_FLAGS,
    EV_RAW,
    EVENT_BLOCKED,
    EVENT_NO_WEAPON,
    EVENT_OUT_OF_ARC,
    FLAG_HIT,
)
from .features.dogfights.room import dogfight_choice
from .features.scene.room import line_blocked
from .kernel_parts import log_event

__all__ = ["gate", "gated"]


@jit(**INNER)
def gated(action, a, tgt, on, any_dogfight, dfs):
    """Whether the kernel calls :func:`gate` for ``a``'s ``action`` at ``tgt``: ``on`` (one of
    the rooms is in the fight) and the action is one they read."""
    return on and (is_weapon_action(action) or (any_dogfight and (
        action >= tx.A_DOGFIGHT or dfs[a, 0] == tgt)))  # fmt: skip


@jit(**INNER)
def gate(a, tgt, action, param, now, weapon_rooms, arms, wp, sh, md, mc, st, wh, w_shots,
         w_reload, w_arc, w_mounted, reloading, vclass, carrier, vstate, hd, front_arc, df, ds,
         pilot_of, is_out, log, events, ne):  # fmt: skip
    """``a``'s ``action`` (``param``) at ``tgt`` after the dogfight, the weapon taken up and its
    arc, and the line of fire (see the module). Returns ``(action, param, ne)``; action -1: the
    action was spent here (its line logged)."""
    if df.on and (action >= tx.A_DOGFIGHT or ds.dfs[a, 0] == tgt):
        action, param, ne = dogfight_choice(a, tgt, action, param, now, df, ds, pilot_of, is_out,
                                            log, events, ne)  # fmt: skip
        if action < 0:
            return action, param, ne
    if not is_weapon_action(action):
        return action, param, ne
    if weapon_rooms:
        bearing, turned = take_up(a, tgt, action, param, arms, wp, sh, md, mc, st, wh, w_shots,
                                  w_reload, w_arc, w_mounted, reloading, vclass, carrier, vstate,
                                  hd, front_arc)  # fmt: skip
        if not bearing:
            if log:
                row = log_event(events, ne, now,
                                EVENT_NO_WEAPON if turned < 0 else EVENT_OUT_OF_ARC, a, tgt)
                events[row, EV_FLAGS] = FLAG_HIT if turned > 0 else 0
                ne += 1
            return -1, param, ne
    if wh.scene.block and action != tx.A_AIM and action != tx.A_RELOAD:
        wall = line_blocked(a, tgt, wh.scene, wh.px, wh.py)
        if wall >= 0:
            if log:
                row = log_event(events, ne, now, EVENT_BLOCKED, a, tgt)
                events[row, EV_ACTION] = action
                events[row, EV_RAW] = wall
                ne += 1
            return -1, param, ne
    return action, param, ne
