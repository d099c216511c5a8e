"""Exact distributions of FUDGE Firearms, in fractions: one shot, one blast, one breach, and
the wound level they leave (the oracles of the tests and ``fuzion-sim attack``).

Everything here enumerates the 4dF pmf (U1) instead of sampling, and follows the rules from
the compiled plan's numbers (the difficulty, bonus and damage tables of ``compile.py``, whose
arithmetic the worked examples pin) with its own, independent reading of the wound tracks (U3,
UA11-UA13) and of crippling (U5, UA27).
"""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction
from typing import NamedTuple

from . import codes as k
from .dice import pmf
from .tables import LEVELS

__all__ = [
    "Hit",
    "Track",
    "blast_hits",
    "breach_pmf",
    "charge_outcomes",
    "level_pmf",
    "shot_outcomes",
    "summary",
]

_ROLLS = pmf()


class Hit(NamedTuple):
    """One wound event: ``damage`` on ``part`` (-1: none), ``critical`` (UA6)."""

    damage: int
    part: int = -1
    critical: bool = False


class Track:
    """A member's wound track and body parts under the plan's rules, read afresh from U3 and
    rulings UA11-UA13 and UA27 (not the kernels' code)."""

    def __init__(self, plan, c: int):
        opt = plan.options
        self.core = opt[k.OPT_TRACK] == k.TRACK_CORE
        self.width = int(plan.width[c])
        self.dead_at = int(plan.dead_at[c])
        self.up = bool(opt[k.OPT_CORE_UP])
        self.dead_damage = int(opt[k.OPT_CORE_DEAD])
        self.out_level = int(opt[k.OPT_OUT_LEVEL])
        self.cripple_out = bool(opt[k.OPT_CRIPPLE_OUT])
        self.head = int(opt[k.OPT_HEAD])
        self.blow = [int(x) for x in plan.loc_blow]
        self.total = [int(x) for x in plan.loc_total]

    def level(self, state) -> int:
        """The level of a state ``(track, parts, crippled)``: firearms ceil(points / width)
        to Near Death, Dead at ``dead_at``; core the worst box; a crippled head is Dead."""
        track, _parts, crippled = state
        if crippled and self.head in crippled:
            return 6
        if not self.core:
            if track <= 0:
                return 0
            if track >= self.dead_at:
                return 6
            return min(-(-track // self.width), 5)
        scratches, boxes, dead = track
        if dead:
            return 6
        return max(boxes) if boxes else (1 if scratches else 0)

    def out(self, state) -> bool:
        return self.level(state) >= self.out_level or (self.cripple_out and bool(state[2]))

    @staticmethod
    def fresh(core: bool):
        return ((0, frozenset(), False) if core else 0, (), frozenset())

    def take(self, state, hit: Hit):
        """The state after ``hit``."""
        track, parts, crippled = state
        if not self.core:
            track = track + hit.damage
            if hit.critical:
                track = max(track, 3 * self.width + 1)
        else:
            track = self._mark(track, hit)
        if hit.part >= 0:
            done = dict(parts)
            done[hit.part] = done.get(hit.part, 0) + hit.damage
            p = hit.part
            if p not in crippled and ((self.blow[p] and hit.damage >= self.blow[p])
                                      or (self.total[p] and done[p] >= self.total[p])):
                crippled = crippled | {p}
            parts = tuple(sorted(done.items()))
        return track, parts, crippled

    def _mark(self, track, hit: Hit):
        scratches, boxes, dead = track
        d = hit.damage
        if self.dead_damage and d >= self.dead_damage:
            return scratches, boxes, True
        level = 0 if d <= 0 else min((d + 1) // 2, 5)
        if hit.critical:
            level = max(level, 4)
        if level == 0:
            return track
        if level == 1:
            if scratches < 3:
                return scratches + 1, boxes, dead
            if not self.up:
                return track
            level = 2
        while level <= 5:
            if level not in boxes:
                return scratches, boxes | {level}, dead
            if not self.up:
                return track
            level += 1
        return scratches, boxes, True


def _add(out: dict, key, p: Fraction) -> None:
    out[key] = out.get(key, Fraction(0)) + p


def shot_outcomes(plan, a: int, t: int, pen_a: int = 0, pen_t: int = 0,
                  t_dodges: bool = True) -> list[tuple[Fraction, Hit | None]]:  # fmt: skip
    """Every outcome of one shot of ``a`` at ``t`` with its probability: None for a miss,
    else the :class:`Hit` (UA3-UA6, UA26). ``pen_a`` / ``pen_t`` are the shooter's and the
    target's wound penalties (0 or negative); ``t_dodges``: the target can dodge now."""
    opt = plan.options
    n = plan.n_combatants
    q = a * n + t
    need, bonus, skill = int(plan.pair_need[q]), int(plan.pair_bonus[q]), int(plan.skill[a])
    dodging = bool(opt[k.OPT_DODGE]) and bool(plan.dodges[t]) and t_dodges
    dodges = ([(int(plan.dodge[t]) + r + pen_t, p) for r, p in _ROLLS.items()] if dodging
              else [(k.NO_DODGE, Fraction(1))])  # fmt: skip
    mode, locs = int(opt[k.OPT_SHOT_ROLL]), int(opt[k.OPT_LOCATIONS])
    parts_n = int(plan.n_dmg_parts)
    out: dict = {}
    for ra, pa in _ROLLS.items():
        result = skill + ra + bonus + pen_a
        for dres, pd in dodges:
            p = pa * pd
            if not (result >= need and result > dres and result >= k.POOR):
                _add(out, None, p)
                continue
            if mode == k.SHOT_SEPARATE:
                rows = list(_ROLLS.items())
            elif mode == k.SHOT_ATTACK_DICE:
                rows = [(ra, Fraction(1))]
            else:
                rows = [(max(-4, min(4, result - max(need, dres))), Fraction(1))]
            if locs == k.LOC_NONE:
                parts = [(-1, Fraction(1))]
            elif locs == k.LOC_AIMED and result >= int(plan.aim_need[a]):
                parts = [(int(plan.aim_part[a]), Fraction(1))]
            elif locs == k.LOC_AIMED and opt[k.OPT_FALLBACK] == k.FALLBACK_MISS:
                _add(out, None, p)
                continue
            elif locs == k.LOC_AIMED and opt[k.OPT_FALLBACK] == k.FALLBACK_TORSO:
                parts = [(int(opt[k.OPT_TORSO]), Fraction(1))]
            else:
                parts = [(int(plan.loc_part[r + 4]), pr) for r, pr in _ROLLS.items()]
            for row, prow in rows:
                for part, ppart in parts:
                    at = (q * parts_n + max(part, 0)) * 9 + row + 4
                    crit = bool(opt[k.OPT_CRITICAL]) and row == 4
                    _add(out, Hit(int(plan.pair_dmg[at]), part, crit), p * prow * ppart)
    return [(p, hit) for hit, p in out.items()]


def _pieces(conc: int, frag_pmf: dict, adj: int, separate: bool) -> dict:
    """The blast's hits on one victim (UA22): one of conc + fragments, or one each."""
    out: dict = {}
    for frag, p in frag_pmf.items():
        amounts = [conc, frag] if separate else [conc + frag]
        hits = tuple(Hit(max(0, x + adj)) for x in amounts if x >= 1)
        _add(out, hits, p)
    return out


def _frag_pmf(zone: int, both: bool) -> dict:
    """Fragmentation points by zone (U4, UA23): inside R Good or better avoids 4 (31/81),
    within 2R Mediocre or better avoids 2 (66/81); ``both``: inside R rolls for 2 as well."""
    if zone == 0:
        return {0: Fraction(1)}
    inner = {4: sum(p for r, p in _ROLLS.items() if r < 1),
             0: sum(p for r, p in _ROLLS.items() if r >= 1)}  # fmt: skip
    outer = {2: sum(p for r, p in _ROLLS.items() if r < -1),
             0: sum(p for r, p in _ROLLS.items() if r >= -1)}  # fmt: skip
    if zone == 2:
        return outer
    if not both:
        return inner
    out: dict = {}
    for a, pa in inner.items():
        for b, pb in outer.items():
            _add(out, a + b, pa * pb)
    return out


def blast_hits(plan, conc: int, zone: int, adj: int, cv: int) -> dict:
    """The distribution of a blast's hits on one victim: ``{(Hit, ...): p}`` (UA18, UA22,
    UA23). ``conc`` < 0: not reached."""
    opt = plan.options
    if conc < 0:
        return {(): Fraction(1)}
    concs = {conc: Fraction(1)}
    if opt[k.OPT_CV_AVOID] and conc > 0 and cv < 99:
        avoid = sum(p for r, p in _ROLLS.items() if r >= cv)
        concs = {conc: 1 - avoid, 0: avoid} if avoid < 1 else {0: Fraction(1)}
    frags = _frag_pmf(zone, bool(opt[k.OPT_FRAG_BOTH]))
    out: dict = {}
    for c, pc in concs.items():
        for hits, p in _pieces(c, frags, adj, bool(opt[k.OPT_BLAST_SEPARATE])).items():
            _add(out, hits, pc * p)
    return out


def _tamp_pmf(plan, c: int) -> dict:
    mode = int(plan.ch_tamp[c])
    if mode < 2:
        return {mode: Fraction(1)}
    skill = int(plan.ch_tamp_skill[c])
    yes = sum(p for r, p in _ROLLS.items() if skill + r >= 0)  # §8.32: Fair or better
    return {1: yes, 0: 1 - yes}


def charge_outcomes(plan, c: int, v: int) -> dict:
    """What charge ``c`` does to member ``v`` when it goes off: ``{(Hit, ...): p}``: the
    contact hit when ``v`` is what it is set against (a Damage Roll on BD', UA25), then its
    blast (U4) when it reaches ``v``."""
    n = plan.n_combatants
    out: dict = {}
    for tamped, pt in _tamp_pmf(plan, c).items():
        contact = {(): Fraction(1)}
        if int(plan.ch_contact[c]) == v:
            contact = {}
            for r, p in _ROLLS.items():
                crit = bool(plan.options[k.OPT_CRITICAL]) and r == 4
                hit = Hit(int(plan.ch_dmg[(c * 2 + tamped) * 9 + r + 4]), -1, crit)
                _add(contact, (hit,), p)
        blast = blast_hits(plan, int(plan.ch_conc[(c * n + v) * 2 + tamped]),
                           int(plan.ch_zone[c * n + v]), int(plan.ch_adj[c * n + v]),
                           int(plan.ch_cv[c]))  # fmt: skip
        for h1, p1 in contact.items():
            for h2, p2 in blast.items():
                _add(out, h1 + h2, pt * p1 * p2)
    return out


def breach_pmf(plan, c: int, barrier_state: int = k.BREACH_INTACT) -> dict:
    """The breach result of charge ``c`` on its contact barrier: ``{result: p}`` (UA24);
    a barrier about to breach is breached by any result (reported as its result, at least
    1)."""
    out: dict = {}
    for tamped, pt in _tamp_pmf(plan, c).items():
        for r, p in _ROLLS.items():
            value = int(plan.ch_breach[(c * 2 + tamped) * 9 + r + 4])
            if barrier_state == k.BREACH_ABOUT:
                value = max(value, 1)
            _add(out, value, pt * p)
    return dict(sorted(out.items()))


def level_pmf(track: Track, outcomes) -> dict:
    """The wound level after one action's outcomes (``[(p, [Hit, ...])]``) from a fresh
    track: ``{level name: p}`` over every level of U3."""
    out = {name: Fraction(0) for name in LEVELS}
    for p, hits in outcomes:
        state = Track.fresh(track.core)
        for hit in hits:
            state = track.take(state, hit)
        out[LEVELS[track.level(state)]] += p
    return out


def summary(outcomes, track: Track | None) -> dict:
    """``p_hit``-free parts of an attack answer: the damage distribution (a miss counts 0),
    ``p_wound`` (the action leaves a wound: a level above Undamaged, or a crippled part; a
    hit whose points Damage Capacity or armour cancel leaves none), the wound levels, P(out)
    and P(crippled) after the action, hits by location."""
    damage: dict = defaultdict(Fraction)
    locations: dict = defaultdict(Fraction)
    crippled = out = wounded = Fraction(0)
    for p, hits in outcomes:
        damage[sum(h.damage for h in hits)] += p
        for h in hits:
            if h.part >= 0:
                locations[h.part] += p
        if track is not None:
            state = Track.fresh(track.core)
            for hit in hits:
                state = track.take(state, hit)
            crippled += p if state[2] else 0
            out += p if track.out(state) else 0
            wounded += p if state[2] or track.level(state) > 0 else 0
    mean = sum(d * p for d, p in damage.items())
    answer = {"damage": {"mean": float(mean),
                         "pmf": {str(d): float(p) for d, p in sorted(damage.items())}}}
    if track is not None:
        answer = {"p_wound": float(wounded), **answer}
        answer["wounds"] = {n: float(p) for n, p in level_pmf(track, outcomes).items()}
        answer["p_out"] = float(out)
        answer["p_crippled"] = float(crippled)
    return answer, dict(locations)
