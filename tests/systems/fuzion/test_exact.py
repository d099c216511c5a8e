"""Exact single attacks and the standing duel against enumeration, recursion and the oracle."""

from __future__ import annotations

import itertools
import json
import math
from collections import Counter
from fractions import Fraction
from functools import cache

import numpy as np
import pytest
from oracles import brute_rolls

from fuzion_sim.systems.fuzion import dice
from fuzion_sim.systems.fuzion.exact import Fighter, attack, duel

COMBOS = [(d, c) for d in ("hero", "interlock") for c in ("both", "attacker", "none")]


# --------------------------------------------------------------------------------------------
# Brute force over the physical dice
# --------------------------------------------------------------------------------------------


@cache
def brute_damage_dice(dc):
    return Counter(sum(t) for t in itertools.product(range(1, 7), repeat=dc))


def brute_attack(av, dv_base, dc, pd, sd, damage, dice_name, criticals):
    """Exact (p_hit, {damage: probability}) as Fractions, AT >= DV compared literally."""
    rolls = brute_rolls(dice_name, criticals)
    total = sum(rolls.values())
    hit = Fraction(sum(n for (att, dfn), n in rolls.items() if av + att >= dv_base + dfn), total)
    armour = pd if damage == "killing" else max(pd, sd)
    sums = brute_damage_dice(dc)
    s_total = sum(sums.values())
    pmf = Counter({0: 1 - hit})
    for s, n in sums.items():
        pmf[max(0, s - armour)] += hit * Fraction(n, s_total)
    return hit, pmf


# --------------------------------------------------------------------------------------------
# attack()
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("dice_name", "criticals"), COMBOS)
def test_attack_matches_enumeration(dice_name, criticals):
    grid = itertools.product(
        (3, 9, 11, 16),  # av
        (9, 14),  # dv_base
        (0, 1, 4),  # dc
        (0, 6),  # pd
        (0, 10),  # sd
        ("killing", "stun"),
    )
    for av, dv_base, dc, pd, sd, damage in grid:
        res = attack(av, dv_base, dc, pd, sd, damage, dice_name, criticals)
        hit, pmf = brute_attack(av, dv_base, dc, pd, sd, damage, dice_name, criticals)
        assert res.p_hit == pytest.approx(float(hit), abs=1e-15)
        keys = sorted(k for k, p in pmf.items() if p)
        assert res.damage.values.tolist() == keys
        np.testing.assert_allclose(
            res.damage.probs, [float(pmf[k]) for k in keys], rtol=1e-14, atol=0
        )
        assert math.fsum(res.damage.probs) == pytest.approx(1.0, abs=1e-14)
        mean = sum(k * p for k, p in pmf.items())
        assert res.mean == pytest.approx(float(mean), abs=1e-12)


@pytest.mark.parametrize(("dice_name", "criticals"), COMBOS)
def test_p_hit_monotone_in_av(dice_name, criticals):
    d = dice.attack_roll_difference(dice_name, criticals)
    ps = [attack(av, 10, 1, dice=dice_name, criticals=criticals).p_hit for av in range(-40, 41)]
    assert all(a <= b for a, b in itertools.pairwise(ps))
    assert ps[0] == 0.0 and ps[-1] == 1.0
    # Hit iff D >= dv_base - av.
    assert attack(12, 10, 1, dice=dice_name, criticals=criticals).p_hit == pytest.approx(
        d.sf(-2), abs=1e-15
    )


def test_attack_tie_hits():
    # HERO without criticals: AV 8 + roll >= 9 + 10 iff roll >= 11, P = 1/2.
    assert attack(8, 9, 1, criticals="none").p_hit == pytest.approx(0.5, abs=1e-15)


def test_stun_uses_higher_of_pd_and_sd():
    a = attack(11, 9, 4, pd=6, sd=10, damage="stun")
    b = attack(11, 9, 4, pd=10, sd=0, damage="killing")
    assert a.damage.to_dict() == b.damage.to_dict()
    c = attack(11, 9, 4, pd=6, sd=10, damage="killing")
    assert c.damage.max == 24 - 6


def test_attack_to_json_dict():
    res = attack(11, 9, 4, pd=6)
    out = res.to_json_dict()
    assert set(out) == {"p_hit", "damage"}
    assert type(out["p_hit"]) is float
    assert set(out["damage"]) == {"mean", "pmf"}
    assert type(out["damage"]["mean"]) is float
    keys = list(out["damage"]["pmf"])
    assert keys == [str(k) for k in sorted(int(k) for k in keys)]
    assert keys[0] == "0"
    assert all(type(p) is float for p in out["damage"]["pmf"].values())
    assert math.fsum(out["damage"]["pmf"].values()) == pytest.approx(1.0, abs=1e-14)
    json.dumps(out)
    # A DC 0 attack does nothing, a hit or not.
    assert attack(11, 9, 0).to_json_dict()["damage"]["pmf"] == {"0": 1.0}


def test_attack_rejects_bad_input():
    with pytest.raises(ValueError):
        attack(11, 9, 4, damage="lethal")
    with pytest.raises(ValueError):
        attack(11, 9, -1)
    with pytest.raises(ValueError):
        attack(11, 9, 4, dice="d20")


# --------------------------------------------------------------------------------------------
# duel()
# --------------------------------------------------------------------------------------------

BENCH = Fighter(av=11, dv_base=9, dc=4, pd=6, hits=30, stun=30)


