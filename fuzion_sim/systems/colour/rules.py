"""Small jitted functions, one mechanic each, that every colour kernel composes (and the table
builder and the exact oracle call from Python): column shifts, colours, contests, damage by
colour, armour and Armor-Piercing, Roll with Blow, Soak, Endurance ranks, the death roll.

All take plain integers and int64 arrays (``codes`` names their columns).
"""

from __future__ import annotations

import numpy as np

from ..._jit import jit
from ...engine.rng import index32
from .codes import (
    AGILITY,
    BLUE,
    ENDURANCE,
    FIGHTING,
    GREEN,
    M_ARMS,
    M_ATT_CS,
    M_DEF_CS,
    M_RANK,
    M_VAL_S,
    M_W_BASE,
    M_W_POWER,
    M_W_STR,
    O_CS_SEQUENTIAL,
    O_FEEBLE,
    O_GUN_FLAT,
    O_RWB_LEFT,
    O_SOAK_ANYWAY,
    O_SOAK_LITERAL,
    O_STRAIN_CEIL,
    RED,
    S_ARMS_LOST,
    S_FASE_CS,
    S_LEGS_LOST,
    S_POWER_CS,
    S_RANK_E,
    SUPER_CRIT,
    WHITE,
    YELLOW,
)
from .ladder import CS_MAX
from .typed import typed

_LOW32 = np.uint64(0xFFFFFFFF)
_S32 = np.uint64(32)


# --- random rolls ------------------------------------------------------------------------------


@jit(inline="always")
def d100(x):
    """A d100 roll (1..100) from the low 32 bits of a generator output."""
    return np.int64(index32(x & _LOW32, np.uint64(100))) + 1


@jit(inline="always")
def d100_high(x):
    """A d100 roll (1..100) from the high 32 bits of a generator output."""
    return np.int64(index32(x >> _S32, np.uint64(100))) + 1


@jit(inline="always")
def joint_rolls(x):
    """The two d100 rolls of a contest, the actor's and the responder's, from the low 32 bits
    of one generator output: one of the 10,000 equally likely pairs (``index32``)."""
    j = np.int64(index32(x & _LOW32, np.uint64(10000)))
    return j // 100 + 1, j % 100 + 1


@jit(inline="always")
def high_die(x, n):
    """A roll of 1dn (n >= 1) from the high 32 bits of a generator output."""
    return np.int64(index32(x >> _S32, np.uint64(n))) + 1


# --- columns and colours -----------------------------------------------------------------------


@jit(inline="always")
def _clamp_cs(cs):
    return min(max(cs, -CS_MAX), CS_MAX)


@jit(inline="always")
def column(shift, col, t1, t2, t3, t4, sequential):
    """The column a roll is read on: ``col`` shifted by four groups of column shifts
    (situational, manoeuvre, multiple actions, aim or deflection). ``sum`` (CA4) adds them and
    clamps once; ``sequential`` clamps after each group, in that order."""
    if sequential:
        if t1 != 0:
            col = shift[col, _clamp_cs(t1) + CS_MAX]
        if t2 != 0:
            col = shift[col, _clamp_cs(t2) + CS_MAX]
        if t3 != 0:
            col = shift[col, _clamp_cs(t3) + CS_MAX]
        if t4 != 0:
            col = shift[col, _clamp_cs(t4) + CS_MAX]
        return col
    return shift[col, _clamp_cs(t1 + t2 + t3 + t4) + CS_MAX]


@jit(inline="always")
def clamp_defence(c):
    """A defensive roll's colour (K6): Blue reads White, Super Crit reads Red."""
    if c == BLUE:
        return WHITE
    if c == SUPER_CRIT:
        return RED
    return c


@jit(inline="always")
def beats(ca, ra, cd, rd):
    """Whether the actor's (colour, roll) beats the responder's (K4): the actor needs Green
    or better (004 L28), then the higher colour, then the higher number; a full tie goes to
    the responder."""
    return ca >= GREEN and (ca > cd or (ca == cd and ra > rd))


@jit(inline="always")
def ability_rank(mem, st, c, ability):
    """A combatant's current rank of an ability (Endurance falls with bleeding and strain)."""
    return st[c, S_RANK_E] if ability == ENDURANCE else mem[c, M_RANK + ability]


@jit(inline="always")
def arm_penalty(mem, st, c, ability):
    """-2CS to Fighting per lost arm of a two-armed creature (004 L82, CA89)."""
    if ability == FIGHTING and mem[c, M_ARMS] == 2:
        return -2 * st[c, S_ARMS_LOST]
    return 0


@typed
def roll_column(mem, st, opts, shift, rank_col, c, ability, manoeuvre, multi, bonus, attack,
                movement):  # fmt: skip
    """The column combatant ``c`` rolls ``ability`` on: its current rank, with a lost leg
    Feeble for a movement-based Agility roll (CA67), shifted by its situational shifts
    (``attack_cs`` or ``defence_cs``, CA21; the armour damage table's, CA35; its power's;
    lost arms), the manoeuvre, the multi-action penalty and a bonus (aim or deflection)."""
    rank = ability_rank(mem, st, c, ability)
    if movement and ability == AGILITY and st[c, S_LEGS_LOST] > 0:
        rank = min(rank, opts[O_FEEBLE])
    situational = mem[c, M_ATT_CS] if attack else mem[c, M_DEF_CS]
    situational += st[c, S_FASE_CS + ability] + arm_penalty(mem, st, c, ability)
    if attack and mem[c, M_W_POWER] != 0:
        situational += st[c, S_POWER_CS]
    return column(shift, rank_col[rank], situational, manoeuvre, multi, bonus,
                  opts[O_CS_SEQUENTIAL] != 0)  # fmt: skip


