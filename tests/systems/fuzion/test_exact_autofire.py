"""Exact autofire and bursts (RULINGS F15-F16) against enumeration and the seed.

The hit-count pmfs are checked against brute-force enumeration of the physical dice with
Fractions; the total damage against convolution of enumerated single hits; the Jake Gronski
example and the 10-shot penalty reproduce; and a Monte Carlo of the actual dice accepts the
right autofire ratio and rejects a wrong one (the negative control).
"""

from __future__ import annotations

import itertools
import json
import math
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest
from click.testing import CliRunner
from oracles import brute_rolls
from scipy import stats

from fuzion_sim.cli import cli
from fuzion_sim.systems.fuzion import dice
from fuzion_sim.systems.fuzion.exact import (
    AUTOFIRE_RULES,
    attack,
    autofire,
    autofire_damage,
    autofire_hit_count,
    autofire_hits,
    autofire_penalty,
    burst,
    burst_damage,
    burst_hits,
)

D6 = range(1, 7)


# --------------------------------------------------------------------------------------------
# Brute force over the physical dice
# --------------------------------------------------------------------------------------------


def brute_autofire_hits(av, dv_base, shots, ratio, dice_name, criticals, rule) -> Counter:
    """{hits: probability}: AT = AV - shots // 10 + roll, DV = dv_base + 10 or + d10; the hit
    count written out literally from the two readings of F15."""
    rolls = brute_rolls(dice_name, criticals)
    total = sum(rolls.values())
    pmf = Counter()
    for (att, dfn), n in rolls.items():
        at = av - shots // 10 + att
        dv = dv_base + dfn
        if at < dv:
            k = 0
        elif rule == "ceil_margin":
            k = min(shots, max(1, math.ceil(Fraction(at - dv, ratio))))
        else:
            k = min(shots, 1 + math.floor(Fraction(at - dv, ratio)))
        pmf[k] += Fraction(n, total)
    return pmf


def brute_burst_hits(av, dv_base, dice_name, criticals) -> Counter:
    rolls = brute_rolls(dice_name, criticals)
    total = sum(rolls.values())
    pmf = Counter()
    for (att, dfn), n in rolls.items():
        for die in D6:
            k = math.ceil(Fraction(die, 2)) if av + att >= dv_base + dfn else 0
            pmf[k] += Fraction(n, total * 6)
    return pmf


def brute_total_damage(hit_pmf: Counter, dc: int, armour: int) -> Counter:
    """Total damage: for k hits roll k x dc d6, each hit meeting the armour separately."""
    out = Counter()
    for k, pk in hit_pmf.items():
        if k == 0:
            out[0] += pk
            continue
        w = pk / 6 ** (k * dc)
        for t in itertools.product(D6, repeat=k * dc):
            out[sum(max(0, sum(t[i * dc : (i + 1) * dc]) - armour) for i in range(k))] += w
    return out


def assert_pmf_equal(pmf, expected: Counter, tol=1e-14):
    keys = sorted(k for k, p in expected.items() if p)
    assert pmf.values.tolist() == keys
    np.testing.assert_allclose(pmf.probs, [float(expected[k]) for k in keys], rtol=tol, atol=0)
    assert math.fsum(pmf.probs) == pytest.approx(1.0, abs=1e-14)


# --------------------------------------------------------------------------------------------
# The rule and the worked examples
# --------------------------------------------------------------------------------------------


def test_ten_shot_penalty():
    assert [autofire_penalty(n) for n in (1, 9, 10, 19, 20, 30, 100)] == [0, 0, 1, 1, 2, 3, 10]
    with pytest.raises(ValueError):
        autofire_penalty(0)
    # The command's --av is before the penalty: 10 shots attack as AV - 1, 9 shots as AV.
    for shots, pen in ((9, 0), (10, 1), (20, 2)):
        p = 1 - autofire_hits(12, 9, shots, 2).prob(0)
        assert p == pytest.approx(attack(12 - pen, 9, 1).p_hit, abs=1e-15)


def test_jake_gronski_c_fz_18():
    """Jake: REF 7 + Autofire 5 + WA 1 - 1 (10 shots) = AV 12; a 12 on 3d6 gives 24 against
    DV 8 + 10 = 18; margin 6, ratio 3 (Legendary): 2 hits (the example's reading). The rule
    text's "one additional round per 3 points" would give 3 (one_plus_floor)."""
    assert autofire_penalty(10) == 1
    av_before_penalty = 7 + 5 + 1
    margin = (av_before_penalty - autofire_penalty(10) + 12) - (8 + 10)
    assert margin == 6
    assert autofire_hit_count(margin, 10, 3) == 2
    assert autofire_hit_count(margin, 10, 3, "one_plus_floor") == 3
    # The exact pmf (criticals off): AT 12 + roll >= 18 needs 6+; margin = roll - 6, so rolls
    # 6-9 give 1 hit, 10-12 (Jake's 12 among them) 2, 13-15 3 and 16-18 4.
    pmf = autofire_hits(av_before_penalty, 8, 10, 3, criticals="none")
    n3d6 = dice.nd6(3)
    for k, rolls in enumerate((range(3, 6), range(6, 10), range(10, 13), range(13, 16),
                               range(16, 19))):  # fmt: skip
        assert pmf.prob(k) == pytest.approx(sum(n3d6.prob(r) for r in rolls), abs=1e-15)
    assert pmf.max == 4


