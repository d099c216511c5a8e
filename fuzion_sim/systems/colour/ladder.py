"""Rank ladders and the Universal Table: rank names and values, the column a rank rolls on,
column shifts, and the colour of every d100 roll on every column.

The data are ``data/ranks.yaml`` (both ladders, K3 and CA5) and ``data/universal_table.yaml``
(K1). A scenario's ``rules`` pick the ladder (``ladder``), the rounding of seed 004's
interpolated columns (``interp_round``, CA1), what one column shift steps over (``cs_steps``,
CA2), where shifts stop (``cs_clamp``, CA3) and the Super Crit roll (``super_crit_on``, K2 and
CA8); :func:`column_tables` turns them into the small integer tables the kernels read.
"""

from __future__ import annotations

import functools
import itertools
import math
from dataclasses import dataclass
from importlib import resources

import numpy as np

from fuzion_sim.errors import ScenarioError

from ...validation.yaml_io import parse_yaml_text
from .codes import BLUE, GREEN, RED, SUPER_CRIT, WHITE, YELLOW

__all__ = [
    "ABILITIES",
    "BLUE_MAX",
    "CS_MAX",
    "ColumnTables",
    "Ladder",
    "column_tables",
    "ladder",
    "ladder_names",
    "normal_name",
    "table_columns",
]

_DATA_PACKAGE = "fuzion_sim.systems.colour.data"
#: The four abilities the combat rules roll (FASE), in their order in every array.
ABILITIES = ("Fighting", "Agility", "Strength", "Endurance")
#: Blue is a d100 roll of this or less on every column (K2).
BLUE_MAX = 5
#: Largest column shift a table holds either way (a longer shift stops at a ladder end).
CS_MAX = 30


def normal_name(name: str) -> str:
    """A rank name as the loader matches it: case, spaces, hyphens and underscores ignored
    (``"Shift0"``, ``"Shift 0"`` and ``"shift0"`` are one name)."""
    return "".join(ch for ch in str(name).casefold() if ch.isalnum())


def _read(filename: str):
    source = f"{_DATA_PACKAGE.replace('.', '/')}/{filename}"
    text = resources.files(_DATA_PACKAGE).joinpath(filename).read_text(encoding="utf-8")
    return parse_yaml_text(text, source)[0], source


@functools.cache
def table_columns() -> tuple[tuple[str, ...], np.ndarray]:
    """The Universal Table (K1): the column names, lowest first, and their thresholds as
    int64[n, 3] (highest White, Green and Yellow roll)."""
    data, source = _read("universal_table.yaml")
    names, rows = [], []
    for i, entry in enumerate(data["columns"]):
        white, green, yellow = (int(entry[k]) for k in ("white", "green", "yellow"))
        if not 0 <= white <= green <= yellow <= 100:
            raise ScenarioError(f"column {entry['name']}: White <= Green <= Yellow <= 100 "
                                f"needed, got {white}/{green}/{yellow}", file=source,
                                path=f"columns[{i}]")  # fmt: skip
        names.append(str(entry["name"]))
        rows.append((white, green, yellow))
    return tuple(names), np.array(rows, np.int64)


@dataclass(frozen=True)
class Ladder:
    """One rank ladder: names and values lowest first; per rank the Universal Table column it
    rolls on (``column[i]`` >= 0) or, for an interpolated rank (K1), -1 and the two columns
    ``between[i]`` it lies halfway between."""

    name: str
    names: tuple[str, ...]
    values: tuple[int, ...]
    column: tuple[int, ...]
    between: tuple[tuple[int, int] | None, ...]
    aliases: dict

    def index(self, text: str) -> int | None:
        """The rank a name means (case and spaces ignored, aliases known), or None."""
        key = normal_name(text)
        return self._by_name.get(self.aliases.get(key, key))

    @functools.cached_property
    def _by_name(self) -> dict[str, int]:
        """Each rank's normal name to its index (the lowest of equal names)."""
        out: dict[str, int] = {}
        for i, name in enumerate(self.names):
            out.setdefault(normal_name(name), i)
        return out

    def value_rank(self, value: float, mode: str = "floor") -> int:
        """The rank of a number (CA7): ``floor`` the highest rank whose value is at most the
        number (the lowest rank below them all); ``nearest`` the nearest value, ties to the
        lower rank."""
        values = self.values
        if mode == "nearest":
            best = 0
            for i, v in enumerate(values):
                if abs(v - value) < abs(values[best] - value):
                    best = i
            return best
        best = 0
        for i, v in enumerate(values):
            if v <= value:
                best = i
        return best

    def __len__(self) -> int:
        return len(self.names)


@functools.cache
def _ladders() -> dict[str, Ladder]:
    data, source = _read("ranks.yaml")
    columns = {normal_name(n): i for i, n in enumerate(table_columns()[0])}
    aliases = {normal_name(k): normal_name(v) for k, v in (data.get("aliases") or {}).items()}
    out = {}
    for name, ranks in data["ladders"].items():
        names, values, column, between = [], [], [], []
        for i, entry in enumerate(ranks):
            where = f"ladders.{name}[{i}]"
            names.append(str(entry["name"]))
            values.append(int(entry["value"]))
            if "between" in entry:
                lo, hi = (columns.get(normal_name(c)) for c in entry["between"])
                if lo is None or hi is None:
                    raise ScenarioError("unknown column in 'between'", file=source, path=where)
                column.append(-1)
                between.append((lo, hi))
            else:
                col = columns.get(normal_name(entry["column"]))
                if col is None:
                    raise ScenarioError(f"unknown column '{entry['column']}'", file=source,
                                        path=where)  # fmt: skip
                column.append(col)
                between.append(None)
        if any(b <= a for a, b in itertools.pairwise(values)):
            raise ScenarioError(f"the {name} ladder's values must rise", file=source,
                                path=f"ladders.{name}")  # fmt: skip
        out[name] = Ladder(name, tuple(names), tuple(values), tuple(column), tuple(between),
                           aliases)  # fmt: skip
    return out


