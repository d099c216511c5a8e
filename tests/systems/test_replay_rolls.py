"""Every shipped scenario's replay prints possible rolls and consistent attack lines.

A property over the play-by-play of every scenario under ``scenarios/`` (all three systems),
a few trials each: every die roll a line prints lies in its dice's range, and every printed
attack total and defence agree with the printed outcome (Fuzion: AT >= DV is a hit; FUDGE: a
hit is at or above the DL and above the dodge). The lines are what a user reads, so the test
parses them with one regular expression per kind of line.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import SCENARIOS

from fuzion_sim.api import replay
from fuzion_sim.scenario import load_scenario
from fuzion_sim.systems.fudge.dice import ladder_name
from fuzion_sim.systems.fuzion import dice as fuzion_dice

FILES = sorted(SCENARIOS.glob("**/*.yaml"))
TRIALS = (0, 1, 2)

# --- Fuzion -----------------------------------------------------------------------------------
_INT = r"(-?\d+)"
#: "(AV 9; 3d6 roll 12 -> AT 21 vs DV 18): hit" (HERO: an attack, a launch's attack roll)
HERO_ATTACK = re.compile(
    rf"\(AV {_INT}; 3d6 roll {_INT} -> AT {_INT} vs DV {_INT}\): (miss|hit|locked on)"
)
#: "(AV 9; d10 against d10: difference +3 vs needs +1): hit" (Interlock)
INTERLOCK_ATTACK = re.compile(
    r"d10 against d10: difference ([+-]\d+)(?: vs needs ([+-]\d+))?\): (miss|hit|locked on)"
)
#: "throws at Bob's position (AV 9; roll 11 -> AT 20 vs DV 12): ..." (an explosive, F17)
THROW = re.compile(rf"throws at .*? position \(AV {_INT}; roll {_INT} -> AT {_INT} vs DV {_INT}\)")
#: "(AV 9; nobody drives it: roll 11 -> AT 20 vs DV 12): hit" (VA-04)
UNMANNED = re.compile(
    rf"\(AV {_INT}; nobody drives it: roll {_INT} -> AT {_INT} vs DV {_INT}\): (miss|hit)"
)
#: "evades ...'s missiles (round 1 of 2; roll 11, total 20 vs DV 18)" (F18)
EVADE = re.compile(
    rf"(evades|fails to evade) .*\(round .*; roll {_INT}, total {_INT} vs DV {_INT}\)"
)


def _fuzion(sc, lines: list[str]) -> int:
    """Check Fuzion's lines; returns how many it checked."""
    task = fuzion_dice.task_table(sc.rules.dice, sc.rules.criticals)
    diff = fuzion_dice.roll_table(sc.rules.dice, sc.rules.criticals)
    lo, hi = int(task.min()), int(task.max())
    checked = 0
    for line in lines:
        if m := HERO_ATTACK.search(line):
            av, roll, at, dv = (int(g) for g in m.groups()[:4])
            assert lo <= roll <= hi, f"3d6 roll {roll} outside {lo}..{hi}: {line}"
            assert at == av + roll, line
            assert (at >= dv) == (m[5] != "miss"), f"AT {at} vs DV {dv} gives {m[5]}: {line}"
        elif m := INTERLOCK_ATTACK.search(line):
            d = int(m[1])
            assert diff.min() <= d <= diff.max(), f"difference {d} impossible: {line}"
            if m[2] is not None:
                assert (d >= int(m[2])) == (m[3] != "miss"), line
        elif m := THROW.search(line):
            av, roll, at, _ = (int(g) for g in m.groups())
            assert lo <= roll <= hi, f"roll {roll} outside {lo}..{hi}: {line}"
            assert at == av + roll, line
        elif m := UNMANNED.search(line):
            av, roll, at, dv = (int(g) for g in m.groups()[:4])
            assert lo <= roll <= hi, f"roll {roll} outside {lo}..{hi}: {line}"
            assert at == av + roll, line
            assert (at >= dv) == (m[5] == "hit"), line
        elif m := EVADE.search(line):
            roll, total, dv = int(m[2]), int(m[3]), int(m[4])
            assert lo <= roll <= hi, f"roll {roll} outside {lo}..{hi}: {line}"
            assert (total >= dv) == (m[1] == "evades"), line
        else:
            assert "roll" not in line or not re.search(r"(AT|DV) -?\d", line), (
                f"a line with a roll no pattern reads: {line}")  # fmt: skip
            continue
        checked += 1
    return checked