def test_gloss_discriminating_cases_c_fz_17():
    # Ratio 2: (margin, ceil_margin, one_plus_floor).
    for margin, ceil_reading, floor_reading in ((4, 2, 3), (5, 3, 3), (0, 1, 1), (1, 1, 1)):
        assert autofire_hit_count(margin, 20, 2) == ceil_reading
        assert autofire_hit_count(margin, 20, 2, "one_plus_floor") == floor_reading
    # Never more hits than shots.
    assert autofire_hit_count(100, 5, 1) == 5
    assert autofire_hit_count(100, 5, 1, "one_plus_floor") == 5
    for bad in ((-1, 5, 1, "ceil_margin"), (3, 0, 1, "ceil_margin"), (3, 5, 0, "ceil_margin"),
                (3, 5, 1, "one_plus_ceil")):  # fmt: skip
        with pytest.raises(ValueError):
            autofire_hit_count(*bad)


# --------------------------------------------------------------------------------------------
# Enumeration
# --------------------------------------------------------------------------------------------

COMBOS = [("hero", "both"), ("hero", "none"), ("interlock", "both"), ("interlock", "attacker")]


@pytest.mark.parametrize(("dice_name", "criticals"), COMBOS)
@pytest.mark.parametrize("rule", AUTOFIRE_RULES)
def test_autofire_hits_match_enumeration(dice_name, criticals, rule):
    grid = itertools.product(((11, 9), (16, 8), (6, 12)), (1, 3, 10, 25), (1, 2, 3, 4))
    for (av, dv_base), shots, ratio in grid:
        pmf = autofire_hits(av, dv_base, shots, ratio, dice_name, criticals, rule)
        expected = brute_autofire_hits(av, dv_base, shots, ratio, dice_name, criticals, rule)
        assert_pmf_equal(pmf, expected)


@pytest.mark.parametrize(("dice_name", "criticals"), [("hero", "both"), ("interlock", "both")])
def test_burst_hits_match_enumeration(dice_name, criticals):
    for av, dv_base in ((11, 9), (4, 12), (30, 0)):
        pmf = burst_hits(av, dv_base, dice_name, criticals)
        assert_pmf_equal(pmf, brute_burst_hits(av, dv_base, dice_name, criticals))
        p = attack(av, dv_base, 1, dice=dice_name, criticals=criticals).p_hit
        for k in (1, 2, 3):
            assert pmf.prob(k) == pytest.approx(p / 3, abs=1e-15)


@pytest.mark.parametrize(("dc", "armour"), [(1, 0), (1, 3), (2, 4)])
def test_autofire_damage_matches_enumeration(dc, armour):
    # Shots 3 with ratio 1 reaches 3 hits; 3 hits x 2 dice = 6 dice enumerated.
    for rule in AUTOFIRE_RULES:
        hits = brute_autofire_hits(13, 9, 3, 1, "hero", "both", rule)
        pmf = autofire_damage(13, 9, dc, 3, 1, pd=armour, rule=rule)
        assert_pmf_equal(pmf, brute_total_damage(hits, dc, armour), tol=1e-13)
    hits = brute_burst_hits(11, 9, "interlock", "both")
    pmf = burst_damage(11, 9, dc, pd=armour, dice="interlock")
    assert_pmf_equal(pmf, brute_total_damage(hits, dc, armour), tol=1e-13)


def test_autofire_stun_and_locations_compose():
    """Total over hits = hit-count mixture of convolutions of the single-hit pmf of attack()."""
    res = autofire(14, 9, 2, 4, 2, pd=3, sd=5, damage="stun", hit_locations=True,
                   armor_covers={"chest"})  # fmt: skip
    one = attack(100, 0, 2, pd=3, sd=5, damage="stun", criticals="none", hit_locations=True,
                 armor_covers={"chest"}).damage  # a sure hit  # fmt: skip
    single = dict(zip(one.values.tolist(), one.probs.tolist(), strict=True))
    expected = Counter()
    conv = {0: 1.0}
    for k in range(res.hits.max + 1):
        for v, p in conv.items():
            expected[v] += res.hits.prob(k) * p
        nxt = Counter()
        for v, p in conv.items():
            for w, q in single.items():
                nxt[v + w] += p * q
        conv = nxt
    keys = sorted(expected)
    assert res.damage.values.tolist() == keys
    np.testing.assert_allclose(res.damage.probs, [expected[k] for k in keys], rtol=1e-12)
    # Wald: E[total] = E[hits] x E[one hit].
    assert res.mean == pytest.approx(res.hits.mean * one.mean, rel=1e-13)
    assert set(res.locations) == set(attack(1, 1, 1, hit_locations=True).locations)


