"""Small jitted rule functions, one mechanic each (seed 000 as RULINGS.md reads it).

Every function takes and returns scalars; ``kernel.py`` composes them. The ruling each one
implements is named in its docstring.
"""

from __future__ import annotations

import numpy as np

from ..._jit import INNER, jit
from ...engine.outcomes import DRAW
from ...engine.rng import xoshiro

#: F11 cover against ranged and melee attacks (the seed's two tables).
COVER_RANGED = {"none": 0, "half_body": -2, "head_and_shoulders": -3, "head_only": -4,
                "behind_someone": -4}  # fmt: skip
COVER_MELEE = {"none": 0, "half_body": -1, "head_and_shoulders": -1, "head_only": -2,
               "behind_someone": -2}  # fmt: skip
#: F11 target size (ranged situation table).
SIZE = {"tiny": -6, "small": -4, "normal": 0, "large": 2, "very_large": 4}


def target_modifiers(cover="none", size="normal", prone=False, crouched=False, silhouetted=False):
    """Static modifiers to attacks against a target: ``(ranged, melee)`` (F11 tables: cover,
    prone -2 and crouched -1 against ranged attacks, silhouetted +2, size)."""
    ranged = COVER_RANGED[cover] + SIZE[size] - 2 * prone - crouched + 2 * silhouetted
    return ranged, COVER_MELEE[cover]


def attacker_modifiers(modifiers=0, braced=False):
    """Static modifiers to a combatant's own attacks: ``(ranged, melee)``: braced +2 (ranged)
    and the GM's flat ``modifiers``."""
    return modifiers + 2 * braced, modifiers


KILLING = 0
STUN = 1
RANGED = 0
MELEE = 1


