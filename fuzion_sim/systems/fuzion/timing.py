"""Time and initiative (RULINGS F7-F9): which combatant acts in which slot of a round.

The kernel runs in slots. Under ``timing: phases`` a slot is a 3-second phase in which everyone
acts once (4 a round). Under ``speed_chart`` a slot is a 1-second segment (12 a round) and a
combatant acts in the segments of its SPD on the HERO chart; combat starts on segment 12.
Under ``extra_actions`` each phase has as many passes as the most actions anyone gets, and a
combatant with ``n`` actions a phase acts in the first ``n`` passes. Times are reported in
units: phases (speed_chart: segments, counted from the opening segment 12 as 1).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache
from importlib import resources

import numpy as np
import yaml

__all__ = ["Timing", "actions_per_phase", "build_timing", "speed_chart"]

MAX_SPD = 18


@cache
def _data() -> dict:
    text = resources.files(f"{__package__}.data").joinpath("speed_chart.yaml").read_text()
    return yaml.safe_load(text)


def speed_chart(spd: int) -> tuple[int, ...]:
    """Segments (1-12) in which a combatant of ``spd`` (1-12) acts (F8)."""
    return tuple(_data()["speed_chart"][min(max(int(spd), 1), 12)])


def actions_per_phase(spd: int, table: str = "rule") -> int:
    """Actions each phase under ``extra_actions`` (F8): ceil(SPD / 4), or the printed table."""
    spd = max(int(spd), 1)
    if table == "rule":
        return math.ceil(spd / 4)
    for row in _data()["extra_actions_printed"]:
        lo, hi = row["spd"]
        if lo <= spd <= hi:
            return int(row["actions"])
    return int(_data()["extra_actions_printed"][-1]["actions"])


@dataclass(frozen=True)
class Timing:
    """The slot structure of a round and how slots map to reported time."""

    acts: np.ndarray  # int8[C * slots_per_round]
    slots_per_round: int
    start_slot: int  # slot of the round the fight starts in (speed chart: segment 12)
    slots_per_unit: int  # slots per reported time unit
    unit: str  # "phase" | "segment"
    seconds_per_unit: float
    recovery_slot: int  # slot after which everyone gets a free Recovery (-1: none)


def build_timing(timing: str, spds: list[int], extra_actions_table: str = "rule") -> Timing:
    """The :class:`Timing` of a fight under ``timing`` for combatants of SPD ``spds``."""
    n = len(spds)
    if timing == "speed_chart":
        acts = np.zeros((n, 12), np.int8)
        for c, spd in enumerate(spds):
            for seg in speed_chart(spd):
                acts[c, seg - 1] = 1
        return Timing(acts.ravel(), 12, 11, 1, "segment", 1.0, 11)
    if timing == "extra_actions":
        per = [actions_per_phase(s, extra_actions_table) for s in spds]
        passes = max(per)
        acts = np.zeros((n, 4 * passes), np.int8)
        for c, k in enumerate(per):
            for phase in range(4):
                acts[c, phase * passes : phase * passes + k] = 1
        return Timing(acts.ravel(), 4 * passes, 0, passes, "phase", 3.0, -1)
    return Timing(np.ones(n * 4, np.int8), 4, 0, 1, "phase", 3.0, -1)