def ladder_names() -> tuple[str, ...]:
    """The ladders a scenario may name (``rules.ladder``)."""
    return tuple(_ladders())


def ladder(name: str) -> Ladder:
    """The ladder called ``name`` (``seed004`` or ``standard``)."""
    return _ladders()[name]


@dataclass(frozen=True)
class ColumnTables:
    """What the kernels read of the ladder and the table under a scenario's rules.

    ``rank_col`` int64[R]: the column a rank rolls on unshifted; ``thresholds`` int64[K, 3];
    ``colour`` int64[K, 101]: the colour of roll 1..100 on each column (index 0 unused);
    ``shift`` int64[K, 2 * CS_MAX + 1]: the column a single shift of ``cs`` leads to from
    each column (``shift[k, cs + CS_MAX]``), clamped as ``cs_clamp`` says; ``names``: each
    column's name; ``values`` int64[R]: the ladder's rank values.
    """

    rank_col: np.ndarray
    thresholds: np.ndarray
    colour: np.ndarray
    shift: np.ndarray
    names: tuple[str, ...]
    values: np.ndarray


def _midpoint(a: int, b: int, up: bool) -> int:
    """Halfway between two thresholds, x.5 rounded down or up (CA1: never half-even)."""
    twice = a + b
    return twice // 2 if twice % 2 == 0 or not up else math.ceil(twice / 2)


@functools.cache
def column_tables(ladder_name: str, interp_round: str, cs_steps: str, cs_clamp: str,
                  super_crit_on: int) -> ColumnTables:  # fmt: skip
    """The column tables of a ladder under the scenario's switches (see :class:`ColumnTables`).

    Under ``cs_steps: ladder`` every rank of the ladder is a column and one shift is one rank.
    Under ``table`` the shifts step over the Universal Table's columns only: an interpolated
    rank keeps its own column unshifted, and a shift of -n from it lands n - 1 columns below
    its lower neighbour (+n: n - 1 above its upper one), so Fantastic -1CS is Remarkable.
    ``cs_clamp: ladder_ends`` stops shifts at the lowest and highest column; ``msh`` also
    stops them at Shift Z and leaves Class 1000 and above unshifted (CA3).
    """
    lad = ladder(ladder_name)
    tnames, tthr = table_columns()
    up = interp_round == "up"

    def interpolated(i):
        lo, hi = lad.between[i]
        return tuple(_midpoint(int(tthr[lo, k]), int(tthr[hi, k]), up) for k in range(3))

    if cs_steps == "ladder":
        names = list(lad.names)
        thr = [tuple(int(x) for x in tthr[c]) if c >= 0 else interpolated(i)
               for i, c in enumerate(lad.column)]  # fmt: skip
        rank_col = list(range(len(lad)))
        neighbours = [None] * len(names)
    else:
        used = sorted({c for c in lad.column if c >= 0} | {c for b in lad.between if b for c in b})
        position = {c: k for k, c in enumerate(used)}
        names = [tnames[c] for c in used]
        thr = [tuple(int(x) for x in tthr[c]) for c in used]
        neighbours = [None] * len(names)
        rank_col = []
        for i, c in enumerate(lad.column):
            if c >= 0:
                rank_col.append(position[c])
            else:
                lo, hi = lad.between[i]
                rank_col.append(len(names))
                names.append(lad.names[i])
                thr.append(interpolated(i))
                neighbours.append((position[lo], position[hi]))
    n_main = sum(1 for b in neighbours if b is None)
    k_cols = len(names)
    norm = [normal_name(n) for n in names]
    top = n_main - 1
    shift_z = norm.index("shiftz") if "shiftz" in norm[:n_main] else top
    class1000 = norm.index("class1000") if "class1000" in norm[:n_main] else n_main
    shift = np.zeros((k_cols, 2 * CS_MAX + 1), np.int64)
    for k in range(k_cols):
        for cs in range(-CS_MAX, CS_MAX + 1):
            if cs == 0:
                shift[k, cs + CS_MAX] = k
                continue
            if neighbours[k] is not None:
                lo, hi = neighbours[k]
                base, step = (lo, cs + 1) if cs < 0 else (hi, cs - 1)
                if cs_clamp == "msh" and base >= class1000:
                    shift[k, cs + CS_MAX] = base
                    continue
            else:
                base, step = k, cs
                if cs_clamp == "msh" and k >= class1000:
                    shift[k, cs + CS_MAX] = k
                    continue
            upper = top
            if cs_clamp == "msh":
                upper = shift_z if base <= shift_z else base
            shift[k, cs + CS_MAX] = min(max(base + step, 0), upper)
    thresholds = np.array(thr, np.int64)
    colour = np.zeros((k_cols, 101), np.int64)
    for k in range(k_cols):
        white, green, yellow = thresholds[k]
        for roll in range(1, 101):
            if roll <= BLUE_MAX:
                c = BLUE
            elif roll <= white:
                c = WHITE
            elif roll <= green:
                c = GREEN
            elif roll <= yellow:
                c = YELLOW
            else:
                c = SUPER_CRIT if roll >= super_crit_on else RED
            colour[k, roll] = c
    return ColumnTables(np.array(rank_col, np.int64), thresholds, colour, shift, tuple(names),
                        np.array(lad.values, np.int64))  # fmt: skip
