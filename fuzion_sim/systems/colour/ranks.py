"""Rank names and numbers on a scenario's ladder: what a :class:`~.model.Rated` value is worth
(K3, CA5-CA7), and the checks that name a rank the ladder lacks.

A member is built before the scenario's ``rules:`` are applied to it, so its ranks stay as
written (:class:`~.model.Rated`) until :func:`resolve` reads them on the ladder the rules
pick; ``build.check_ranks`` runs every one through it once the rules are known, so a name the
ladder lacks is a loading error with its file, line and key path.
"""

from __future__ import annotations

from fuzion_sim.errors import ScenarioError, did_you_mean

from .ladder import Ladder, ladder, ladder_names

__all__ = ["rank_names", "resolve", "resolve_value"]


def rank_names(lad: Ladder) -> list[str]:
    """A ladder's rank names, for messages."""
    return list(lad.names)


def resolve(rated, rules, parts=None) -> tuple[int, int]:
    """``(value, rank)`` of a rank name or number under ``rules`` (``ladder``,
    ``value_to_rank``, ``unknown_rank``).

    A number is its own value, with the rank ``value_to_rank`` gives it (CA7). A name is
    matched ignoring case and spaces; a name of another ladder (seed 004's Fantastic on the
    standard ladder) is an error under ``unknown_rank: error`` and the rank whose value is
    nearest its value on that ladder under ``nearest`` (CA6).

    Raises
    ------
    ScenarioError
        For a name no ladder knows, or one the scenario's ladder lacks, naming the key path
        (``parts``, else the value's own) and the closest rank name.
    """
    lad = ladder(rules.ladder)
    given = rated.given
    if not isinstance(given, str):
        return int(given), lad.value_rank(int(given), rules.value_to_rank)
    index = lad.index(given)
    if index is not None:
        return int(lad.values[index]), index
    where = tuple(parts if parts is not None else rated.parts)
    for other in ladder_names():
        found = ladder(other).index(given)
        if found is None or other == lad.name:
            continue
        value = int(ladder(other).values[found])
        if rules.unknown_rank == "nearest":
            rank = lad.value_rank(value, "nearest")
            return int(lad.values[rank]), rank
        raise ScenarioError(
            f"rank '{given}' is not on the {lad.name} ladder (it is a {other} rank; "
            f"rules.unknown_rank: nearest maps it to the nearest value)",
            path=_path(where), suggestion=did_you_mean(given, lad.names),
        )  # fmt: skip
    raise ScenarioError(
        f"unknown rank '{given}' (a rank of the {lad.name} ladder, or a number)",
        path=_path(where), suggestion=did_you_mean(given, lad.names),
    )  # fmt: skip


def resolve_value(rated, rules, parts=None) -> int:
    """The value of a rank name or number (see :func:`resolve`)."""
    return resolve(rated, rules, parts)[0]


def _path(parts) -> str | None:
    from ...validation.keypath import format_path

    return format_path(parts) or None
