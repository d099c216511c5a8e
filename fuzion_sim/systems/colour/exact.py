"""Exact answers for the colour system: one attack of a member on another
(``fuzion-sim attack SCENARIO --attacker A --target T``) and a whole one-against-one fight
(``fuzion-sim exact SCENARIO``); also the healing arithmetic of 004 L54 (CA101).

**One attack** is the attacker's default action (the first of its ``actions``) on the target at
the fight's start, enumerated over every roll it makes with the kernels' own functions
(``exact_rolls.py``): both d100s of the contest, the hit die of a volley, each later hit's
FEAT roll, the armour FEAT and the Soak after a lost dodge when those rules are on, the rattle's
5d10. ``p_hit`` is the chance the attack threatens and beats the defence (for a target that
makes no contested roll: that it threatens), ``colours`` the attack roll's colours and
``damage`` the pmf of the net damage of the whole action, a miss counted 0 (Health is not
followed: every hit of a volley counts).

**A fight** of one against one is a Markov chain over both fighters' Health. Nothing in this
system makes an attack depend on its attacker's Health, so the two Healths fall independently,
each driven by the other's turns: the chain is the product of the two first-passage
distributions (the turn on which each one's Health reaches 0), combined with the initiative
order (rolled once a fight, ties re-rolled, CA13-CA14) round by round. The fight ends at the
first 0 (CA79). A fight whose state is more than the two Healths is refused with the reason.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from ..base import NotAvailable
from . import codes as k
from .compile import compile_plan
from .exact_rolls import first_hits, later_hits
from .kernel import MAX_REROLLS
from .run import action_rounds

__all__ = ["attack_distribution", "fight_check", "nights_to_heal", "scenario_attack",
           "scenario_fight", "turn_pmf"]  # fmt: skip

#: Most Health a fighter of an exact fight may have (the chain's state per fighter).
MAX_HEALTH = 200_000
#: Most damage values a distribution keeps.
MAX_DAMAGE = 2_000_000


def _five_d10() -> np.ndarray:
    pmf = np.zeros(51)
    one = np.zeros(11)
    one[1:] = 0.1
    pmf = one
    for _ in range(4):
        pmf = np.convolve(pmf, one)
    return pmf


_RATTLE = _five_d10()


def _add(acc: np.ndarray, pmf: np.ndarray, weight: float) -> np.ndarray:
    if len(pmf) > len(acc):
        acc = np.concatenate([acc, np.zeros(len(pmf) - len(acc))])
    acc[: len(pmf)] += weight * pmf
    return acc


def _delta(n: int) -> np.ndarray:
    out = np.zeros(n + 1)
    out[n] = 1.0
    return out


def _setup(plan, a: int, j: int):
    """The form, manoeuvre, multi-action shift and rounds of ``a``'s action ``j``
    (``kernel.do_action``)."""
    acts, mem, opts = plan.acts, plan.mem, plan.opts
    kind = int(acts[a, j, k.AF_KIND])
    n_act = int(mem[a, k.M_N_ACTIONS])
    multi = 0 if n_act < 2 else (-(n_act - 1) if opts[k.O_PER_EXTRA] else -1)
    rounds = int(action_rounds(plan)[0][a, j])
    manoeuvre = 0
    power = int(acts[a, j, k.AF_POWER])
    called = int(acts[a, j, k.AF_CALLED])
    if kind == k.A_SWEEP or kind == k.A_BURST:
        manoeuvre = -1
    elif kind == k.A_CONCENTRATED:
        manoeuvre = -3 if mem[a, k.M_W_RF] == k.RF_FULL_AUTO else -1
    elif kind == k.A_ATTACK:
        manoeuvre -= 2 * power
        if called >= 0:
            manoeuvre -= (5 if opts[k.O_HEAD_ADD] else 3) if called == k.HEAD else 2
    return kind, power, called, manoeuvre, multi, rounds


def _rattle_flags(plan, a: int, t: int, out: np.ndarray) -> np.ndarray:
    """Whether each roll pair's hit gets the rattle's 5d10 (CA34; ``actions.apply_hit``)."""
    opts, mem, values = plan.opts, plan.mem, plan.values
    if not opts[k.O_RATTLE]:
        return np.zeros(len(out), bool)
    st0 = plan.st0
    total = int(mem[t, k.M_BODY] + mem[t, k.M_NAT] + mem[t, k.M_FIELD] * st0[t, k.S_FIELD_UP])
    if mem[t, k.M_HAS_SHIELD] and st0[t, k.S_SH_MODE] == k.SHIELD_BLOCK:
        total += int(mem[t, k.M_SH_PROT])
    nearest = bool(opts[k.O_VALUE_NEAREST])

    def rank(v):
        best = 0
        for i, x in enumerate(values):
            if (abs(x - v) < abs(values[best] - v)) if nearest else x <= v:
                best = i
        return best

    base = int(mem[a, k.M_W_BASE] + (mem[a, k.M_VAL_S] if mem[a, k.M_W_STR] else 0))
    if total <= 0 or rank(base) >= rank(total):
        return np.zeros(len(out), bool)
    dcol = out[:, 6]
    red = (dcol >= 0) & ((dcol == k.RED) | (dcol == k.SUPER_CRIT))
    return (out[:, 0] == 1) & (out[:, 1] >= opts[k.O_CRIT_MIN]) & ~red


def _extra_rolls(plan):
    """The extra rolls of a hit to enumerate (CA64, CA32): each a list of rolls (0: none)."""
    opts = plan.opts
    fbs = list(range(1, 101)) if opts[k.O_FALLBACK_SOAK] else [0]
    aps = list(range(1, 101)) if opts[k.O_ARMOUR_ACTIVE] else [0]
    return fbs, aps


class _Plan:
    """A compiled plan with the arrays the enumerations take, and a cache of later-hit pmfs."""

    def __init__(self, plan):
        self.p = plan
        self.cache: dict = {}

    def first(self, a, t, form, power, called, manoeuvre, multi, stack, fb, ap, area=0):
        p = self.p
        out = np.zeros((10000, 9), np.int64)
        rapid = 1 if p.mem[a, k.M_W_RF] != 0 else 0
        first_hits(p.mem, p.st0, p.opts, p.shift, p.rank_col, p.colour_tab, p.values, a, t, form,
                   power, called, manoeuvre, multi, rapid, stack, fb, ap, area, out)  # fmt: skip
        return out

    def later(self, a, t, form, ca, bypass, feat, kind, def_col, rattled):
        """The pmf of one later hit of a volley (over its FEAT roll and extra rolls)."""
        key = (a, t, form, ca, bypass, feat, kind, def_col, rattled)
        if key in self.cache:
            return self.cache[key]
        p = self.p
        fbs, aps = _extra_rolls(p)
        pmf = np.zeros(1)
        buf = np.zeros(100, np.int64)
        rapid = 1 if p.mem[a, k.M_W_RF] != 0 else 0
        w = 1.0 / (100 * len(fbs) * len(aps))
        for fb in fbs:
            for ap in aps:
                later_hits(p.mem, p.st0, p.opts, p.shift, p.rank_col, p.colour_tab, p.values,
                           a, t, form, ca, bypass, feat, kind, def_col, rapid, fb, ap,
                           buf)  # fmt: skip
                counts = np.bincount(buf)
                pmf = _add(pmf, counts.astype(float), w)
        if rattled:
            pmf = np.convolve(pmf, _RATTLE)
        self.cache[key] = pmf
        return pmf


def _volley_pmf(ep: _Plan, a, t, form, out, rounds, per_attack, rattle, weights=None):
    """The damage pmf of single attacks or volleys from each roll pair's first hit (``out``,
    rows of ``first_hits``, equally likely unless ``weights`` says)."""
    pmf = np.zeros(1)
    autofire = form == k.A_AUTOFIRE
    keys = np.stack([out[:, 0], out[:, 1], out[:, 2], out[:, 4], out[:, 5], out[:, 7],
                     out[:, 8], rattle.astype(np.int64)], axis=1)  # fmt: skip
    groups, inverse = np.unique(keys, axis=0, return_inverse=True)
    inverse = inverse.reshape(-1)
    if weights is None:
        weights = np.full(len(out), 1.0 / len(out))
    mass = np.bincount(inverse, weights=weights, minlength=len(groups))
    for (landed, ca, net, bypass, feat, kind, def_col, rattled), n in zip(groups, mass,
                                                                        strict=True):
        base = _delta(int(net))
        if rattled:
            base = np.convolve(base, _RATTLE)
        if autofire and landed and rounds > 1:
            one = ep.later(a, t, form, int(ca), int(bypass), int(feat) if per_attack else -1,
                           int(kind), int(def_col), bool(rattled))  # fmt: skip
            spread = np.zeros(1)
            power = np.array([1.0])
            for _ in range(rounds):
                spread = _add(spread, power, 1.0 / rounds)
                power = np.convolve(power, one)
            base = np.convolve(base, spread)
        pmf = _add(pmf, base, n)
    return pmf


class AttackDistribution:
    """One attack's exact distribution: ``p_hit``, the attack roll's ``colours`` (6
    probabilities), the damage pmf (``damage[d]``) and, for a volley, the pmf of hits."""

    def __init__(self, p_hit, colours, damage, hits=None, form="attack"):
        self.p_hit = float(p_hit)
        self.colours = np.asarray(colours, float)
        damage = np.asarray(damage, float)
        nz = np.flatnonzero(damage > 0)
        self.damage = damage[: nz[-1] + 1] if len(nz) else np.ones(1)
        self.hits = hits
        self.form = form

    @property
    def mean(self) -> float:
        return float(np.dot(np.arange(len(self.damage)), self.damage))

    def to_json_dict(self) -> dict:
        out = {
            "p_hit": self.p_hit,
            "colours": {name: float(p) for name, p in zip(k.COLOUR_NAMES, self.colours,
                                                          strict=True)},
            "damage": {"mean": self.mean,
                       "pmf": {str(d): float(p) for d, p in enumerate(self.damage) if p > 0}},
        }  # fmt: skip
        if self.hits is not None:
            out["hits"] = {str(h): float(p) for h, p in sorted(self.hits.items()) if p > 0}
        out["form"] = self.form
        return out


def _hits_pmf(p_land: float, rounds: int) -> dict:
    hits = {0: 1.0 - p_land}
    for h in range(1, rounds + 1):
        hits[h] = p_land / rounds
    return hits


def _mixture(nets, rattled, weight) -> np.ndarray:
    """The pmf of equally likely hits of these nets (the rattled ones with their 5d10)."""
    plain = np.zeros(1)
    if (~rattled).any():
        plain = np.bincount(nets[~rattled]).astype(float) * weight
    for n in nets[rattled]:
        plain = _add(plain, np.convolve(_delta(int(n)), _RATTLE), weight)
    return plain


def _burst(ep: _Plan, a, t, power, manoeuvre, multi, per_attack, rattle_on):
    """A three-round burst (CA50): three rolls against one defence roll, each a hit when it
    wins (a contested defence) or threatens (Roll with Blow, Soak: the first hit's FEAT is the
    defence roll, later ones roll their own unless ``rwb_rolls: per_attack``)."""
    out = ep.first(a, t, k.A_BURST, power, -1, manoeuvre, multi, 0, 0, 0)
    rattle = _rattle_flags(ep.p, a, t, out) if rattle_on else np.zeros(10000, bool)
    net = out[:, 2].reshape(100, 100)  # [ra - 1, rd - 1]
    hit = out[:, 0].reshape(100, 100) == 1
    kind = out[:, 7].reshape(100, 100)
    rat = rattle.reshape(100, 100)
    counts = hit | (net > 0)
    total = np.zeros(1)
    p_any = 0.0
    for rd in range(100):
        if kind[0, rd] in (k.D_DODGE, k.D_BLOCK, k.D_PARRY):
            one = _mixture(np.where(counts[:, rd], net[:, rd], 0), rat[:, rd], 1 / 100)
            pmf = np.convolve(np.convolve(one, one), one)
            p_none = float(np.mean(~hit[:, rd])) ** 3
        else:
            threat = hit[:, rd]
            p_t = float(np.mean(threat))
            if p_t == 0:
                pmf, p_none = _delta(0), 1.0
            else:
                with_rd = _mixture(net[threat, rd], rat[threat, rd], 1 / threat.sum())
                fresh = with_rd
                if not per_attack:
                    fresh = np.zeros(1)
                    for r in range(100):
                        fresh = _add(fresh, _mixture(net[threat, r], rat[threat, r],
                                                     1 / threat.sum()), 1 / 100)  # fmt: skip
                step = _add(_delta(0) * (1 - p_t), fresh, p_t)
                none_yet, after = 1.0, np.zeros(1)
                for _ in range(3):
                    after = _add(np.convolve(after, step), with_rd, none_yet * p_t)
                    none_yet *= 1 - p_t
                pmf, p_none = _add(after, _delta(0), none_yet), none_yet
        total = _add(total, pmf, 1 / 100)
        p_any += (1 - p_none) / 100
    return total, p_any, out


def _contest_p(plan, a, t, ability, multi) -> float:
    """P(``a`` beats ``t`` in a contest of ``ability``: Green or better and higher; the
    responder's roll clamped under ``contest_clamp: all_responders``; CA10, CA93)."""
    mem, opts, shift, rank_col, colour_tab = plan.mem, plan.opts, plan.shift, plan.rank_col, \
        plan.colour_tab
    from .rules import roll_column

    col_a = roll_column(mem, plan.st0, opts, shift, rank_col, a, ability, 0, multi, 0, True, False)
    col_t = roll_column(mem, plan.st0, opts, shift, rank_col, t, ability, 0, 0, 0, False, False)
    ca = colour_tab[col_a, 1:101]
    cd = colour_tab[col_t, 1:101].copy()
    if not opts[k.O_CLAMP_ATTACKS_ONLY]:
        cd = np.where(cd == k.BLUE, k.WHITE, np.minimum(cd, k.RED))
    ra = np.arange(1, 101)[:, None]
    rd = np.arange(1, 101)[None, :]
    a_, d_ = ca[:, None], cd[None, :]
    won = (a_ >= k.GREEN) & ((a_ > d_) | ((a_ == d_) & (ra > rd)))
    return float(won.mean())


def attack_distribution(plan, a: int, t: int, j: int = 0) -> AttackDistribution:
    """The exact distribution of ``a``'s action ``j`` on ``t`` at the fight's start (see the
    module docstring).

    Raises
    ------
    NotAvailable
        For an attack whose hits change the fight within the volley (a force field, armour
        breakage or Soak strain between the hits of one volley), or with both the armour FEAT
        and a Soak after a lost dodge on.
    """
    ep = _Plan(plan)
    mem, opts = plan.mem, plan.opts
    form, power, called, manoeuvre, multi, rounds = _setup(plan, a, j)
    per_attack = bool(opts[k.O_RWB_PER_ATTACK])
    fbs, aps = _extra_rolls(plan)
    several = (form == k.A_AUTOFIRE and rounds > 1) or form == k.A_BURST
    if several:
        if mem[t, k.M_FIELD] > 0:
            raise NotAvailable("a force field that drops within a volley is not worked out "
                               "exactly; run the fight")  # fmt: skip
        if opts[k.O_BREAKAGE]:
            raise NotAvailable("armour that breaks within a volley is not worked out exactly; "
                               "run the fight")  # fmt: skip
        strain = opts[k.O_STRAIN] and (mem[t, k.M_DEF_MASK] >> k.D_SOAK) & 1
        if strain and plan.values[mem[t, k.M_RANK_E]] > 10:
            raise NotAvailable("Soak strain within a volley (Endurance above 10) is not worked "
                               "out exactly; run the fight")  # fmt: skip
    if len(fbs) > 1 and len(aps) > 1:
        raise NotAvailable("the armour FEAT together with a Soak after a lost dodge is not "
                           "worked out exactly; run the fight")  # fmt: skip
    if form == k.A_GRAPPLE:
        p = _contest_p(plan, a, t, k.FIGHTING, multi) * _contest_p(plan, a, t, k.STRENGTH, multi)
        out = ep.first(a, t, k.A_ATTACK, 0, -1, 0, multi, 0, 0, 0)
        colours = np.bincount(out[:, 1], minlength=6) / 10000
        return AttackDistribution(p, colours, np.ones(1), form="grapple")
    if form == k.A_BURST:
        if opts[k.O_REACTIVE] or len(fbs) > 1 or len(aps) > 1:
            raise NotAvailable("a burst against a reactive defence, the armour FEAT or a Soak "
                               "after a lost dodge is not worked out exactly; run the fight")
        pmf, p_hit, out = _burst(ep, a, t, power, manoeuvre, multi, per_attack,
                                 bool(opts[k.O_RATTLE]))  # fmt: skip
        colours = np.bincount(out[:, 1], minlength=6) / 10000
        return AttackDistribution(p_hit, colours, pmf, form="burst")
    area = 1 if mem[a, k.M_W_AREA] and form == k.A_ATTACK else 0
    stacks = range(1, (max(rounds // 2, 1) if opts[k.O_CONC_HALF] else rounds) + 1) \
        if form == k.A_CONCENTRATED else [0]
    pmf = np.zeros(1)
    p_hit = 0.0
    colours = np.zeros(6)
    w = 1.0 / (len(stacks) * len(fbs) * len(aps))
    for stack in stacks:
        for fb in fbs:
            for ap in aps:
                out = ep.first(a, t, form, power, called, manoeuvre, multi, stack, fb, ap, area)
                colours += w * np.bincount(out[:, 1], minlength=6) / 10000
                weights = np.full(10000, 1e-4)
                if area and opts[k.O_DIVE_NORMAL] and (out[:, 7] == -3).any():
                    out, weights = _redo_avoid(ep, a, t, form, multi, fb, ap, out)
                rattle = _rattle_flags(plan, a, t, out)
                pmf = _add(pmf, _volley_pmf(ep, a, t, form, out, rounds, per_attack, rattle,
                                            weights), w)  # fmt: skip
                p_hit += w * float(np.dot(out[:, 0], weights))
    hits = _hits_pmf(p_hit, rounds) if form == k.A_AUTOFIRE and rounds > 1 else None
    name = "area" if area else k.ACTION_NAMES[form]
    return AttackDistribution(p_hit, colours, pmf, hits, form=name)


def _redo_avoid(ep, a, t, form, multi, fb, ap, out):
    """A failed dive under ``dive_fail: normal_avoid`` (CA66) rolls the contested Agility avoid
    with a fresh d100: each failed row becomes the 100 rows of a plain avoid of its attack
    roll, at a hundredth of its weight. Returns (rows, weights)."""
    p = ep.p
    mem = p.mem.copy()
    mem[t, k.M_DIVE] = 0
    plain = _Plan(p._replace(mem=mem)).first(a, t, form, 0, -1, 0, multi, 0, fb, ap, 1)
    failed = out[:, 7] == -3
    rows = [out[~failed]]
    weights = [np.full(int((~failed).sum()), 1e-4)]
    for j in np.flatnonzero(failed):
        ra = j // 100
        rows.append(plain[100 * ra: 100 * ra + 100])
        weights.append(np.full(100, 1e-6))
    return np.concatenate(rows), np.concatenate(weights)


# --- the scenario form ---------------------------------------------------------------------------


def _names(scenario):
    return [c.name for c in scenario.combatants]


def scenario_attack(scenario, attacker: str, target: str) -> dict:
    """``fuzion-sim attack``: the exact distribution of ``attacker``'s default action on
    ``target`` (see :func:`attack_distribution`), as JSON-ready data."""
    plan = compile_plan(scenario)
    names = _names(scenario)
    a, t = names.index(attacker), names.index(target)
    dist = attack_distribution(plan, a, t)
    return dist.to_json_dict()


def turn_pmf(plan, a: int, t: int) -> np.ndarray:
    """The damage pmf of ``a``'s whole turn on ``t`` (its actions, one after another)."""
    pmf = np.ones(1)
    for j in range(int(plan.mem[a, k.M_N_ACTIONS])):
        pmf = np.convolve(pmf, attack_distribution(plan, a, t, j).damage)
    return pmf


def fight_check(scenario, plan=None):
    """Raise :class:`NotAvailable` (one line: why) unless the fight is one the chain solves:
    one against one, every action an attack whose pmf is worked out, nothing that changes
    either fighter beyond its Health (called shots, grapples, force fields, sniping,
    magazines, Soak strain, armour breakage, the armour damage table, counter-attacks, a Super
    Crit's called shot). Returns the plan."""
    n, n_sides = len(scenario.combatants), len(scenario.side_names)
    if n != 2 or n_sides != 2:  # before compiling: a big fight says so at once
        raise NotAvailable(f"the exact fight is one against one; this one has {n} combatants on "
                           f"{n_sides} sides: run it")  # fmt: skip
    plan = compile_plan(scenario) if plan is None else plan
    mem, opts = plan.mem, plan.opts
    for a in (0, 1):
        for j in range(int(mem[a, k.M_N_ACTIONS])):
            if plan.acts[a, j, k.AF_KIND] == k.A_GRAPPLE:
                raise NotAvailable("a grapple holds its victim (more state than Health): run "
                                   "the fight")  # fmt: skip
            if plan.acts[a, j, k.AF_CALLED] >= 0:
                raise NotAvailable("called shots break limbs and knock out (more state than "
                                   "Health): run the fight")  # fmt: skip
        if mem[a, k.M_FIELD] > 0:
            raise NotAvailable("a force field drops and rises again (more state than Health): "
                               "run the fight")  # fmt: skip
        if mem[a, k.M_AIM] > 0:
            raise NotAvailable("sniping keeps an aim (more state than Health): run the fight")
        if mem[a, k.M_W_SHOTS] >= 0:
            raise NotAvailable("a magazine runs out (more state than Health): run the fight")
        soaks = (mem[a, k.M_DEF_MASK] >> k.D_SOAK) & 1
        if opts[k.O_STRAIN] and soaks and plan.values[mem[a, k.M_RANK_E]] > 10:
            raise NotAvailable("Soak strain lowers Endurance (more state than Health): run the "
                               "fight")  # fmt: skip
        if plan.st0[a, k.S_HEALTH] > MAX_HEALTH:
            raise NotAvailable(f"Health over {MAX_HEALTH:,} is too much for the exact chain: "
                               "run the fight")  # fmt: skip
    for option, what in ((k.O_BREAKAGE, "armour breakage"),
                         (k.O_DAMAGE_TABLE, "the armour damage table"),
                         (k.O_COUNTER, "counter-attacks")):  # fmt: skip
        if opts[option]:
            raise NotAvailable(f"{what} changes the fight beyond Health: run it")
    if opts[k.O_SC_DAMAGE] != k.SC_DOUBLE:
        raise NotAvailable("a Super Crit's called shot changes the fight beyond Health: run it")
    return plan


def _first_passage(turn: np.ndarray, health: int, turns: int) -> np.ndarray:
    """``out[n]`` = P(the ``n``-th turn takes Health from ``health`` to 0), n = 1..turns."""
    out = np.zeros(turns + 1)
    alive = np.zeros(health + 1)  # alive[h]: P(h Health left and still standing)
    alive[health] = 1.0
    support = np.flatnonzero(turn > 0)
    for n in range(1, turns + 1):
        new = np.zeros_like(alive)
        dead = 0.0
        for d in support:
            p = turn[d]
            if d == 0:
                new += p * alive
                continue
            if d < health:
                new[1: health + 1 - d] += p * alive[1 + d: health + 1]
            dead += p * alive[1: min(d, health) + 1].sum()
        alive = new
        out[n] = dead
        if alive.sum() < 1e-16:
            break
    return out


def _initiative(mem, opts) -> tuple[float, float, float]:
    """P(0 first), P(1 first), P(both together) of a duel's initiative (``kernel.initiative``:
    1d(Agility value) each; ties re-rolled, by Agility first, or together; CA13-CA14)."""
    d0, d1 = max(int(mem[0, k.M_VAL_A]), 1), max(int(mem[1, k.M_VAL_A]), 1)
    i0 = np.arange(1, d0 + 1)[:, None]
    i1 = np.arange(1, d1 + 1)[None, :]
    gt = float((i0 > i1).mean())
    lt = float((i0 < i1).mean())
    eq = 1.0 - gt - lt
    rule = opts[k.O_TIES]
    if rule == k.TIE_SIMULTANEOUS:
        return gt, lt, eq
    if rule == k.TIE_AGILITY and d0 != d1:
        return (gt + eq, lt, 0.0) if d0 > d1 else (gt, lt + eq, 0.0)
    if d0 <= 1 and d1 <= 1:
        return 1.0, 0.0, 0.0
    first, second = gt, lt
    tie = eq
    for _ in range(MAX_REROLLS):
        first += tie * gt
        second += tie * lt
        tie *= eq
    return first + tie, second, 0.0


def scenario_fight(scenario) -> dict:
    """``fuzion-sim exact``: the exact outcome of a one-against-one fight (see the module
    docstring): win probabilities, the draws of simultaneous turns, the unresolved share
    within ``max_rounds`` and the kill-time pmf in rounds."""
    plan = fight_check(scenario)
    rounds = int(plan.max_rounds)
    health = [int(plan.st0[c, k.S_HEALTH]) for c in (0, 1)]
    turn = [turn_pmf(plan, 0, 1), turn_pmf(plan, 1, 0)]  # 0's turn on 1, 1's on 0
    # kill[c][n]: P(c's n-th turn drops the other)
    kill = [_first_passage(turn[0], health[1], rounds), _first_passage(turn[1], health[0], rounds)]
    surv = [1.0 - np.cumsum(kill[c]) for c in (0, 1)]  # surv[c][n]: the other stands after n
    first0, first1, together = _initiative(plan.mem, plan.opts)
    wins = np.zeros((2, rounds + 1))
    draws = np.zeros(rounds + 1)
    for r in range(1, rounds + 1):
        # 0 first: 0 drops 1 on its r-th turn with 0 standing after 1's r - 1 turns
        wins[0, r] += first0 * kill[0][r] * surv[1][r - 1]
        wins[1, r] += first0 * kill[1][r] * surv[0][r]
        wins[1, r] += first1 * kill[1][r] * surv[0][r - 1]
        wins[0, r] += first1 * kill[0][r] * surv[1][r]
        wins[0, r] += together * kill[0][r] * surv[1][r]
        wins[1, r] += together * kill[1][r] * surv[0][r]
        draws[r] += together * kill[0][r] * kill[1][r]
    decided = wins.sum(axis=0) + draws
    p_decided = float(decided.sum())
    times = np.arange(rounds + 1)
    mean = float((times * decided).sum() / p_decided) if p_decided else None
    sd = (float(np.sqrt(((times - mean) ** 2 * decided).sum() / p_decided))
          if p_decided else None)  # fmt: skip
    sides = scenario.side_names
    side_of = [sides[int(plan.mem[c, k.M_SIDE])] for c in (0, 1)]
    return {
        "method": "Markov chain over both fighters' Health (independent in this system: the "
                  "product of the two first-passage distributions, by initiative order)",
        "states": health,
        "sides": {side_of[c]: {"win_probability": float(wins[c].sum())} for c in (0, 1)},
        "draw_probability": float(draws.sum()),
        "unresolved_probability": max(0.0, 1.0 - p_decided),
        "kill_time": {"unit": "round", "mean": mean, "sd": sd,
                      "pmf": {str(t): float(decided[t] / p_decided)
                              for t in np.flatnonzero(decided)}},
    }  # fmt: skip


@cache
def nights_to_heal(health_lost: int, endurance_value: int) -> int:
    """Nights of sleep that restore ``health_lost`` Health at the Endurance value a night (004
    L54; CA101: between fights only)."""
    if health_lost <= 0:
        return 0
    if endurance_value <= 0:
        raise NotAvailable("an Endurance value of 0 heals nothing a night")
    return -(-int(health_lost) // int(endurance_value))
