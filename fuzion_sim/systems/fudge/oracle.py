"""Exact answers to a FUDGE scenario: one action of a member on another (``fuzion-sim attack
SCENARIO --attacker A --target T``: a shot, a charge's blast or contact hit, a breach), and a
whole one-against-one gunfight by a Markov chain over both wound tracks (``fuzion-sim exact
SCENARIO``).

The chain follows both members' tracks (firearms points up to Dead, or the core track's
boxes), their penalties (UA14), who can act (below Incapacitated) and who is out (UA15), in
rounds of one shot each: fixed order (initiative; a tie broken at random is a fair coin once a
fight, so the chain is the even mix of the two orders' chains), rolled each round (4dF +
initiative, ties a fair coin), or simultaneous (both shots against the round's
opening state; both out together is a draw). A round in which neither can shoot ends the fight
unresolved, as in the kernels; so does ``max_rounds``.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
from scipy import sparse

from ..base import NotAvailable
from . import codes as k
from .compile import compile_scenario as compile_plan
from .dice import ladder_name, pmf
from .exact import Hit, Track, blast_hits, breach_pmf, charge_outcomes, shot_outcomes, summary
from .model import Barrier, Charge, Member
from .run import BREACH_LABELS
from .tables import locations

__all__ = ["MAX_STATES", "fight_check", "scenario_attack", "scenario_fight"]

#: Most track states of one member the chain follows (the joint mass is a dense square).
MAX_STATES = 2000


# --- one action -------------------------------------------------------------------------------


def _why_not(plan, members, a: int, t: int) -> str:
    """Why ``a`` cannot shoot ``t`` (for a message)."""
    m, v = members[a], members[t]
    if m.weapon is None:
        return f"{m.name} has no weapon"
    if m.cover == "full":
        return f"{m.name} is behind full cover and does not shoot (UA22)"
    if v.cover == "full":
        return f"{v.name} is behind full cover and cannot be shot (UA22)"
    if plan.pair_dist[a * len(members) + t] >= 1e17:
        return f"how far {v.name} is from {m.name} is unknown"
    return f"{m.name} dodges instead of shooting (tactic: dodge, rules.dodge_costs_action)"


def _shot_answer(plan, members, a: int, t: int) -> dict:
    n = len(members)
    if not plan.pair_ok[a * n + t]:
        raise NotAvailable(f"{members[a].name} cannot shoot {members[t].name}: "
                           f"{_why_not(plan, members, a, t)}")  # fmt: skip
    outcomes = [(p, () if hit is None else (hit,)) for p, hit in shot_outcomes(plan, a, t)]
    b = int(plan.blast_type[a])
    if b >= 0:  # the target's share of the blast (contact_concussion only, UA25)
        q = (b * n + t) * n + t
        blast = blast_hits(plan, int(plan.bl_conc[q]), int(plan.bl_zone[q]),
                           int(plan.bl_adj[b * n + t]), int(plan.bl_cv[b]))  # fmt: skip
        outcomes = [(p * pb, hits + extra) if hits else (p, hits)
                    for p, hits in outcomes for extra, pb in
                    (blast.items() if hits else [((), Fraction(1))])]  # fmt: skip
    p_hit = sum((p for p, hits in outcomes if hits), Fraction(0))
    answer, by_part = summary(outcomes, Track(plan, t))
    q = a * n + t
    out = {"p_hit": float(p_hit), **answer}
    if by_part and p_hit:
        names = [r.part for r in locations()]
        out["locations"] = {names[i]: float(p / p_hit) for i, p in sorted(by_part.items())}
    out["attack"] = {
        "skill": ladder_name(int(plan.skill[a])), "bonus": int(plan.pair_bonus[q]),
        "needs": int(plan.pair_need[q]), "needs_level": ladder_name(int(plan.pair_need[q])),
        "distance_m": float(plan.pair_dist[q]),
    }  # fmt: skip
    if b >= 0:
        out["note"] = "the blast's share on others is not in this answer: run the fight"
    return out


def _charge_answer(plan, members, c: int, t: int) -> dict:
    charge, target = members[c], members[t]
    if isinstance(target, Barrier):
        if charge.contact != target.name:
            raise NotAvailable(f"{charge.name} is not set against the barrier {target.name} "
                               "(contact:), so it cannot breach it")  # fmt: skip
        results = breach_pmf(plan, c)
        p = {label: Fraction(0) for label in BREACH_LABELS}
        for value, prob in results.items():
            label = "breached" if value > 0 else ("about_to_breach" if value == 0 else "intact")
            p[label] += prob
        mean = sum(v * q for v, q in results.items())
        return {"p_hit": float(p["breached"]),
                "damage": {"mean": float(mean),
                           "pmf": {str(v): float(q) for v, q in results.items()}},
                "breach": {label: float(q) for label, q in p.items()}}  # fmt: skip
    outcomes = [(p, hits) for hits, p in charge_outcomes(plan, c, t).items()]
    p_hit = sum((p for p, hits in outcomes if hits), Fraction(0))
    answer, _ = summary(outcomes, Track(plan, t))
    return {"p_hit": float(p_hit), **answer}


def scenario_attack(scenario, attacker: str, target: str) -> dict:
    """The exact distribution of one action of ``attacker`` on ``target`` at the fight's
    start, both unhurt: a shot (``p_hit``: it hits; ``p_wound``: it leaves a wound, which a
    hit whose points Damage Capacity or armour cancel does not; ``damage``, ``wounds``: the
    target's wound level after it, ``p_out``, ``p_crippled``, ``locations`` per hit,
    ``attack``: what the shot needs), a charge going off (``p_hit``: its blast or its contact
    hit reaches the member, even for 0 points; ``p_wound``: it leaves a wound; the rest as a
    shot's), or a charge's breach (``p_hit`` = P(breached), ``damage``: the breach result,
    ``breach``). See :func:`fuzion_sim.api.exact_attack`."""
    plan = compile_plan(scenario)
    members = scenario.combatants
    names = [m.name for m in members]
    a, t = names.index(attacker), names.index(target)
    m, v = members[a], members[t]
    if isinstance(m, Barrier):
        raise NotAvailable(f"{attacker} is a barrier: it does not attack")
    if isinstance(v, Charge):
        raise NotAvailable(f"{target} is a charge: nothing attacks it")
    if isinstance(m, Charge):
        return _charge_answer(plan, members, a, t)
    if isinstance(v, Barrier):
        raise NotAvailable(f"{target} is a barrier: only a charge set against it breaches it "
                           "(§8.32)")  # fmt: skip
    return _shot_answer(plan, members, a, t)


# --- the whole fight ----------------------------------------------------------------------------


def fight_check(scenario):
    """The compiled plan when the chain can solve the fight, else :class:`NotAvailable`."""
    members = scenario.combatants
    n_sides = len(scenario.side_names)
    if len(members) != 2 or n_sides != 2:  # before compiling: a big fight says so at once
        raise NotAvailable("the exact chain solves one armed member against one; here "
                           f"{len(members)} members on {n_sides} sides")  # fmt: skip
    plan = compile_plan(scenario)
    if not all(isinstance(m, Member) and m.weapon is not None for m in members):
        raise NotAvailable("the exact chain solves a gunfight of two armed members (no "
                           "charges, barriers or unarmed targets)")  # fmt: skip
    if not (plan.pair_ok[1] and plan.pair_ok[2]):
        raise NotAvailable("the exact chain solves a gunfight in which both can shoot the "
                           "other (full cover, or a dodger who never shoots, stops one)")
    if (plan.blast_type >= 0).any():
        raise NotAvailable("the exact chain does not follow a weapon's blast; run the fight")
    if plan.options[k.OPT_LOCATIONS] != k.LOC_NONE:
        raise NotAvailable("the exact chain does not follow hit locations and crippling; run "
                           "the fight")  # fmt: skip
    return plan


def _penalty(level: int, on: bool) -> int:
    """UA14: Hurt -1, Very Hurt -2."""
    return 0 if not on or level < 2 else (-1 if level == 2 else -2)


class _Member:
    """One member's reachable track states under the other's shots, with their levels."""

    def __init__(self, plan, c: int, foe_damages: set, critical: bool):
        self.track = Track(plan, c)
        start = Track.fresh(self.track.core)
        self.index = {start: 0}
        self.states = [start]
        hits = [Hit(d, -1, c) for d in sorted(foe_damages)
                for c in ((False, True) if critical else (False,))]  # fmt: skip
        i = 0
        while i < len(self.states):
            state = self.states[i]
            i += 1
            if self.track.out(state):
                continue
            for hit in hits:
                nxt = self._cap(self.track.take(state, hit))
                if nxt not in self.index:
                    if len(self.states) >= MAX_STATES:
                        raise NotAvailable(f"over {MAX_STATES:,} states of one member's "
                                           "track: too many for the chain; run the fight")
                    self.index[nxt] = len(self.states)
                    self.states.append(nxt)
        self.level = np.array([self.track.level(s) for s in self.states], np.int64)
        self.out = np.array([self.track.out(s) for s in self.states], bool)

    def _cap(self, state):
        """Points past Dead all read the same."""
        track, parts, crippled = state
        if not self.track.core and track > self.track.dead_at:
            return self.track.dead_at, parts, crippled
        return state

    def after(self, state_index: int, hit) -> int:
        if hit is None:
            return state_index
        return self.index[self._cap(self.track.take(self.states[state_index], hit))]


def _transitions(plan, a: int, t: int, fa: _Member, ft: _Member) -> dict:
    """Per penalty of the shooter: the matrix of one shot over the target's states
    (``[from, to]``)."""
    opt = plan.options
    on = bool(opt[k.OPT_PENALTIES])
    size = len(ft.states)
    out = {}
    for pen_a in sorted({_penalty(int(x), on) for x in fa.level}):
        rows, cols, vals = [], [], []
        cache: dict = {}
        for s in range(size):
            if ft.out[s]:
                rows.append(s)
                cols.append(s)
                vals.append(1.0)
                continue
            lv = int(ft.level[s])
            key = (_penalty(lv, on), lv < k.L_INCAPACITATED)
            if key not in cache:
                cache[key] = shot_outcomes(plan, a, t, pen_a, key[0], key[1])
            for p, hit in cache[key]:
                rows.append(s)
                cols.append(ft.after(s, hit))
                vals.append(float(p))
        out[pen_a] = sparse.csr_matrix((vals, (rows, cols)), shape=(size, size))
    return out


def _openings(plan) -> list[tuple[float, float]]:
    """How the fight opens: ``[(weight, P(member 0 shoots first in a round)), ...]``, one
    chain per entry, mixed by weight at the start. Fixed order by initiative: one chain, or
    on a tie broken at random two, one per order, since the coin falls once a fight (UA1)
    and every round then keeps its order; rolled: one chain whose every round shoots first
    with P(4dF + initiative higher) + half a tie."""
    i0, i1 = int(plan.initiative[0]), int(plan.initiative[1])
    if plan.options[k.OPT_ORDER] == k.ORDER_ROLLED:
        rolls = pmf()
        p = Fraction(0)
        for r0, p0 in rolls.items():
            for r1, p1 in rolls.items():
                gap = (r0 + i0) - (r1 + i1)
                p += p0 * p1 * (1 if gap > 0 else Fraction(1, 2) if gap == 0 else 0)
        return [(1.0, float(p))]
    if plan.options[k.OPT_HAS_TIES]:
        return [(0.5, 1.0), (0.5, 0.0)]
    return [(1.0, 1.0 if i0 >= i1 else 0.0)]


def scenario_fight(scenario) -> dict:
    """The exact outcome of the scenario's gunfight (see the module docstring): win
    probabilities, draws, the unresolved share, the kill-time pmf in rounds."""
    plan = fight_check(scenario)
    critical = bool(plan.options[k.OPT_CRITICAL])
    damages = []
    for a in (0, 1):
        q = a * 2 + (1 - a)
        damages.append({int(x) for x in plan.pair_dmg[q * plan.n_dmg_parts * 9:][:9]})
    f0 = _Member(plan, 0, damages[1], critical)
    f1 = _Member(plan, 1, damages[0], critical)
    t01 = _transitions(plan, 0, 1, f0, f1)  # 0 shoots 1: over 1's states
    t10 = _transitions(plan, 1, 0, f1, f0)
    on = bool(plan.options[k.OPT_PENALTIES])
    pen0 = np.array([_penalty(int(x), on) for x in f0.level])
    pen1 = np.array([_penalty(int(x), on) for x in f1.level])
    can0 = (f0.level < k.L_INCAPACITATED) & ~f0.out
    can1 = (f1.level < k.L_INCAPACITATED) & ~f1.out
    simultaneous = plan.options[k.OPT_ORDER] == k.ORDER_SIMULTANEOUS
    rounds = int(plan.max_rounds)
    wins = np.zeros((2, rounds + 1))
    draws = np.zeros(rounds + 1)
    left = stalled = 0.0

    def shoot_1(m):  # 0 shoots 1 (rows: 0's state): the 1-axis moves
        new = m.copy()
        for pen, matrix in t01.items():
            rows = can0 & (pen0 == pen)
            new[rows] = (matrix.T @ m[rows].T).T
        return new

    def shoot_0(m):  # 1 shoots 0: the 0-axis moves
        new = m.copy()
        for pen, matrix in t10.items():
            cols = can1 & (pen1 == pen)
            new[:, cols] = matrix.T @ m[:, cols]
        return new

    for start, first in _openings(plan):
        mass = np.zeros((len(f0.states), len(f1.states)))
        mass[0, 0] = start
        for rnd in range(1, rounds + 1):
            stuck = (~can0)[:, None] & (~can1)[None, :]
            stalled += float(mass[stuck].sum())
            mass = np.where(stuck, 0.0, mass)
            if simultaneous:  # both shots meet the round's opening state, independently
                both = np.zeros_like(mass)
                for s0, s1 in zip(*np.nonzero(mass), strict=True):
                    d1 = (t01[pen0[s0]][s1].toarray()[0] if can0[s0]
                          else np.eye(1, mass.shape[1], s1)[0])  # fmt: skip
                    d0 = (t10[pen1[s1]][s0].toarray()[0] if can1[s1]
                          else np.eye(1, mass.shape[0], s0)[0])  # fmt: skip
                    both += mass[s0, s1] * np.outer(d0, d1)
                out0, out1 = f0.out[:, None], f1.out[None, :]
                wins[0, rnd] += both[np.ix_(~f0.out, f1.out)].sum()
                wins[1, rnd] += both[np.ix_(f0.out, ~f1.out)].sum()
                draws[rnd] += both[np.ix_(f0.out, f1.out)].sum()
                mass = np.where(out0 | out1, 0.0, both)
            else:
                total = np.zeros_like(mass)
                for who, weight in ((0, first), (1, 1 - first)):
                    if weight == 0:
                        continue
                    m = mass * weight
                    for step in (who, 1 - who):
                        m = shoot_1(m) if step == 0 else shoot_0(m)
                        gone1 = m[:, f1.out].sum()
                        gone0 = m[f0.out].sum()
                        wins[0, rnd] += gone1
                        wins[1, rnd] += gone0
                        m[:, f1.out] = 0.0
                        m[f0.out] = 0.0
                    total += m
                mass = total
            if mass.sum() < 1e-16:
                break
        left += float(mass.sum())
    decided = wins.sum(axis=0)
    p_decided = float(decided.sum())
    times = np.arange(rounds + 1)
    mean = float((times * decided).sum() / p_decided) if p_decided else None
    sd = (float(np.sqrt(((times - mean) ** 2 * decided).sum() / p_decided))
          if p_decided else None)  # fmt: skip
    sides = scenario.side_names
    win_of = {sides[int(plan.side[c])]: float(wins[c].sum()) for c in (0, 1)}
    return {
        "method": "Markov chain over both members' wound tracks",
        "states": [len(f0.states), len(f1.states)],
        "sides": {s: {"win_probability": win_of[s]} for s in sides},
        "draw_probability": float(draws.sum()),
        "unresolved_probability": left + stalled,
        "kill_time": {"unit": "round", "mean": mean, "sd": sd,
                      "pmf": {str(t): float(decided[t] / p_decided)
                              for t in np.flatnonzero(decided)}},
    }  # fmt: skip