def test_one_shot_autofire_is_one_attack():
    for rule in AUTOFIRE_RULES:
        a = autofire(11, 9, 4, 1, 3, pd=6, rule=rule)
        b = attack(11, 9, 4, pd=6)
        assert a.damage.to_dict() == b.damage.to_dict()
        assert a.p_hit == b.p_hit and a.penalty == 0


def test_burst_result():
    res = burst(11, 9, 4, pd=6)
    assert res.shots == 3 and res.penalty == 0
    assert res.hits.max == 3
    assert res.mean == pytest.approx(2 * attack(11, 9, 4, pd=6).mean, rel=1e-14)
    out = res.to_json_dict()
    assert set(out) == {"p_hit", "hits", "damage"}
    json.dumps(out)


# --------------------------------------------------------------------------------------------
# Actual dice: the right ratio is accepted, a wrong ratio is rejected (negative control)
# --------------------------------------------------------------------------------------------


def _roll_hits(rng, av, dv_base, shots, ratio, n):
    """Roll the actual dice (dice.sample_roll_difference) for n autofire attacks."""
    d = dice.sample_roll_difference(rng, "hero", "both", n)
    margin = d - (dv_base - (av - shots // 10))
    hits = np.minimum(shots, np.maximum(1, -(-margin // ratio)))
    return np.where(margin >= 0, hits, 0)


def _chi2_p(observed_hits, pmf):
    counts = np.bincount(observed_hits, minlength=pmf.max + 1)
    expected = np.array([pmf.prob(k) for k in range(len(counts))]) * counts.sum()
    keep = expected >= 5  # pool the sparse tail
    obs = np.append(counts[keep], counts[~keep].sum())
    exp = np.append(expected[keep], expected[~keep].sum())
    if exp[-1] == 0:
        obs, exp = obs[:-1], exp[:-1]
    return stats.chisquare(obs, exp * obs.sum() / exp.sum()).pvalue


def test_simulated_hits_agree_and_wrong_ratio_fails():
    rng = np.random.Generator(np.random.PCG64(20240905))
    av, dv_base, shots = 15, 8, 20
    sample = _roll_hits(rng, av, dv_base, shots, ratio=3, n=20_000)
    right = autofire_hits(av, dv_base, shots, 3)
    wrong = autofire_hits(av, dv_base, shots, 2)
    assert _chi2_p(sample, right) > 1e-3
    assert _chi2_p(sample, wrong) < 1e-12
    # Exactly, the two pmfs are far apart (total variation distance).
    tv = 0.5 * sum(abs(right.prob(k) - wrong.prob(k)) for k in range(shots + 1))
    assert tv > 0.2


# --------------------------------------------------------------------------------------------
# The command line
# --------------------------------------------------------------------------------------------


def invoke(*args):
    return CliRunner().invoke(cli, ["attack", *args], catch_exceptions=False)


def test_cli_autofire_json():
    args = ["--av", "13", "--dv-base", "8", "--dc", "4", "--pd", "6"]
    res = invoke(*args, "--autofire", "10", "--ratio", "3", "--json")
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert set(out) == {"p_hit", "hits", "damage"}
    exact = autofire(13, 8, 4, 10, 3, pd=6)
    assert out["hits"]["pmf"] == exact.hits.to_dict()
    assert out["damage"]["pmf"] == exact.damage.to_dict()
    assert list(out["hits"]["pmf"])[:3] == ["0", "1", "2"]
    assert out["p_hit"] == pytest.approx(attack(12, 8, 4).p_hit, abs=1e-15)  # AV 13 - 1
    assert math.fsum(out["hits"]["pmf"].values()) == pytest.approx(1.0, abs=1e-14)
    # --campaign legendary is ratio 3; the other reading gives more hits.
    same = json.loads(invoke(*args, "--autofire", "10", "--campaign", "legendary", "--json").stdout)
    assert same == out
    other = json.loads(invoke(*args, "--autofire", "10", "--ratio", "3", "--autofire-hits",
                              "one_plus_floor", "--json").stdout)  # fmt: skip
    assert other["hits"]["mean"] > out["hits"]["mean"]
    burst_out = json.loads(invoke(*args, "--burst", "--json").stdout)
    assert burst_out["hits"]["pmf"] == burst(13, 8, 4, pd=6).hits.to_dict()
    text = invoke(*args, "--autofire", "10", "--ratio", "3", "--hit-locations")
    assert text.exit_code == 0
    assert "Bullets that hit" in text.stdout and "penalty -1" in text.stdout


@pytest.mark.parametrize(
    "extra",
    [
        ["--burst", "--autofire", "10", "--ratio", "2"],
        ["--ratio", "2"],
        ["--campaign", "heroic"],
        ["--autofire-hits", "one_plus_floor"],
        ["--autofire", "10"],
        ["--autofire", "10", "--ratio", "2", "--campaign", "heroic"],
        ["--autofire", "10", "--ratio", "2", "--knockback-body", "5"],
    ],
)
def test_cli_bad_autofire_options(extra):
    res = invoke("--av", "11", "--dv-base", "9", "--dc", "4", *extra)
    assert res.exit_code == 2
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("fuzion-sim: error: ")
