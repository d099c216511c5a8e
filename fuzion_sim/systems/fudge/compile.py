"""Compile a FUDGE scenario into flat arrays and integer codes for the kernels.

Every look-up and every piece of exact arithmetic happens here: the difficulty and bonus of
each shooter against each target (UA3, UA28), the damage of a hit for every pair, hit
location and Damage Roll row (U2, UA5-UA9, UA26), each blast's concussion on every victim
(U4, UA20-UA22) and fragmentation zone (UA23), each charge's contact hit or breach by roll
(UA24-UA25) and its round by time roll (UA29). The kernels only index tables.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import NamedTuple

import numpy as np

from . import codes as k
from .damage import blast_adjustment, breach_result, hit_damage
from .geometry import pair_distances
from .model import Barrier, Charge, Member
from .tables import (
    DARK,
    FOG,
    LIGHT,
    SPEED,
    TIME_FACTOR,
    band,
    cover_factor,
    locations,
    range_modifier,
)

__all__ = ["Plan", "compile_scenario", "part_index"]

#: A distance no table reads (an unknown pair).
FAR = 1e18
#: The round of a charge that never goes off within the fight.
NEVER = 1 << 40
_TARGETING = {"first": k.T_FIRST, "nearest": k.T_NEAREST, "weakest": k.T_WEAKEST,
              "strongest": k.T_STRONGEST, "random": k.T_RANDOM}  # fmt: skip


class Plan(NamedTuple):
    """A compiled FUDGE fight: plain contiguous arrays (``int64`` unless said) and scalars.

    Per member ``c`` (C members): ``kind`` (``codes.KIND_*``), ``side``, ``shooter`` (it has
    a weapon and may shoot), ``skill``, ``initiative``, ``dodge`` (its Dodge less the dodge
    penalty against guns, UA4), ``dodges`` (it dodges: under ``dodge_costs_action`` its
    tactic is to dodge), ``targeting``, ``width`` and ``dead_at`` (firearms track),
    ``aim_part`` and ``aim_need`` (Method 2), ``blast_type`` (its weapon's blast, -1: none).

    Per pair ``a * C + t``: ``pair_ok`` (a may shoot t), ``pair_need`` (the result a needs
    against t), ``pair_bonus`` (a's bonus against t), ``pair_dist`` (float64, metres);
    ``pair_dmg[((a * C + t) * n_dmg_parts + part) * 9 + row + 4]`` the damage of a hit
    (int32; ``bl_conc`` int32 and ``bl_zone`` int8 too: the tables that grow as C x C).

    Blasts of weapons, per kind ``b``: ``bl_conc[(b * C + t) * C + v]`` the concussion on v
    of a blast centred on t (-1: v is not reached), ``bl_zone`` its fragmentation zone (0
    none, 1 inside the burst radius, 2 within twice it), ``bl_adj[b * C + v]`` what a blast
    adds (UA22), ``bl_cv[b]`` its Concussion Value under ``avoid_roll`` (99: none).

    Charges ``c``: ``ch_round[c * 9 + roll + 4]`` the round it goes off after a time roll
    (UA29; every entry alike when untimed), ``ch_timed`` (it rolls its time), ``ch_tamp`` (0
    untamped, 1 tamped, 2 an Explosives roll of ``ch_tamp_skill``), ``ch_contact`` (-1:
    none), ``ch_conc[(c * C + v) * 2 + tamped]``, ``ch_zone[c * C + v]``, ``ch_adj[c * C +
    v]``, ``ch_cv[c]``, ``ch_dmg[(c * 2 + tamped) * 9 + row + 4]`` (its contact's damage),
    ``ch_breach`` (likewise, the breach result on a contact barrier).

    Hit locations: ``loc_part[roll + 4]`` the part of a Method 1 roll, ``loc_blow`` and
    ``loc_total`` per part (0: cannot be crippled).
    """

    n_combatants: int
    n_sides: int
    max_rounds: int
    n_dmg_parts: int
    options: np.ndarray
    kind: np.ndarray
    side: np.ndarray
    shooter: np.ndarray
    skill: np.ndarray
    initiative: np.ndarray
    dodge: np.ndarray
    dodges: np.ndarray
    targeting: np.ndarray
    width: np.ndarray
    dead_at: np.ndarray
    aim_part: np.ndarray
    aim_need: np.ndarray
    blast_type: np.ndarray
    pair_ok: np.ndarray
    pair_need: np.ndarray
    pair_bonus: np.ndarray
    pair_dist: np.ndarray
    pair_dmg: np.ndarray
    bl_conc: np.ndarray
    bl_zone: np.ndarray
    bl_adj: np.ndarray
    bl_cv: np.ndarray
    ch_round: np.ndarray
    ch_timed: np.ndarray
    ch_tamp: np.ndarray
    ch_tamp_skill: np.ndarray
    ch_contact: np.ndarray
    ch_conc: np.ndarray
    ch_zone: np.ndarray
    ch_adj: np.ndarray
    ch_cv: np.ndarray
    ch_dmg: np.ndarray
    ch_breach: np.ndarray
    loc_part: np.ndarray
    loc_blow: np.ndarray
    loc_total: np.ndarray


def part_index(aim: str | None) -> tuple[int, int]:
    """The table row an aimed shot lands on (a hand on its arm) and the level it needs."""
    rows = locations()
    names = [r.part for r in rows]
    aim = aim or "torso"
    if aim.endswith("_hand"):
        return names.index(aim.replace("_hand", "_arm")), 2  # Great (UA26)
    i = names.index(aim)
    return i, rows[i].needed


def _frac(x) -> Fraction:
    """A number as an exact decimal (``0.1`` is 1/10)."""
    return Fraction(x) if isinstance(x, int) else Fraction(repr(float(x)))


def _options(rules, members) -> np.ndarray:
    opt = np.zeros(k.N_OPTIONS, np.int64)
    opt[k.OPT_TRACK] = k.TRACK_CORE if rules.wounds == "core" else k.TRACK_FIREARMS
    opt[k.OPT_ORDER] = {"fixed": k.ORDER_FIXED, "simultaneous": k.ORDER_SIMULTANEOUS,
                    "rolled": k.ORDER_ROLLED}[rules.order]  # fmt: skip
    shooters = [m.initiative for m in members if isinstance(m, Member) and m.weapon]
    opt[k.OPT_HAS_TIES] = int(rules.order == "fixed" and rules.tie_break == "random"
                          and len(set(shooters)) < len(shooters))  # fmt: skip
    opt[k.OPT_DODGE] = int(rules.ranged_defence == "dodge")
    opt[k.OPT_DODGE_COSTS] = int(rules.ranged_defence == "dodge" and rules.dodge_costs_action)
    opt[k.OPT_SHOT_ROLL] = {"separate": k.SHOT_SEPARATE, "margin": k.SHOT_MARGIN,
                        "attack_dice": k.SHOT_ATTACK_DICE}[rules.shot_roll]  # fmt: skip
    opt[k.OPT_CRITICAL] = int(rules.shot_critical == "incapacitate")
    opt[k.OPT_OUT_LEVEL] = {"incapacitated": 4, "near_death": 5, "dead": 6}[rules.out_at]
    opt[k.OPT_PENALTIES] = int(rules.wound_penalties)
    opt[k.OPT_CORE_UP] = int(rules.core_overflow == "up")
    opt[k.OPT_CORE_DEAD] = rules.core_dead_damage
    opt[k.OPT_LOCATIONS] = {"none": k.LOC_NONE, "random": k.LOC_RANDOM,
                        "aimed": k.LOC_AIMED}[rules.hit_locations]  # fmt: skip
    opt[k.OPT_FALLBACK] = {"torso": k.FALLBACK_TORSO, "random": k.FALLBACK_RANDOM,
                       "miss": k.FALLBACK_MISS}[rules.aim_fallback]  # fmt: skip
    opt[k.OPT_CRIPPLE_OUT] = int(rules.cripple_out)
    opt[k.OPT_CV_AVOID] = int(rules.concussion_value == "avoid_roll")
    opt[k.OPT_BLAST_SEPARATE] = int(rules.blast_damage == "separate")
    opt[k.OPT_FRAG_BOTH] = int(rules.frag_zones == "both")
    opt[k.OPT_TIMING] = int(rules.action_timing)
    names = [r.part for r in locations()]
    opt[k.OPT_TORSO] = names.index("torso")
    opt[k.OPT_HEAD] = names.index("head")
    return opt


def _may_shoot(a, rules) -> bool:
    """A member that shoots at all: armed, not behind full cover (UA22), not a dodger under
    ``dodge_costs_action`` (UA4)."""
    if not isinstance(a, Member) or a.weapon is None or a.cover == "full":
        return False
    return not (rules.ranged_defence == "dodge" and rules.dodge_costs_action
                and a.tactic == "dodge")  # fmt: skip


def _situation(t: Member, rules) -> int:
    """The target's and the weather's part of a shot's situation modifier (UA22, UA28): all
    of it but the range."""
    return (SPEED[t.speed] + LIGHT[rules.light] + FOG[rules.fog]
            - rules.duck_penalty * t.ducked
            - rules.partial_cover_penalty * (t.cover == "partial"))  # fmt: skip


def _to_hit(a: Member, situation: np.ndarray, d: np.ndarray, rules):
    """(need, bonus) of shots of ``a`` at targets whose :func:`_situation` is ``situation``
    from ``d`` metres (arrays of one length; UA3, UA22, UA28)."""
    metres, which = np.unique(d, return_inverse=True)
    bands = np.array([range_modifier(float(x)) for x in metres], np.int64)
    situation = situation + bands[which.reshape(-1)]
    w = a.weapon
    equipment = 0
    if w.sight == "advanced":
        equipment += 1
    elif w.sight == "infrared":
        equipment += 2 if rules.light in DARK else 1
    equipment = equipment + (np.where(d < 10, 2, 0) if w.laser else np.zeros_like(situation))
    if rules.modifiers_on == "skill":
        return np.full_like(situation, rules.base_difficulty), equipment + situation
    return rules.base_difficulty - situation, equipment


def _concussion(explosive, victim, d: float, rules, tamped: bool) -> int:
    """floor(CD x band x 1/2 when tamped x cover) on ``victim`` at ``d`` metres (U4, UA20-22)."""
    if explosive.concussion is None:
        return 0
    cr = explosive.concussion_range
    raw = explosive.concussion * band(_frac(d), _frac(cr))
    if tamped and rules.tamped_concussion == "half":
        raw /= 2
    raw *= cover_factor(victim.ducked, victim.cover, _frac(d), _frac(cr), rules.cover_near)
    return math.floor(raw)


def _zone(explosive, victim, d: float, contact: bool) -> int:
    """UA23: 1 inside the burst radius, 2 within twice it, 0 outside, for the contact target
    or behind full cover."""
    r = explosive.burst_radius
    if r is None or contact or victim.cover == "full":
        return 0
    if d <= r:
        return 1
    return 2 if d <= 2 * r else 0


def _detonation_rounds(c: Charge, rules) -> list[int]:
    """The round a charge goes off after each time roll -4 .. +4 (UA29): ``detonates``, or
    the first round boundary after its time (the average, or times the §8.531 factor)."""
    if c.avg_seconds is None:
        return [c.detonates] * 9
    avg, rs = _frac(c.avg_seconds), _frac(rules.round_seconds)
    out = []
    for roll in range(-4, 5):
        time = avg * (TIME_FACTOR[roll] if rules.action_timing else 1)
        out.append(math.ceil(time / rs) + 1)
    return out


def compile_scenario(scenario) -> Plan:
    """The scenario's :class:`Plan`."""
    rules = scenario.rules
    members = scenario.combatants
    n = len(members)
    sides = scenario.side_names
    index = {m.name: i for i, m in enumerate(members)}
    dist, known = pair_distances(members)
    locs = locations()
    n_parts = k.N_PARTS if rules.hit_locations != "none" else 1
    mults = [r.multiplier for r in locs] if n_parts > 1 else [Fraction(1)]

    def per(dtype=np.int64, fill=0, size=n):
        return np.full(size, fill, dtype)

    kind, side, shooter = per(), per(), per()
    skill, initiative, dodge, dodges, targeting = per(), per(), per(), per(), per()
    width, dead_at, aim_part, aim_need, blast_type = per(fill=1), per(fill=NEVER), per(), \
        per(), per(fill=-1)  # fmt: skip
    blasts: list = []
    for i, m in enumerate(members):
        side[i] = sides.index(m.side)
        if isinstance(m, Charge):
            kind[i] = k.KIND_CHARGE
            continue
        if isinstance(m, Barrier):
            kind[i] = k.KIND_BARRIER
            continue
        kind[i] = k.KIND_MEMBER
        shooter[i] = int(_may_shoot(m, rules))
        skill[i], initiative[i] = m.skill, m.initiative
        dodge[i] = (0 if m.dodge is None else m.dodge) - rules.propelled_dodge_penalty
        dodges[i] = int(rules.ranged_defence == "dodge" and (
            not rules.dodge_costs_action or m.tactic == "dodge"))  # fmt: skip
        targeting[i] = _TARGETING[m.targeting]
        w = m.wound_width or 2
        width[i] = w
        dead_at[i] = 6 * w if rules.firearms_dead_at == "capacity" else 5 * w + 1
        aim_part[i], aim_need[i] = part_index(m.aim)
        if m.weapon is not None and m.weapon.blast:  # one table per kind of blast
            if m.weapon not in blasts:
                blasts.append(m.weapon)
            blast_type[i] = blasts.index(m.weapon)

    pair_ok, pair_need, pair_bonus = per(size=n * n), per(size=n * n), per(size=n * n)
    pair_dist = np.where(known, dist, FAR).reshape(-1).astype(np.float64)
    pair_dmg = per(np.int32, size=n * n * n_parts * 9)
    # A pair's numbers are those of what they read (the shooter's weapon, the target's sheet,
    # the distance), worked out for a shooter's every target at once, and the exact damage
    # once per weapon and kind of target: a big fight of few kinds compiles in time linear in
    # its pairs.
    is_member = np.array([isinstance(m, Member) for m in members], bool)
    cover_full = np.array([isinstance(m, Member) and m.cover == "full" for m in members], bool)
    situation = np.array([_situation(m, rules) if isinstance(m, Member) else 0
                          for m in members], np.int64)  # fmt: skip
    sheet: dict = {}  # what a hit's damage reads of its target, by first holder
    kind_of = np.array([sheet.setdefault((m.armour, m.scale, m.damage_capacity), i)
                        if isinstance(m, Member) else -1
                        for i, m in enumerate(members)], np.int64)  # fmt: skip
    damage: dict = {}
    block = n_parts * 9
    by_pair = pair_dmg.reshape(n * n, block)
    for a, m in enumerate(members):
        if not isinstance(m, Member) or m.weapon is None:
            continue
        w = m.weapon
        ts = np.flatnonzero(is_member & (side != side[a]) & known[a])
        if not ts.size:
            continue
        p = a * n + ts
        pair_ok[p] = shooter[a] & ~cover_full[ts]
        pair_need[p], pair_bonus[p] = _to_hit(m, situation[ts], dist[a, ts], rules)
        kinds, which = np.unique(kind_of[ts], return_inverse=True)
        rows = []
        for v in kinds:
            key = (w.bd, w.scale, int(v))
            if key not in damage:
                damage[key] = np.array([hit_damage(w.bd, w.scale, members[v], row, rules, mult)
                                        for mult in mults for row in range(-4, 5)], np.int32)
            rows.append(damage[key])
        by_pair[p] = np.stack(rows)[which.reshape(-1)]

    reach: dict = {}
    adjust: dict = {}

    def blast_at(w, victim, d: float, contact: bool, tamped: bool) -> tuple[int, int]:
        """``_concussion`` and ``_zone``, once for what they read."""
        key = (w, victim.ducked, victim.cover, d, contact, tamped)
        if key not in reach:
            reach[key] = (_concussion(w, victim, d, rules, tamped), _zone(w, victim, d, contact))
        return reach[key]

    on_centre = np.eye(n, dtype=bool)
    kinds: dict = {}  # what a blast reads of its victim (ducked, cover), by first holder
    shelter = np.array([kinds.setdefault((m.ducked, m.cover), len(kinds))
                        if isinstance(m, Member) else 0 for m in members], np.int64)
    shelter_of = {kind: next(i for i, m in enumerate(members) if isinstance(m, Member)
                             and (m.ducked, m.cover) == key)
                  for key, kind in kinds.items()}  # fmt: skip
    nb = max(1, len(blasts))
    bl_conc = per(np.int32, fill=-1, size=nb * n * n)
    bl_zone = per(np.int8, size=nb * n * n)
    bl_adj, bl_cv = per(size=nb * n), per(fill=99, size=nb)
    for b, w in enumerate(blasts):
        bl_cv[b] = 99 if w.concussion_value is None else w.concussion_value
        for v, victim in enumerate(members):
            if isinstance(victim, Member):
                bl_adj[b * n + v] = blast_adjustment(w, victim, rules)
        # every (centre t, victim v) pair at once: one call per distinct distance, kind of
        # victim (ducked, cover) and contact
        reached = is_member[None, :] & known
        if not rules.contact_concussion:
            reached &= ~on_centre
        keys, which = np.unique((np.where(on_centre, 0.0, dist)
                                 + 1j * (2 * shelter[None, :] + on_centre))[reached],
                                return_inverse=True)  # fmt: skip
        got = np.array([blast_at(w, members[shelter_of[int(z.imag) // 2]], float(z.real),
                                 bool(int(z.imag) % 2), False) for z in keys],
                       np.int64).reshape(-1, 2)  # fmt: skip
        bl_conc[b * n * n:(b + 1) * n * n].reshape(n, n)[reached] = got[which.reshape(-1), 0]
        bl_zone[b * n * n:(b + 1) * n * n].reshape(n, n)[reached] = got[which.reshape(-1), 1]

    ch_round, ch_timed = per(fill=NEVER, size=n * 9), per()
    ch_tamp, ch_tamp_skill, ch_contact = per(), per(), per(fill=-1)
    ch_conc, ch_zone, ch_adj = per(fill=-1, size=n * n * 2), per(size=n * n), per(size=n * n)
    ch_cv, ch_dmg, ch_breach = per(fill=99), per(size=n * 18), per(size=n * 18)
    for c, charge in enumerate(members):
        if not isinstance(charge, Charge):
            continue
        w = charge.explosive
        rounds = _detonation_rounds(charge, rules)
        ch_round[c * 9:(c + 1) * 9] = [r if r <= scenario.max_rounds else NEVER for r in rounds]
        ch_timed[c] = int(charge.avg_seconds is not None and rules.action_timing)
        ch_tamp[c] = 2 if charge.tamped is None else int(charge.tamped)
        ch_tamp_skill[c] = charge.tamping or 0
        ch_cv[c] = 99 if w.concussion_value is None else w.concussion_value
        contact = index.get(charge.contact, -1)
        ch_contact[c] = contact
        for tamped in (0, 1):
            for row in range(-4, 5):
                at = (c * 2 + tamped) * 9 + row + 4
                if contact >= 0 and isinstance(members[contact], Member):
                    ch_dmg[at] = hit_damage(w.bd, w.scale, members[contact], row, rules,
                                            tamped=bool(tamped))  # fmt: skip
                elif contact >= 0 and isinstance(members[contact], Barrier):
                    ch_breach[at] = breach_result(w, members[contact], row, rules, bool(tamped))
        for v in np.flatnonzero(is_member & known[c]):
            victim, v = members[v], int(v)
            is_contact = v == contact
            if is_contact and not rules.contact_concussion:
                continue
            d = 0.0 if is_contact else float(dist[c, v])
            key = (w, victim.damage_capacity, victim.scale, victim.armour)
            if key not in adjust:
                adjust[key] = blast_adjustment(w, victim, rules)
            ch_adj[c * n + v] = adjust[key]
            for tamped in (0, 1):
                ch_conc[(c * n + v) * 2 + tamped], ch_zone[c * n + v] = blast_at(
                    w, victim, d, is_contact, bool(tamped))

    loc_part = per(size=9)
    for i, r in enumerate(locs):
        loc_part[r.roll + 4] = i
    loc_blow = np.array([r.cripple_blow or 0 for r in locs], np.int64)
    loc_total = np.array([r.cripple_total or 0 for r in locs], np.int64)
    return Plan(
        n_combatants=n, n_sides=len(sides), max_rounds=int(scenario.max_rounds),
        n_dmg_parts=n_parts, options=_options(rules, members), kind=kind, side=side,
        shooter=shooter, skill=skill, initiative=initiative, dodge=dodge, dodges=dodges,
        targeting=targeting, width=width, dead_at=dead_at, aim_part=aim_part,
        aim_need=aim_need, blast_type=blast_type, pair_ok=pair_ok, pair_need=pair_need,
        pair_bonus=pair_bonus, pair_dist=pair_dist, pair_dmg=pair_dmg, bl_conc=bl_conc,
        bl_zone=bl_zone, bl_adj=bl_adj, bl_cv=bl_cv, ch_round=ch_round, ch_timed=ch_timed,
        ch_tamp=ch_tamp, ch_tamp_skill=ch_tamp_skill, ch_contact=ch_contact, ch_conc=ch_conc,
        ch_zone=ch_zone, ch_adj=ch_adj, ch_cv=ch_cv, ch_dmg=ch_dmg, ch_breach=ch_breach,
        loc_part=loc_part, loc_blow=loc_blow, loc_total=loc_total,
    )  # fmt: skip