@typed
def endurance_column(st, rank_col, c):
    """The column of an Endurance roll: the current rank, no shifts (CA81)."""
    return rank_col[st[c, S_RANK_E]]


@jit(inline="always")
def feat_met(colour, needed):
    """An unopposed FEAT: the colour needed or better (CA11)."""
    return colour >= needed


# --- damage ------------------------------------------------------------------------------------


@jit(inline="always")
def base_damage(mem, a):
    """The weapon's base damage: a flat rating, or the Strength value plus ``str_plus``
    (004 L32, L58; CA23)."""
    base = mem[a, M_W_BASE]
    if mem[a, M_W_STR] != 0:
        base += mem[a, M_VAL_S]
    return max(base, 0)


@jit(inline="always")
def colour_pct(opts, colour, power, gun):
    """The damage percentage of a threatening colour (K5: Green 50, Yellow 100, Red 150, Super
    Crit 200; a Super Crit's called-shot reading, CA24, is the kernel's, at Yellow's 100), +50
    for a Power Attack (004 L80); a gun under ``gun_damage: flat`` always 100 (CA25). 0 for
    Blue and White."""
    if colour < GREEN:
        return 0
    if gun and opts[O_GUN_FLAT] != 0:
        return 100
    if colour == GREEN:
        pct = 50
    elif colour == YELLOW:
        pct = 100
    elif colour == RED:
        pct = 150
    else:
        pct = 200
    return pct + 50 if power else pct


@jit(inline="always")
def through_armour(damage, subject, exempt, ap, ap_pct, of_damage):
    """Damage after armour (004 L60-66; CA28): Armor-Piercing takes its percentage off the
    armour it is subject to, then its flat value, never below 0; armour not subject to it
    (``exempt``) counts whole. Under ``ap_percent: of_damage`` the percentage of the damage
    passes the armour untouched instead."""
    if of_damage:
        passes = damage * ap_pct // 100
        armour = max(subject - ap, 0) + exempt
        return passes + max(damage - passes - armour, 0)
    armour = max(subject - subject * ap_pct // 100 - ap, 0) + exempt
    return max(damage - armour, 0)


@jit(inline="always")
def rwb_taken(opts, colour):
    """Percent of the damage a Roll with Blow takes by the FEAT's clamped colour (K7): White
    100, Green 75, Yellow 50, Red 0; ``fraction_left`` reads the printed fractions as what is
    taken (Green 25, Yellow 50, Red 0)."""
    colour = clamp_defence(colour)
    if colour == WHITE:
        return 100
    if colour == GREEN:
        return 25 if opts[O_RWB_LEFT] != 0 else 75
    if colour == YELLOW:
        return 50
    return 0


@jit(inline="always")
def soak_needed(damage_rank, endurance_rank):
    """The colour a Soak needs (002 L24-27, CA60): a damage rank two or more below the
    Endurance rank needs Green, one below or equal Yellow, any higher Red."""
    d = damage_rank - endurance_rank
    if d <= -2:
        return GREEN
    if d <= 0:
        return YELLOW
    return RED


@jit(inline="always")
def soak_amount(opts, colour, needed, endurance_value):
    """The points a Soak FEAT absorbs (K7, CA61): graded Green 1/4, Yellow 1/2, Red all of the
    Endurance value (``literal``: the reverse), floored; nothing below the colour needed
    unless ``soak_below_required: graded_anyway`` (any Green or better)."""
    colour = clamp_defence(colour)
    if colour < GREEN or (colour < needed and opts[O_SOAK_ANYWAY] == 0):
        return 0
    if colour == YELLOW:
        return endurance_value // 2
    if (colour == GREEN) == (opts[O_SOAK_LITERAL] == 0):
        return endurance_value // 4
    return endurance_value


@jit(inline="always")
def strain_ranks(opts, soaked):
    """Endurance ranks a soak of ``soaked`` points costs when its FEAT fails (CA63): more than
    10 soaked, floor(soaked / 10) (``ceil_minus_one``: 11-20 one, 21-30 two)."""
    if soaked <= 10:
        return 0
    if opts[O_STRAIN_CEIL] != 0:
        return (soaked + 9) // 10 - 1
    return soaked // 10


@jit(inline="always")
def value_rank(values, value, nearest):
    """The rank of a number on the ladder (CA7, CA60): the highest rank whose value is at
    most it (the lowest below them all), or the nearest value with ties to the lower."""
    best = 0
    if nearest:
        for i in range(values.shape[0]):
            if abs(values[i] - value) < abs(values[best] - value):
                best = i
        return best
    for i in range(values.shape[0]):
        if values[i] <= value:
            best = i
    return best


@jit(inline="always")
def sever_fraction_pct(colour):
    """Percent of a severing blow's capped damage that comes off Health by the victim's
    Endurance roll (004 L77, CA84): Blue or White 100, Green 50, Yellow, Red and Super Crit 0."""
    if colour <= WHITE:
        return 100
    if colour == GREEN:
        return 50
    return 0
