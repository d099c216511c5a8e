"""Run until decided: the confidence sequence's error rate, early stops, and the command."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from click.testing import CliRunner

from fuzion_sim.analysis.sequential import (
    EBConfidenceSequence,
    compare_until_decided,
    decide,
    run_stream,
)
from fuzion_sim.cli import cli
from fuzion_sim.cli_studies import parse_margin

ALPHA = 0.05
FLAGSHIP = "scenarios/marshal-vs-outlaw.yaml"


def _paired_stream(rng, n, p_up, p_down):
    """Paired differences of two Bernoulli variants: +1 w.p. p_up, -1 w.p. p_down, else 0."""
    u = rng.random(n)
    return np.where(u < p_up, 1.0, np.where(u < p_up + p_down, -1.0, 0.0))


def _false_decisions(procedure, seeds=600, looks=20, size=500, discordant=0.3):
    """How often identical variants (equal marginals) are declared different."""
    bad = 0
    for s in range(seeds):
        d = _paired_stream(np.random.default_rng(s), looks * size, discordant / 2, discordant / 2)
        bad += procedure(np.split(d, looks)) == "differs"
    return bad / seeds


def _naive(batches):
    """The control: a fixed-sample 95% normal interval checked at every look (not valid)."""
    seen = np.empty(0)
    for d in batches:
        seen = np.concatenate([seen, d])
        half = 1.96 * seen.std(ddof=1) / math.sqrt(seen.size)
        if decide(seen.mean() - half, seen.mean() + half, None):
            return "differs"
    return "undecided"


def test_false_decision_rate_stays_under_alpha_on_identical_variants():
    rate = _false_decisions(lambda b: run_stream(b, ALPHA)[0])
    limit = ALPHA + 4 * math.sqrt(ALPHA * (1 - ALPHA) / 600)
    assert rate <= limit
    # the control: peeking at a fixed-sample interval after every look errs far more often
    assert _false_decisions(_naive) > limit


def test_sequence_covers_a_nonzero_difference_at_every_look():
    misses = 0
    for s in range(300):
        rng = np.random.default_rng(1000 + s)
        cs = EBConfidenceSequence(ALPHA)
        for _ in range(10):
            lo, hi = cs.update((_paired_stream(rng, 400, 0.25, 0.15) + 1) / 2)
            if not 2 * lo - 1 <= 0.10 <= 2 * hi - 1:
                misses += 1
                break
    assert misses / 300 <= ALPHA + 4 * math.sqrt(ALPHA * (1 - ALPHA) / 300)


def test_a_large_difference_stops_at_the_first_look_and_a_null_one_does_not():
    rng = np.random.default_rng(5)
    decision, history = run_stream([_paired_stream(rng, 2000, 0.3, 0.1) for _ in range(20)])
    assert decision == "differs" and len(history) == 1
    decision, history = run_stream([_paired_stream(rng, 2000, 0.1, 0.1) for _ in range(5)])
    assert decision == "undecided" and len(history) == 5


def test_equivalence_within_the_margin():
    rng = np.random.default_rng(9)
    batches = [_paired_stream(rng, 5000, 0.02, 0.02) for _ in range(20)]
    decision, history = run_stream(batches, margin=0.01)
    assert decision == "equivalent"
    assert -0.01 < history[-1]["low"] and history[-1]["high"] < 0.01
    assert run_stream(batches[:2], margin=None)[0] == "undecided"


def test_flagship_dice_difference_is_decided_at_the_first_chunk():
    seq = compare_until_decided(
        FLAGSHIP, {"rules.dice": ["hero", "interlock"]}, chunk=2000, max_trials=20_000, threads=1
    )
    assert seq.decision == "differs" and seq.trials == 2000
    assert seq.low > 0 or seq.high < 0
    assert "points compared with HERO" in seq.verdict()
    assert seq.verdict() in seq._repr_html_()
    assert json.loads(json.dumps(seq.to_json_dict()))["trials"] == 2000


@pytest.mark.parametrize(
    ("path", "key", "values"),
    [
        (FLAGSHIP, "rules.dice", ["hero", "hero"]),
        ("scenarios/fudge/two-fair-shooters.yaml", "rules.wounds", ["firearms", "firearms"]),
        ("scenarios/colour/ken-against-bob.yaml", "rules.soak", ["graded", "graded"]),
    ],
)
def test_identical_variants_are_equivalent_in_every_system(path, key, values):
    seq = compare_until_decided(
        path, {key: values}, margin=0.01, chunk=1000, max_trials=50_000, threads=1
    )
    assert seq.decision == "equivalent"
    assert seq.estimate == 0.0


def test_independent_identical_variants_are_not_declared_different():
    seq = compare_until_decided(
        "scenarios/fudge/two-fair-shooters.yaml",
        {"rules.wounds": ["firearms", "firearms"]},
        chunk=2000,
        max_trials=6000,
        common_random_numbers=False,
        threads=1,
    )
    assert seq.decision == "undecided" and seq.trials == 6000
    assert seq.low < 0 < seq.high


def test_cli_until_decided_and_its_errors():
    runner = CliRunner()
    ok = runner.invoke(
        cli,
        [
            "compare",
            "scenarios/colour/ken-against-bob.yaml",
            "--vary",
            "rules.soak=graded,graded",
            "--until-decided",
            "--margin",
            "1pt",
            "--chunk",
            "1000",
            "--trials",
            "5000",
            "--json",
        ],
    )
    assert ok.exit_code == 0, ok.output
    assert json.loads(ok.output.splitlines()[-1])["decision"] == "equivalent"
    three = runner.invoke(
        cli, ["compare", FLAGSHIP, "--vary", "rules.dice=hero,interlock,hero", "--until-decided"]
    )
    assert three.exit_code == 2 and "exactly two variants" in three.output
    lone = runner.invoke(
        cli, ["compare", FLAGSHIP, "--vary", "rules.dice=hero,interlock", "--margin", "1pt"]
    )
    assert lone.exit_code == 2 and "--margin needs --until-decided" in lone.output
    side = runner.invoke(
        cli,
        [
            "compare",
            FLAGSHIP,
            "--vary",
            "rules.dice=hero,interlock",
            "--until-decided",
            "--side",
            "green",
        ],
    )
    assert side.exit_code == 2 and "green" in side.output


def test_parse_margin():
    assert parse_margin("1pt") == pytest.approx(0.01)
    assert parse_margin("0.5") == pytest.approx(0.005)
    assert parse_margin("2%") == pytest.approx(0.02)
    with pytest.raises(Exception, match="percentage points"):
        parse_margin("one")
