"""Exact answers to a Fuzion scenario: one attack of a member on another
(``fuzion-sim attack SCENARIO --attacker A --target T``), and a whole one-against-one standing
fight by a Markov chain over both fighters' states (``fuzion-sim exact SCENARIO``).

The chain covers every fight the duel kernel runs (``dispatch``: one against one, in phases,
nobody moving or choosing, nobody surprised) unless the dying fight on
(``dying_can_act``): each fighter's state is its Hits, its Stun and whether it is stunned
(F22); its penalty (impairment F24, stunned -5) sets its attack, defence and STR dice as in
the kernels (``rules.combat_values``); initiative is the sheet order (ties: a fair die once a
fight) or, under switch2, rolled every phase on current REF. A phase is the first actor's
action then the second's; a fighter out (Stun or Hits at 0) ends the fight. A fighter whose
weapon without autofire is shot more than once an action (F15, ``semi_auto_rof:
extra_attacks``) makes its attacks one after the other, each from the state the one before
left.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
from scipy import sparse

from ..base import NotAvailable
from . import codes, dispatch, exact, tables
from .compile import aspect_outcomes, autofire_ratio_of, pair_distances, standing_plan, vehicle_rows
from .compile import compile_scenario as compile_plan
from .dice import _difference_counts, _nd6_counts
from .rules import STUN, aspect_of, combat_values, effective, wound_penalty

__all__ = ["fight_check", "scenario_attack", "scenario_fight", "vehicle_locations"]

#: Most states of one fighter the chain follows (Hits x Stun x stunned).
MAX_STATES = 20_000


# --- one attack --------------------------------------------------------------------------------


def _first_attack(member) -> tuple[str, int]:
    """The attack a member's tactics make: ``("attack", shots)`` of its first ``attack`` rule
    (``fire``; 0: the whole ROF) or ``("burst", 3)``; the default tactic fires one shot."""
    for rule in member.tactics:
        if rule["do"] == "burst":
            return "burst", exact.BURST_SHOTS
        if rule["do"] == "attack":
            return "attack", int(rule.get("fire", 1))
    return "attack", 1


def scenario_attack(scenario, attacker: str, target: str) -> dict:
    """The exact distribution of ``attacker``'s attack on ``target`` at the fight's start: both
    at full health, at their starting positions (range band, cover, posture, size, surprise),
    under the scenario's rules (dice, criticals, chinks, hit locations, knockback,
    autofire). See :func:`fuzion_sim.api.exact_attack`."""
    plan = compile_plan(scenario)
    members = scenario.combatants
    names = [c.name for c in members]
    a, t = names.index(attacker), names.index(target)
    rules = scenario.rules
    n = plan.n_combatants
    if plan.w_area[a]:
        raise NotAvailable(f"{attacker}'s {members[a].weapon.name} hits everyone in its area: "
                           "one attack on one target is not its whole effect; run the fight")
    if rules.hit_locations == "called" and not plan.vclass[t]:
        raise NotAvailable("exact attacks with called shots at people are not worked out; run "
                           "the fight")  # fmt: skip
    dist = float(pair_distances(plan)[a * n + t])
    melee = bool(plan.w_melee[a])
    if melee and dist > plan.w_range[a]:
        raise NotAvailable(f"{target} is {dist:g} m from {attacker}, out of the "
                           f"{plan.w_range[a]:g} m reach of {members[a].weapon.name}")
    sp = standing_plan(plan)
    att, _, _, dice_n = _values(plan, a, 0)
    _, dv_r, dv_m, _ = _values(plan, t, 0)
    av = int(att + sp.pair_mod[a * n + t] + 5 * plan.surprised[t])
    dv_base = int(dv_m if melee else dv_r)
    armour = int(sp.pair_armour[a * n + t])
    kind, shots = _first_attack(members[a])
    extra = int(dispatch.extra_attacks(plan)[a])
    if extra:
        raise NotAvailable(f"{attacker}'s {members[a].weapon.name} is shot {extra + 1} times an "
                           "action (ROF, semi_auto_rof: extra_attacks), each its own attack on "
                           "a target the one before may have stunned: run the fight or "
                           "`exact`")  # fmt: skip
    common = dict(dice=rules.dice, criticals=rules.criticals)
    if plan.w_missile[a]:
        if dist > plan.w_range[a]:
            raise NotAvailable(f"{target} is {dist:g} m from {attacker}, beyond the "
                               f"{plan.w_range[a]:g} m its missile locks on within")
        out = _missile_attack(plan, scenario, a, t, av, dv_base, common)
        out["attack"].update({"av": av, "dv_base": dv_base, "range_m": dist})
        return out
    if plan.vclass[t] and rules.values.get("vehicle_locations", "random") != "none":
        call = int(plan.v_call[a * n + t])  # a called shot's row (M-77, VA-08), -1: rolled
        if kind == "burst" or (plan.w_autofire[a] and shots != 1):
            raise NotAvailable("several hits on a vehicle, each on its own location, are not "
                               "worked out exactly; run the fight")  # fmt: skip
        av += int(plan.called_mod[a * n + t])
        out = _vehicle_attack(plan, scenario, a, t, av, dv_base, int(dice_n), armour, common,
                              call)  # fmt: skip
        out["attack"].update({"av": av, "dv_base": dv_base, "range_m": dist})
        return out
    if plan.scale[t] == codes.SCALE_KILLS:
        return _kills_attack(plan, a, t, av, dv_base, int(dice_n), common,
                             bool(plan.options[codes.OPT_CHINKS]))  # fmt: skip
    damage = "stun" if plan.w_dmg[a] == STUN else "killing"
    sd = int(plan.sd[t])
    if plan.scale[t] == codes.SCALE_OBJECT:  # SDP: either damage less the armour
        damage, sd = "killing", 0
    if plan.w_kills[a]:
        dice_n = 13 + int(plan.w_kills[a])
    per_hit = dict(pd=armour, sd=sd, damage=damage, **common,
                   hit_locations=rules.hit_locations == "random",
                   armor_covers=members[t].armor.covers if rules.hit_locations == "random"
                   else None)  # fmt: skip
    several = kind == "burst" or (plan.w_autofire[a] and shots != 1)
    people_chinks = bool(plan.options[codes.OPT_CHINKS])  # chinks_scope (VA-43)
    if several and people_chinks:
        raise NotAvailable("chinks in the armour per bullet are not worked out exactly; run "
                           "the fight")  # fmt: skip
    if kind == "burst":
        res = exact.burst(av, dv_base, int(dice_n), **per_hit)
    elif plan.w_autofire[a] and shots != 1:
        fired = int(plan.w_rof[a]) if shots <= 0 else min(shots, int(plan.w_rof[a]))
        rule = "one_plus_floor" if rules.autofire_hits == "one_plus_floor" else "ceil_margin"
        res = exact.autofire(av, dv_base, int(dice_n), fired, autofire_ratio_of(rules),
                             rule=rule, **per_hit)  # fmt: skip
    else:
        res = exact.attack(av, dv_base, int(dice_n), chinks=people_chinks, **per_hit)
    out = res.to_json_dict()
    if plan.suit_max[t] and not several:
        out["powered_armour"] = suit_split_pmf(res.damage.to_dict(), int(plan.suit_max[t]),
                                               rules.values.get("powered_split", "suit_ceil"))
    if rules.knockback and not several:
        kb = exact.knockback(int(dice_n), int(plan.knock_body[t]), av, dv_base, **common)
        out["knockback"] = {"mean": float(kb.mean), "pmf": kb.to_dict()}
    out["attack"] = {"av": av, "dv_base": dv_base, "dice": int(dice_n), "damage": damage,
                     "armour": armour, "range_m": dist}  # fmt: skip
    return out


def _missile_attack(plan, scenario, a, t, av, dv_base, common) -> dict:
    """One launch of ``a``'s missile weapon at ``t`` (F18, M-42 to M-45, VA-20 to VA-26): the
    pmf of the missiles that hit (``hits``, with each probability as an exact fraction under
    ``exact``), P(at least one hits) as ``p_hit``, P(the launch engages) and P(evaded); on a
    vehicle, each missile's location given a hit from the engagement's aspect."""
    rules = scenario.rules
    values = rules.values
    evade = int((plan.ref[t] if plan.m_evade_ref[t] else plan.dex[t]) + plan.m_evade[t])
    p_launch = Fraction(1)
    if values.get("missile_launch", "automatic") == "attack_roll":
        total, hit = exact._hit_counts(av, dv_base, common["dice"], common["criticals"])
        p_launch = Fraction(hit, total)
    pmf = exact.missile_hits(
        evade, int(plan.w_mdv[a]), int(plan.w_missile[a]), common["dice"], common["criticals"],
        countermeasures=int(plan.m_cm[t]),
        countermeasure_use=values.get("countermeasure_use", "per_engagement"),
        cluster_roll=values.get("cluster_roll", "single"), p_launch=p_launch,
    )  # fmt: skip
    mean = sum(h * p for h, p in pmf.items())
    out = {
        "p_hit": float(1 - pmf.get(0, Fraction(0))),
        "p_engage": float(p_launch),
        "p_evaded": float(pmf.get(0, Fraction(0)) - (1 - p_launch)),
        "hits": {"mean": float(mean), "pmf": {str(h): float(p) for h, p in pmf.items()},
                 "exact": {str(h): str(p) for h, p in pmf.items()},
                 "exact_mean": str(mean)},
        "missile": {"dv": int(plan.w_mdv[a]), "cluster": int(plan.w_missile[a]),
                    "evasion": evade, "countermeasures": int(plan.m_cm[t])},
        "attack": {"dice": int(plan.w_dc[a]), "kills": int(plan.w_kills[a])},
    }  # fmt: skip
    vehicle = getattr(scenario.combatants[t], "vehicle", None)
    if vehicle is not None and values.get("vehicle_locations", "random") != "none":
        mode = values.get("missile_aspect", "launch")
        if vehicle.kind == "mecha" or mode == "side":
            aspect = "side"
        elif mode == "rear":
            aspect = "rear"
        else:
            arc = float(plan.options[codes.OPT_FRONT_ARC])
            dx = float(plan.pos_x0[a] - plan.pos_x0[t])
            dy = float(plan.pos_y0[a] - plan.pos_y0[t])
            aspect = tables.ASPECTS[int(aspect_of(dx, dy, float(plan.heading0[t]), arc,
                                                  False))]  # fmt: skip
        locations = vehicle_locations(vehicle, aspect, values.get("vehicle_row9", "literal"))
        out["locations"] = {k: float(v) for k, v in locations.items()}
        out["aspect"] = aspect
    return out


def suit_split_pmf(damage: dict, sdp: int, split: str = "suit_ceil") -> dict:
    """Powered armour (F30, M-35, VA-44): the damage through a fresh suit's PD (``damage``, a
    pmf keyed by value) split between the suit's ``sdp`` (half, the odd point to the suit
    under ``suit_ceil``; what it cannot take goes to the wearer) and the wearer. Returns
    ``{"suit_sdp", "suit": {mean, pmf}, "wearer": {mean, pmf}, "p_wrecked"}``."""
    suit: dict[int, float] = {}
    wearer: dict[int, float] = {}
    wrecked = 0.0
    for key, p in damage.items():
        v = int(key)
        half = v // 2 if split == "wearer_ceil" else v - v // 2
        take = min(half, sdp)
        suit[take] = suit.get(take, 0.0) + p
        wearer[v - take] = wearer.get(v - take, 0.0) + p
        wrecked += p if take >= sdp else 0.0

    def dist(pmf):
        return {"mean": sum(k * p for k, p in pmf.items()),
                "pmf": {str(k): p for k, p in sorted(pmf.items())}}  # fmt: skip

    return {"suit_sdp": sdp, "suit": dist(suit), "wearer": dist(wearer), "p_wrecked": wrecked}


def integrity_p(left: int, unit: int, count: str = "total_tenths") -> Fraction:
    """Structural integrity (F30, M-36, VA-45, examples E-10): P(1d10 > the tenths of a Kill
    ``left``, in ``unit``s of a Kill), 0 under ``total_tenths`` from 1 Kill up; 1 when nothing
    is left (destroyed by the damage itself)."""
    if left <= 0:
        return Fraction(1)
    tenths = left * 10 // unit
    if count == "fractional_part":
        tenths %= 10
    return Fraction(max(10 - tenths, 0), 10)


def vehicle_locations(vehicle, aspect: str, row9: str = "literal") -> dict[str, Fraction]:
    """P(each location of ``vehicle``'s table | a hit from ``aspect``), exactly (F31, M-22 to
    M-30): its roll's outcomes (side 3d6, front 2d6+1, rear 2d6+6; a humanoid mecha 3d6) less
    those of the rows it lacks, rolled again (M-24); rows that share a name summed."""
    rows = vehicle_rows(vehicle, row9)
    weights = row_weights(vehicle, aspect, rows)
    total = sum(weights)
    out: dict[str, Fraction] = {}
    for row, w in zip(rows, weights, strict=True):
        out[row.location] = out.get(row.location, Fraction(0)) + Fraction(w, total)
    return out


def row_weights(vehicle, aspect: str, rows) -> list[int]:
    """The equally likely outcomes of ``aspect``'s roll that land on each of ``rows`` (none
    on a row the vehicle lacks: M-24 rolls again)."""
    counts = aspect_outcomes(vehicle)[tables.ASPECTS.index(aspect)]
    return [0 if row.location in vehicle.absent else
            sum(counts[r - 3] for r in range(row.lo, row.hi + 1)) for row in rows]  # fmt: skip


def _vehicle_attack(plan, scenario, a, t, av, dv_base, dice_n, armour, common,
                    call=-1) -> dict:  # fmt: skip
    """One attack on a vehicle (F31, M-22 to M-30): the aspect from the starting positions and
    heading, each location's probability given a hit (all on row ``call`` of a called shot,
    M-77), and the structure's damage (SDP, or Kills in the plan's unit: tenths under
    ``kill_precision: tenths``) after the row's multiplier; the crew row does none to the
    structure (its damage is the pilot's)."""
    rules = scenario.rules
    vehicle = scenario.combatants[t].vehicle
    kill_rated = plan.scale[t] == codes.SCALE_KILLS
    wall = int(plan.a_kills[t]) if kill_rated else armour
    unit_name = ("SDP" if not kill_rated else
                 "tenths of a Kill" if plan.kill_unit[t] == 10 else "Kills")  # fmt: skip
    arc = float(plan.options[codes.OPT_FRONT_ARC])
    dx = float(plan.pos_x0[a] - plan.pos_x0[t])
    dy = float(plan.pos_y0[a] - plan.pos_y0[t])
    aspect = tables.ASPECTS[int(aspect_of(dx, dy, float(plan.heading0[t]), arc,
                                          vehicle.kind == "mecha"))]  # fmt: skip
    row9 = rules.values.get("vehicle_row9", "literal")
    rows = vehicle_rows(vehicle, row9)
    weights = row_weights(vehicle, aspect, rows)
    if call >= 0:
        weights = [int(r == call) for r in range(len(rows))]
    n_loc = sum(weights)
    k0 = t * codes.V_ROWS
    mults = [(int(plan.v_num[k0 + r]), int(plan.v_den[k0 + r]), bool(plan.v_crew[k0 + r]))
             for r in range(len(rows))]  # fmt: skip
    d_total, hit = exact._hit_counts(av, dv_base, common["dice"], common["criticals"])
    chink = 0
    if rules.chinks:
        chink = sum(c for m, c in exact._margin_counts(av, dv_base, common["dice"],
                                                       common["criticals"])[1].items()
                    if m >= exact.CHINK_MARGIN)  # fmt: skip
    if kill_rated:
        kills = int(plan.w_kills[a]) if plan.w_kills[a] else max(dice_n - 13, 0)
        unit = int(plan.kill_unit[t])
        per_hit = {False: {max(kills - int(plan.a_kills[t]), 0): 1}, True: {kills: 1}}
        scale = unit
    else:
        lo, counts = _nd6_counts(int(dice_n))
        per_hit = {}
        for chinked, wall in ((False, armour), (True, 0)):
            table: dict[int, int] = {}
            for j, c in enumerate(counts):
                v = max(lo + j - wall, 0)
                table[v] = table.get(v, 0) + c
            per_hit[chinked] = table
        scale = 1
    pmf: dict[int, Fraction] = {0: Fraction(d_total - hit, d_total)}
    for chinked, share in ((False, hit - chink), (True, chink)):
        if not share:
            continue
        table = per_hit[chinked]
        tot = sum(table.values())
        for v, c in table.items():
            for (num, den, crew), w in zip(mults, weights, strict=True):
                if not w:
                    continue
                dmg = 0 if crew else v * scale * num // den
                pmf[dmg] = pmf.get(dmg, Fraction(0)) + Fraction(share, d_total) * Fraction(
                    c, tot) * Fraction(w, n_loc)
    mean = sum(v * p for v, p in pmf.items())
    locations = vehicle_locations(vehicle, aspect, row9)
    if call >= 0:
        locations = {name: Fraction(int(name == rows[call].location)) for name in locations}
    extra = {}
    if kill_rated and rules.values.get("structural_integrity", False):
        # F30, VA-45: after a hit that put Kills into the structure (or, on the crew row, through
        # the armour), 1d10 above the tenths left destroys it
        count = rules.values.get("integrity_count", "total_tenths")
        pool = int(plan.hits_max[t])
        p_si = Fraction(0)
        for chinked, share in ((False, hit - chink), (True, chink)):
            if not share:
                continue
            for v in per_hit[chinked]:
                for (num, den, crew), w in zip(mults, weights, strict=True):
                    dmg = 0 if crew else v * scale * num // den
                    if not w or v <= 0 or (dmg <= 0 and not crew) or dmg >= pool:
                        continue
                    p_si += Fraction(share, d_total) * Fraction(w, n_loc) * integrity_p(
                        pool - dmg, scale, count)
        p_damage = sum((p for v, p in pmf.items() if v >= pool), Fraction(0))
        extra["structural_integrity"] = {"p_scrapped": float(p_si),
                                         "p_destroyed": float(p_si + p_damage)}
    return {
        "p_hit": hit / d_total,
        "damage": {"mean": float(mean), "pmf": {str(v): float(p) for v, p in sorted(pmf.items())
                                                if p}},
        "locations": {k: float(v) for k, v in locations.items()},
        "aspect": aspect,
        "attack": {"dice": dice_n, "armour": wall, "unit": unit_name},
        **extra,
    }  # fmt: skip


def _kills_attack(plan, a, t, av, dv_base, dice_n, common, chinks=False) -> dict:
    """A hit on a Kill-rated target (F29): the attacker's Kills (a Kill-rated weapon's, or its
    DC over 13) less the armour's, every hit alike; with chinks in the armour (F30), a hit that
    beats the DV by 10 or more meets no Kill armour (M-34, VA-43)."""
    kills = int(plan.w_kills[a]) if plan.w_kills[a] else max(dice_n - 13, 0)
    through = max(kills - int(plan.a_kills[t]), 0)
    total, hit = exact._hit_counts(av, dv_base, common["dice"], common["criticals"])
    chink = 0
    if chinks and kills > through:
        chink = sum(c for m, c in exact._margin_counts(av, dv_base, common["dice"],
                                                       common["criticals"])[1].items()
                    if m >= exact.CHINK_MARGIN)  # fmt: skip
    counts = {0: total - hit}
    counts[through] = counts.get(through, 0) + hit - chink
    counts[kills] = counts.get(kills, 0) + chink
    pmf = {str(v): Fraction(c, total) for v, c in sorted(counts.items()) if c}
    mean = sum(v * p for v, p in ((int(k), p) for k, p in pmf.items()))
    return {"p_hit": hit / total,
            "damage": {"mean": float(mean), "pmf": {k: float(p) for k, p in pmf.items()}},
            "attack": {"av": av, "dv_base": dv_base, "kills": kills}}  # fmt: skip


def _values(plan, c, pen):
    """Combatant ``c``'s (attack base, DV against ranged, DV against melee, damage dice) under
    penalty ``pen`` (``rules.combat_values``, as every kernel computes them)."""
    return combat_values(plan.ref[c], plan.dex[c], plan.strength[c], pen, plan.att_skill[c],
                         plan.w_acc[c], plan.w_min_str[c], plan.w_dc[c], plan.w_melee[c],
                         plan.def_ranged[c], plan.def_melee[c])  # fmt: skip


# --- the whole fight ---------------------------------------------------------------------------


def fight_check(scenario):
    """The compiled plan (for the standing kernels) when the chain can solve the fight: the
    fights of the duel kernel, chinks too; else :class:`NotAvailable` saying why."""
    from .run import FightPlan, compile_scenario

    plan = compile_plan(scenario)
    # the duel kernel's fights, less the rule options it runs that the chain does not (hit
    # locations, autofire, knockback, spreads: the standing kernel's conditions)
    failing = dict.fromkeys(
        c for k in ("duel", "standing") for c in dispatch.failing_conditions(plan, k)
        if c is not dispatch.no_chinks and c is not dispatch.single_attacks
    )  # fmt: skip
    if failing:
        why = "; ".join(c.failing for c in failing)
        raise NotAvailable(
            "the exact chain solves a one-against-one fight in phases in which nobody moves or "
            f"chooses and nobody is surprised (the duel kernel's fights); here: {why}"
        )
    if scenario.rules.dying_can_act:
        raise NotAvailable("the exact chain does not follow the dying fighting on and bleeding "
                           "(rules.dying_can_act); run the fight")  # fmt: skip
    if not dispatch.single_attacks(plan):  # the chain makes the further attacks itself
        return FightPlan("standing", standing_plan(plan))
    return compile_scenario(scenario, kernel="standing")


class _Fighter:
    """One fighter's states (Hits, Stun, stunned) reachable under the other's attacks, with
    each state's penalty (F24 impairment, +5 stunned)."""

    def __init__(self, plan, c, foe_killing: bool, foe_dice_max: int, stunned: bool):
        self.c = c
        self.hits, self.stun = int(plan.hits_max[c]), int(plan.stun_max[c])
        self.limit = self.stun // 2 if stunned else 1 << 62  # F22: stunned past half the Stun
        impairment = bool(plan.options[codes.OPT_IMPAIRMENT])
        dying = int(plan.options[codes.OPT_DYING_PENALTY])
        start = (self.hits, self.stun, 0)
        seen = {start: 0}
        order = [start]
        i = 0
        while i < len(order):  # every state the foe's wounds can reach (t = 1 .. max damage)
            h, s, lose = order[i]
            i += 1
            nexts = [(h, s, 0)] if lose else []
            for through in range(1, foe_dice_max + 1):
                nxt = self.wounded(h, s, lose, through, foe_killing)
                if nxt is not None:
                    nexts.append(nxt)
            for nxt in nexts:
                if nxt not in seen:
                    if len(seen) >= MAX_STATES:
                        raise NotAvailable(f"over {MAX_STATES:,} states of one fighter (Hits x "
                                           "Stun x stunned): too many for the chain; run it")
                    seen[nxt] = len(order)
                    order.append(nxt)
        self.states, self.index = order, seen
        self.pen = np.array([wound_penalty(h, self.hits, impairment, dying) + 5 * lose
                             for h, s, lose in order], np.int64)  # fmt: skip
        self.lose = np.array([lose for _, _, lose in order], bool)
        self.unstunned = np.array([seen[(h, s, 0)] for h, s, _ in order], np.int64)

    def wounded(self, h, s, lose, through, killing):
        """The state after ``through`` damage through the defences (None: out of the fight)."""
        if killing:
            hits_lost, stun_lost = through, min(through, s)
        else:
            hits_lost, stun_lost = through // 5, through
        h2, s2 = h - hits_lost, s - stun_lost
        if h2 <= 0 or s2 <= 0:
            return None
        return (h2, s2, int(lose or stun_lost > self.limit))


def _through(need: int, dice_n: int, stop: int, chink_stop: int, dice: str, criticals: str):
    """P(damage through = t), t = 0, 1, ...: a miss or a stopped blow is 0."""
    dlo, dcounts = _difference_counts(dice, criticals)
    slo, scounts = _nd6_counts(int(dice_n))
    total = sum(dcounts) * sum(scounts)
    out: dict[int, int] = {}
    for i, dc in enumerate(dcounts):
        if not dc:
            continue
        margin = dlo + i - need
        if margin < 0:
            out[0] = out.get(0, 0) + dc * sum(scounts)
            continue
        wall = chink_stop if margin >= exact.CHINK_MARGIN else stop
        for j, sc in enumerate(scounts):
            t = max(slo + j - wall, 0)
            out[t] = out.get(t, 0) + dc * sc
    probs = np.zeros(max(out) + 1)
    for t, c in out.items():
        probs[t] = float(Fraction(c, total))
    return probs


def _transitions(plan, x, y, fx: _Fighter, fy: _Fighter, options, dice, criticals):
    """Per penalty of attacker ``x``: the sparse matrix over ``y``'s states of one attack
    (``[from, to]``, the last column: ``y`` out of the fight)."""
    n = plan.n_combatants
    mod = int(plan.pair_mod[x * n + y])
    armour = int(plan.pair_armour[x * n + y])
    killing = plan.w_dmg[x] != STUN
    sd = int(plan.sd[y])
    stop = armour if killing or armour > sd else sd
    chink_stop = (0 if killing else sd) if options[codes.OPT_CHINKS] else stop
    melee = bool(plan.w_melee[x])
    out = {}
    for pen_x in np.unique(fx.pen):
        att, _, _, dice_n = _values(plan, x, int(pen_x))
        rows, cols, vals = [], [], []
        cache = {}
        for k, (h, s, lose) in enumerate(fy.states):
            pen_y = int(fy.pen[k])
            if pen_y not in cache:
                _, dv_r, dv_m, _ = _values(plan, y, pen_y)
                need = int((dv_m if melee else dv_r) - att - mod)
                cache[pen_y] = _through(need, dice_n, stop, chink_stop, dice, criticals)
            for t, p in enumerate(cache[pen_y]):
                if p == 0.0:
                    continue
                nxt = (h, s, lose) if t == 0 else fy.wounded(h, s, lose, t, killing)
                rows.append(k)
                cols.append(len(fy.states) if nxt is None else fy.index[nxt])
                vals.append(p)
        out[int(pen_x)] = sparse.csr_matrix((vals, (rows, cols)),
                                            shape=(len(fy.states), len(fy.states) + 1))
    return out


def _act(mass, fx: _Fighter, trans, attacks: int = 1):
    """The actor (axis 0 of ``mass``) acts: a stunned one loses the action (F22), the others
    make ``attacks`` attacks, each from the target's state after the one before. Returns the
    new mass and the probability the target went out."""
    new = np.zeros_like(mass)
    stunned = np.flatnonzero(fx.lose)
    if stunned.size:
        np.add.at(new, fx.unstunned[stunned], mass[stunned])
    won = 0.0
    for pen, t in trans.items():
        rows = np.flatnonzero(~fx.lose & (fx.pen == pen))
        if not rows.size:
            continue
        part = mass[rows]
        for _ in range(attacks):
            moved = (t.T @ part.T).T  # rows x (target states + out)
            won += float(moved[:, -1].sum())
            part = moved[:, :-1]
        new[rows] += part
    return new, won


def _first_probability(plan, f0: _Fighter, f1: _Fighter, switch2: bool):
    """P(fighter 0 acts first this phase) for every pair of states (a matrix), or a number."""
    if not switch2:
        return None
    dice = int(plan.options[codes.OPT_INIT_DICE])
    if dice == 10:
        counts = [1] * 10
    else:
        counts = _nd6_counts(3)[1]
    diff: dict[int, float] = {}
    total = sum(counts) ** 2
    for i, a in enumerate(counts):
        for j, b in enumerate(counts):
            diff[i - j] = diff.get(i - j, 0.0) + a * b / total
    refs0 = {p: effective(int(plan.ref[0]), int(p)) for p in np.unique(f0.pen)}
    refs1 = {p: effective(int(plan.ref[1]), int(p)) for p in np.unique(f1.pen)}
    first = np.empty((len(f0.states), len(f1.states)))
    for p0, r0 in refs0.items():
        for p1, r1 in refs1.items():
            gap = r1 - r0  # 0 first when its roll beats 1's by more, or ties (then a fair die)
            q = sum(p for d, p in diff.items() if d > gap) + 0.5 * diff.get(gap, 0.0)
            first[np.ix_(f0.pen == p0, f1.pen == p1)] = q
    return first


def scenario_fight(scenario) -> dict:
    """The exact outcome of the scenario's fight (see the module docstring): win
    probabilities, the unresolved share within ``max_rounds``, the kill-time pmf."""
    fight = fight_check(scenario)
    attacks = [int(n) + 1 for n in dispatch.extra_attacks(compile_plan(scenario))]
    plan = fight.arrays
    rules = scenario.rules
    options = plan.options
    dice, criticals = rules.dice, rules.criticals
    stunned = bool(options[codes.OPT_STUNNED])
    biggest = [6 * int(_values(plan, c, 0)[3]) for c in (0, 1)]
    killing = [plan.w_dmg[c] != STUN for c in (0, 1)]
    f0 = _Fighter(plan, 0, killing[1], biggest[1], stunned)
    f1 = _Fighter(plan, 1, killing[0], biggest[0], stunned)
    t01 = _transitions(plan, 0, 1, f0, f1, options, dice, criticals)
    t10 = _transitions(plan, 1, 0, f1, f0, options, dice, criticals)
    switch2 = bool(options[codes.OPT_SWITCH2])
    first = _first_probability(plan, f0, f1, switch2)
    orders = [(1.0, int(plan.base_order[0]))]
    if not switch2 and options[codes.OPT_HAS_TIES]:  # equal REF: a die once a fight
        orders = [(0.5, 0), (0.5, 1)]
    phases = int(plan.max_slots)
    wins = np.zeros((2, phases + 1))
    left = 0.0
    for weight, who in orders:
        mass = np.zeros((len(f0.states), len(f1.states)))
        mass[0, 0] = weight
        for phase in range(1, phases + 1):
            parts = [(mass * first, 0), (mass * (1 - first), 1)] if switch2 else [(mass, who)]
            mass = np.zeros_like(mass)
            for part, lead in parts:
                if lead == 0:
                    part, w0 = _act(part, f0, t01, attacks[0])
                    part, w1 = _act(part.T, f1, t10, attacks[1])
                    part = part.T
                else:
                    part, w1 = _act(part.T, f1, t10, attacks[1])
                    part = part.T
                    part, w0 = _act(part, f0, t01, attacks[0])
                wins[0, phase] += w0
                wins[1, phase] += w1
                mass += part
            if mass.sum() < 1e-15:
                break
        left += float(mass.sum())
    decided = wins.sum(axis=0)
    p_decided = float(decided.sum())
    pmf = {str(k): float(decided[k] / p_decided) for k in np.flatnonzero(decided)}
    times = np.arange(phases + 1)
    mean = float((times * decided).sum() / p_decided) if p_decided else None
    sd = (float(np.sqrt(((times - mean) ** 2 * decided).sum() / p_decided))
          if p_decided else None)  # fmt: skip
    sides = scenario.side_names
    win_of = {sides[int(plan.side[c])]: float(wins[c].sum()) for c in (0, 1)}
    return {
        "method": "Markov chain over both fighters' Hits, Stun and stunned state",
        "states": [len(f0.states), len(f1.states)],
        "sides": {s: {"win_probability": win_of[s]} for s in sides},
        "draw_probability": 0.0,
        "unresolved_probability": left,
        "kill_time": {"unit": "phase", "mean": mean, "sd": sd, "pmf": pmf},
    }