@jit
def range_modifier(dist, listed):
    """F10 range band modifier of a ranged attack at ``dist`` metres (weapon range ``listed``).

    Melee <= 4 m: +0; Close <= 10 m: -2; Medium <= 50 m: -4; Long to the listed range: -6;
    Extreme: -6 and -1 per full 50 m past the listed range. A listed range under 50 m gives -4
    from Close out to the listed range.
    """
    if dist > listed:
        return -6 - int((dist - listed) // 50.0)
    if dist <= 4.0:
        return 0
    if dist <= 10.0:
        return -2
    if dist <= 50.0:
        return -4
    return -6


@jit(**INNER)
def object_dv(dist, listed):
    """F4: the DV of targeting an object (a point, a vehicle nobody drives) at ``dist`` metres
    with a weapon of ``listed`` range: Melee (4 m) 4, Close (10 m) 8, Medium (50 m) 12, Long
    (the listed range) 16, Extreme 16 + 2 per full 100 m past it."""
    if dist <= 4.0:
        return np.int64(4)
    if dist <= 10.0:
        return np.int64(8)
    if dist <= 50.0:
        return np.int64(12)
    if dist <= listed:
        return np.int64(16)
    return 16 + 2 * np.int64((dist - listed) // 100.0)


@jit
def effective(base, penalty):
    """A primary after penalties (F6): never pushed below 1 (a primary already below 1 stays)."""
    floor = 1 if base >= 1 else base
    value = base - penalty
    return value if value > floor else floor


@jit
def wound_penalty(hits, hits_max, impairment, dying_penalty):
    """Penalty to primaries from wounds: F24 impairment (-2 at half, -4 at a quarter of full
    Hits) or, once dying (Hits <= 0, F25), the dying penalty instead."""
    if hits <= 0:
        return dying_penalty
    if not impairment:
        return 0
    if 4 * hits <= hits_max:
        return 4
    if 2 * hits <= hits_max:
        return 2
    return 0


#: The DC of the fists in the plan (``Plan.w_dc``): ``damage_dice`` rolls STR dice (F14).
FISTS_DC = -1


@jit
def damage_dice(dc, strength, min_str, str_based):
    """Dice rolled by an attack: the weapon DC, -1 die per STR point under the minimum (F12),
    and for STR-powered (melee) weapons +1 die per STR point over it, at most 2 x DC (F13);
    the fists (``FISTS_DC``) STR dice (F14)."""
    if dc == FISTS_DC:
        return strength
    n = dc
    if strength < min_str:
        n -= min_str - strength
    elif str_based and strength > min_str:
        extra = strength - min_str
        n += extra if extra < dc else dc
    return n if n > 0 else 0


def weapon_dice(weapon, strength: int) -> int:
    """Damage dice of a combatant's weapon at full health with STR ``strength`` (F12-F14): the
    fists STR, a Kill-rated weapon its F29 DC, else ``damage_dice``."""
    if weapon.unarmed:
        return int(strength)
    if weapon.kills:
        return int(weapon.dc)
    return int(damage_dice(weapon.dc, strength, weapon.min_str, weapon.kind == "melee"))


@jit
def armour_value(pd, ekd, energy, ap, ap_factor):
    """The armour that stops an attack (F20): PD, or EKD against energy attacks; AP weapons
    multiply it by ``ap_factor`` (rounded down)."""
    armour = ekd if energy else pd
    if ap:
        armour = int(armour * ap_factor)
    return armour


@jit
def penetration(dmg_type, raw, armour, sd):
    """Damage through the defences (F20): Killing damage less the armour; Stun damage less the
    higher of the armour and SD; never below 0. ``split_through`` says what it costs (F21;
    Stun keeps falling below 0, D-FZ-31 R1)."""
    stop = armour if dmg_type == KILLING or armour > sd else sd
    pen = raw - stop
    return pen if pen > 0 else 0


@jit
def combat_values(ref, dex, strength, penalty, att_skill, accuracy, min_str, dc, melee,
                  def_ranged, def_melee):  # fmt: skip
    """A combatant's attack and defence values under a penalty to its primaries (F1, F6, F12).

    Returns ``(att_base, dv_ranged, dv_melee, n_dice)``: REF + weapon skill + WA, less 1 per
    STR point short of the weapon's minimum; DEX + Ranged Evade; DEX + the best melee defence
    skill; and the damage dice of its weapon (``damage_dice``).
    """
    ref_e = effective(ref, penalty)
    dex_e = effective(dex, penalty)
    str_e = effective(strength, penalty)
    att = ref_e + att_skill + accuracy
    if str_e < min_str:
        att -= min_str - str_e
    return att, dex_e + def_ranged, dex_e + def_melee, damage_dice(dc, str_e, min_str, melee)


@jit
def move_toward(x, y, tx, ty, step, stop_at):
    """Move from ``(x, y)`` up to ``step`` metres toward ``(tx, ty)``, stopping ``stop_at``
    metres short of it (never past it). Returns the new position and the metres moved."""
    dx = tx - x
    dy = ty - y
    dist = np.sqrt(dx * dx + dy * dy)
    go = dist - stop_at
    if go <= 0.0 or dist == 0.0:
        return x, y, 0.0
    if go > step:
        go = step
    return x + dx * go / dist, y + dy * go / dist, go


@jit
def move_away(x, y, fx, fy, step):
    """Move ``step`` metres directly away from ``(fx, fy)`` (along +x when on top of it)."""
    dx = x - fx
    dy = y - fy
    dist = np.sqrt(dx * dx + dy * dy)
    if dist == 0.0:
        return x + step, y, step
    return x + dx * step / dist, y + dy * step / dist, step


@jit
def aspect_of(dx, dy, heading, front_arc, always_side):
    """The attacker's aspect of a vehicle (VA-05, F31): 0 front, 1 side, 2 rear. ``(dx, dy)``
    runs from the vehicle to the attacker, ``heading`` (radians) is where the vehicle faces;
    the angle between them under ``front_arc`` degrees is the front, over 180 - ``front_arc``
    the rear, and on a boundary the side wins (quarters: 45, hex: 30). An attacker on top of
    the vehicle, or any attacker of a humanoid mecha (``always_side``: it rolls 3d6), is at
    its side."""
    if always_side or (dx == 0.0 and dy == 0.0):
        return 1
    turn = np.arctan2(dy, dx) - heading
    angle = abs(np.arctan2(np.sin(turn), np.cos(turn))) * (180.0 / np.pi)
    if angle < front_arc - 1e-9:
        return 0
    if angle > 180.0 - front_arc + 1e-9:
        return 2
    return 1


# --- wounds, the fight's end, waking and bleeding (shared by every kernel) ----------------


@jit(_nrt=False)
def split_through(killing, through, stun):
    """What damage through the defences costs (F20-F21): Killing damage as many Hits and as
    much Stun, never taking Stun below 0 (``stun``: the target's Stun before it); Stun damage
    that much Stun and 1 Hit per full 5. Returns ``(hits_lost, stun_lost)``."""
    if killing:
        left = stun if stun > 0 else 0
        return through, (through if through < left else left)
    return through // 5, through


@jit(**INNER)
def out_of_fight(hits, stun, dead, dying_can_act):
    """F26: out of the fight when dead, knocked out (Stun <= 0) or dying (Hits <= 0) unless
    ``dying_can_act``."""
    return dead or stun <= 0 or (hits <= 0 and not dying_can_act)


@jit(**INNER)
def down_state(hits, stun, dead):
    """What the end of a slot may do for a combatant: 0 nothing, 1 wake it (knocked out: Stun
    <= 0, Hits > 0), 2 bleed it (dying: Hits <= 0); nothing for the dead either."""
    if dead:
        return 0
    if hits <= 0:
        return 2
    return 1 if stun <= 0 else 0


@jit(**INNER)
def watch_line(h, hmax, body, impairment):
    """The highest Hits below ``h`` at which a wound changes more than Hits and Stun: the
    impairment thresholds (F24), 0 (dying, F25) and -2 x BODY (dead). An attack that leaves
    its target above this line (with Stun above 0, not stunned) needs no further work."""
    if impairment and hmax // 2 < h:
        return hmax // 2
    if impairment and hmax // 4 < h:
        return hmax // 4
    if h > 0:
        return np.int64(0)
    if h > -2 * body:
        return -2 * body
    return np.int64(-(1 << 62))


@jit(_nrt=False)
def wakes(stun, phase_end, end_of_round, minute):
    """F23: a knocked-out combatant (Stun <= 0) recovers REC Stun at the end of each of its
    phases down to -10 Stun, of each round down to -20, of each minute down to -30."""
    return stun <= 0 and (
        (stun >= -10 and phase_end) or (end_of_round and (stun >= -20 or (stun >= -30 and minute)))
    )


@jit(_nrt=False)
def bleed(hits, body):
    """F25: the dying lose 1 Hit at the end of every round and die at -2 x BODY. Returns the
    Hits after and whether that killed."""
    hits -= 1
    return hits, hits <= -2 * body


@jit(**INNER)
def fight_result(standing):
    """The fight's result once at most one side has anyone standing (``standing``: how many
    per side): that side, or DRAW."""
    result = DRAW
    for s in range(standing.shape[0]):
        if standing[s] > 0:
            result = s
    return result


@jit(inline="always")
def initiative_key(s0, s1, s2, s3, ref, init_dice, nd6_table, init_lo):
    """F9 switch2: a combatant's initiative this phase, its action die (1d10, or 3d6 from the
    3d6 table at ``init_lo``) plus its current REF, with a second die's fraction to break ties.
    Returns the generator state and the key (higher acts first)."""
    s0, s1, s2, s3, u = xoshiro(s0, s1, s2, s3)
    if init_dice == 10:
        roll = np.int64(u * 10.0) + 1
    else:
        roll = np.int64(nd6_table[np.uint64(init_lo + np.int64(u * 216.0))])
    s0, s1, s2, s3, u = xoshiro(s0, s1, s2, s3)
    return s0, s1, s2, s3, ref + roll + u