def test_benchmark_duel_hero():
    res = duel(BENCH, BENCH, dice="hero", criticals="both")
    assert abs(res.p_a_wins - 0.604623) < 5e-7
    assert abs(res.mean - 4.318834) < 5e-7
    assert abs(res.sd - 0.991137) < 5e-7
    assert res.p_a_wins + res.p_b_wins + res.p_unresolved == pytest.approx(1.0, abs=1e-12)
    assert res.p_unresolved < 1e-15
    assert math.fsum(res.kill_time.probs) == pytest.approx(1.0, abs=1e-12)
    assert res.kill_time.min == 2  # 4d6 - 6 is at most 18 < 30 a hit


def test_benchmark_duel_interlock():
    res = duel(BENCH, BENCH, dice="interlock", criticals="attacker")
    assert abs(res.p_a_wins - 0.573434) < 5e-7
    assert abs(res.mean - 5.031652) < 5e-7


def test_out_threshold():
    assert BENCH.out_at == 30
    assert Fighter(11, 9, 4, 6, hits=30, stun=20).out_at == 20
    assert Fighter(11, 9, 4, 6, hits=25, stun=40).out_at == 25
    assert Fighter(11, 9, 4, 6, hits=25).out_at == 25


def test_first_strike_wins_at_once():
    # A cannot miss and one hit is always enough: B never gets to attack.
    a = Fighter(av=100, dv_base=0, dc=10, pd=0, hits=1)
    res = duel(a, a)
    assert res.p_a_wins == pytest.approx(1.0, abs=1e-15) and res.p_b_wins == 0.0
    assert res.kill_time.to_dict() == {"1": 1.0}


def test_unresolvable_duel():
    # Nobody can ever hurt anybody: all mass stays unresolved.
    a = Fighter(av=0, dv_base=0, dc=1, pd=10, hits=5)
    res = duel(a, a, max_phases=10)
    assert res.p_unresolved == 1.0
    assert len(res.kill_time) == 0 and math.isnan(res.mean)


def test_duel_to_json_dict():
    out = duel(BENCH, BENCH).to_json_dict()
    json.dumps(out)
    assert out["kill_time"]["mean"] == pytest.approx(4.318834, abs=5e-7)


def recursive_duel(a, b, dice_name, criticals, phases):
    """Independent check: attack by attack over a dict of states, with Fractions."""

    def dmg(att, dfn):
        _, pmf = brute_attack(
            att.av, dfn.dv_base, att.dc, dfn.pd, 0, "killing", dice_name, criticals
        )
        return pmf

    a_to_b, b_to_a = dmg(a, b), dmg(b, a)
    states = {(0, 0): Fraction(1)}
    a_wins, b_wins = [], []
    for _ in range(phases):
        won = Fraction(0)
        nxt = Counter()
        for (ta, tb), p in states.items():
            for k, q in a_to_b.items():
                if tb + k >= b.out_at:
                    won += p * q
                else:
                    nxt[(ta, tb + k)] += p * q
        a_wins.append(won)
        won = Fraction(0)
        states, nxt = nxt, Counter()
        for (ta, tb), p in states.items():
            for k, q in b_to_a.items():
                if ta + k >= a.out_at:
                    won += p * q
                else:
                    nxt[(ta + k, tb)] += p * q
        b_wins.append(won)
        states = nxt
    return a_wins, b_wins, sum(states.values())


@pytest.mark.parametrize(("dice_name", "criticals"), [("hero", "both"), ("interlock", "both")])
def test_duel_matches_recursion(dice_name, criticals):
    a = Fighter(av=10, dv_base=7, dc=2, pd=3, hits=9, stun=7)
    b = Fighter(av=12, dv_base=9, dc=1, pd=1, hits=6)
    phases = 8
    a_wins, b_wins, left = recursive_duel(a, b, dice_name, criticals, phases)
    res = duel(a, b, dice_name, criticals, max_phases=phases)
    assert res.p_a_wins == pytest.approx(float(sum(a_wins)), abs=1e-14)
    assert res.p_b_wins == pytest.approx(float(sum(b_wins)), abs=1e-14)
    assert res.p_unresolved == pytest.approx(float(left), abs=1e-14)
    decided = [x + y for x, y in zip(a_wins, b_wins, strict=True)]
    expected = {str(t + 1): float(p / sum(decided)) for t, p in enumerate(decided) if p}
    got = res.kill_time.to_dict()
    assert list(got) == list(expected)
    for key, p in expected.items():
        assert got[key] == pytest.approx(p, abs=1e-14)


def test_benchmark_duel_monte_carlo():
    """Roll the actual dice for 40 000 duels; the exact answer must be within 4.5 sigma."""
    rng = np.random.Generator(np.random.PCG64(424242))
    n = 40_000
    taken = np.zeros((2, n), dtype=np.int64)  # damage taken by A, by B
    winner = np.full(n, -1)
    phase_out = np.zeros(n, dtype=np.int64)
    for phase in range(1, 60):
        for attacker in (0, 1):
            live = np.flatnonzero(winner < 0)
            if live.size == 0:
                break
            d = dice.sample_roll_difference(rng, "hero", "both", live.size)
            hits = d >= BENCH.dv_base - BENCH.av
            dmg = np.maximum(0, dice.sample_nd6(rng, BENCH.dc, live.size) - BENCH.pd) * hits
            target = 1 - attacker
            taken[target, live] += dmg
            out = live[taken[target, live] >= BENCH.out_at]
            winner[out] = attacker
            phase_out[out] = phase
    assert (winner >= 0).all()
    p = np.mean(winner == 0)
    assert abs(p - 0.604623) < 4.5 * math.sqrt(0.604623 * 0.395377 / n)
    assert abs(phase_out.mean() - 4.318834) < 4.5 * 0.991137 / math.sqrt(n)
