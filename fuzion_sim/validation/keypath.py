"""Key paths into scenario data, ``sides.red[0].weapon``: how a message writes one
(:func:`format_path`) and how an override's or a tactic's text is read as one
(:func:`parse_path`).

Plain syntax: what a path reaches in a scenario, a catalogue item given by name included, is
the loader's (:mod:`fuzion_sim.scenario.paths`).
"""

from __future__ import annotations

from fuzion_sim.errors import ScenarioError

__all__ = ["format_path", "parse_path"]


def format_path(parts) -> str:
    """Join key path components into the dotted form used in messages.

    Parameters
    ----------
    parts : iterable of str or int
        Mapping keys (str) and list indices (int).

    Returns
    -------
    str
        E.g. ``["sides", "red", 0, "weapon"]`` -> ``"sides.red[0].weapon"``; ``[]`` -> ``""``.
    """
    out = ""
    for part in parts:
        if isinstance(part, int) and not isinstance(part, bool):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out


_NAME_STOP = ".["


def _bad(text: str, why: str) -> ScenarioError:
    return ScenarioError(f"bad key path '{text}': {why}", path=text or None)


def parse_path(path) -> list[str | int]:
    """Split a key path into mapping keys and list indices.

    Parameters
    ----------
    path : str or sequence
        E.g. ``"sides.blue[0].armor.pd"``. A key holding dots or brackets may be quoted in
        brackets: ``skills['Ranged Evade']``. A list or tuple is returned as a list unchanged.

    Returns
    -------
    list of str or int
        E.g. ``["sides", "blue", 0, "armor", "pd"]``.

    Raises
    ------
    ScenarioError
        If the path is empty or malformed.
    """
    if isinstance(path, list | tuple):
        return list(path)
    if not isinstance(path, str) or not path.strip():
        raise _bad(str(path) if path is not None else "", "it is empty")
    text = path.strip()
    parts: list[str | int] = []
    i, n = 0, len(text)
    while i < n:
        char = text[i]
        if char == "[":
            end = text.find("]", i)
            if end < 0:
                raise _bad(text, "'[' without ']'")
            inner = text[i + 1 : end].strip()
            if inner.isdigit():
                parts.append(int(inner))
            elif len(inner) >= 2 and inner[0] == inner[-1] and inner[0] in "'\"":
                parts.append(inner[1:-1])
            else:
                raise _bad(text, f"'[{inner}]' is neither an index nor a quoted key")
            i = end + 1
            continue
        if char == ".":
            if i == 0 or i + 1 == n or text[i + 1] in _NAME_STOP:
                raise _bad(text, "empty key")
            i += 1
        elif i != 0:
            raise _bad(text, f"expected '.' or '[' at '{text[i:]}'")
        start = i
        while i < n and text[i] not in _NAME_STOP:
            i += 1
        if text[start:i].strip() == "":
            raise _bad(text, "empty key")
        parts.append(text[start:i].strip())
    return parts