# --- the colour result system (seeds 004 and 002): every roll is a d100 -----------------------
COLOUR_ROLLS = re.compile(
    r"(?::|rolls Endurance:|soaking \d+:|damage table:) (\d+)(?: (white|green|yellow|orange"
    r"|red|blue|black|-))?"
)
COLOUR_DEFENCE = re.compile(r"\((?:dodge|block|parry|feat|[a-z_]+) (\d+)\)")


def _colour(sc, lines: list[str]) -> int:
    checked = 0
    for line in lines:
        if "initiative" in line:
            continue
        for m in COLOUR_ROLLS.finditer(line):
            if m[2] is None and "table" not in line:
                continue  # a number that is not a roll (a count, a Health)
            assert 1 <= int(m[1]) <= 100, f"d100 roll {m[1]}: {line}"
            checked += 1
        for m in COLOUR_DEFENCE.finditer(line):
            assert 1 <= int(m[1]) <= 100, f"d100 defence roll {m[1]}: {line}"
            checked += 1
    return checked


# --- FUDGE Firearms (seed 003): 4dF rolls, the ladder --------------------------------------------
_LADDER = {ladder_name(v): v for v in range(-30, 40)}
_NAME = r"((?:Legendary|Terrible)[+-]\d+|[A-Z][a-z]+)"
FUDGE_SHOT = re.compile(
    rf"\(needs {_NAME}\): rolls ([+-]\d+), {_NAME}(?:, .*? dodges {_NAME})?: (hits|misses)"
)
FUDGE_ROLLS = re.compile(r"(?:Explosives roll|\(roll|Damage Roll) ([+-]\d+)")


def _fudge(sc, lines: list[str]) -> int:
    checked = 0
    aimed = sc.rules.values.get("locations") == "aimed"  # an aimed shot may miss its part
    for line in lines:
        for m in FUDGE_ROLLS.finditer(line):
            assert -4 <= int(m[1]) <= 4, f"4dF roll {m[1]}: {line}"
            checked += 1
        if m := FUDGE_SHOT.search(line):
            need, roll, result = _LADDER[m[1]], int(m[2]), _LADDER[m[3]]
            dodge = _LADDER[m[4]] if m[4] else None
            assert -4 <= roll <= 4, f"4dF roll {roll}: {line}"
            made = result >= need and (dodge is None or result > dodge) and result >= -1
            if m[5] == "hits":
                assert made, f"{result} against {need} (dodge {dodge}) hits: {line}"
            elif not aimed:
                assert not made, f"{result} against {need} (dodge {dodge}) misses: {line}"
            checked += 1
    return checked


CHECKS = {"fuzion": _fuzion, "colour": _colour, "fudge": _fudge}


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(SCENARIOS)))
def test_replayed_rolls_are_possible_and_agree(path: Path):
    """A few trials of the scenario: each checked line's roll and totals are consistent."""
    sc = load_scenario(path)
    for trial in TRIALS:
        rep = replay(sc, trial, seed=1)
        CHECKS[sc.system](sc, rep["lines"])


def test_every_system_prints_checked_lines():
    """The patterns read real lines: each system's shipped scenarios give some (a control: a
    format change that the patterns stop reading fails here, not silently)."""
    counts = dict.fromkeys(CHECKS, 0)
    for path in FILES:
        sc = load_scenario(path)
        if counts[sc.system] > 20:
            continue
        counts[sc.system] += CHECKS[sc.system](sc, replay(sc, 0, seed=1)["lines"])
    assert all(n > 0 for n in counts.values()), counts


def test_an_impossible_roll_fails():
    """The negative control: the check rejects the lines the area spreads used to print."""
    sc = load_scenario(SCENARIOS / "marshal-vs-outlaw.yaml")
    with pytest.raises(AssertionError):
        _fuzion(sc, ["Ann attacks Bob (AV 8; 3d6 roll 31 -> AT 39 vs DV 18): hit"])
    with pytest.raises(AssertionError):
        _fuzion(sc, ["Ann attacks Bob (AV 8; 3d6 roll 18 -> AT 26 vs DV 18): miss"])
    assert _fuzion(sc, ["Ann attacks Bob (AV 8; 3d6 roll 10 -> AT 18 vs DV 18): hit"]) == 1
