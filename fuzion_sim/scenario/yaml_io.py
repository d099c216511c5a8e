"""Reading YAML while keeping the line number of every key.

PyYAML's ``compose`` step (SafeLoader) gives a node tree with marks; this module turns it into plain
Python values and a map from key path (``"sides.red[0].weapon"``) to 1-based line number, so that
validation errors can name the line. Duplicate keys, which PyYAML silently accepts, are errors.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from fuzion_sim.errors import ScenarioError

__all__ = ["format_path", "parse_yaml_text", "read_yaml"]


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


def _line(node) -> int:
    return node.start_mark.line + 1


def _convert(node, loader, parts, lines, source):
    """Turn a composed node into plain Python, recording the line of every key path."""
    if isinstance(node, yaml.MappingNode):
        out: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode):
                raise ScenarioError(
                    "a mapping key must be a plain value, not a list or mapping",
                    path=format_path(parts) or None,
                    file=source,
                    line=_line(key_node),
                )
            if key_node.tag == "tag:yaml.org,2002:merge":
                raise ScenarioError(
                    "YAML merge keys ('<<') are not supported",
                    path=format_path(parts) or None,
                    file=source,
                    line=_line(key_node),
                )
            key = loader.construct_object(key_node, deep=True)
            child = [*parts, key]
            if key in out:
                raise ScenarioError(
                    f"duplicate key '{key}' (first given on line "
                    f"{lines.get(format_path(child), '?')})",
                    path=format_path(child),
                    file=source,
                    line=_line(key_node),
                )
            lines[format_path(child)] = _line(key_node)
            out[key] = _convert(value_node, loader, child, lines, source)
        return out
    if isinstance(node, yaml.SequenceNode):
        items = []
        for index, item in enumerate(node.value):
            child = [*parts, index]
            lines[format_path(child)] = _line(item)
            items.append(_convert(item, loader, child, lines, source))
        return items
    return loader.construct_object(node, deep=True)


def _syntax_error(exc: yaml.YAMLError, source: str | None) -> ScenarioError:
    mark = getattr(exc, "problem_mark", None)
    problem = getattr(exc, "problem", None) or str(exc)
    context = getattr(exc, "context", None)
    message = f"invalid YAML: {problem}"
    if context:
        message += f" ({context})"
    line = mark.line + 1 if mark is not None else None
    return ScenarioError(message, file=source, line=line)


def parse_yaml_text(text: str, source: str | None = None) -> tuple[Any, dict[str, int]]:
    """Parse YAML text into plain Python values plus a line map.

    Parameters
    ----------
    text : str
        The YAML document.
    source : str, optional
        File name used in error messages.

    Returns
    -------
    data : Any
        The document as plain dicts, lists and scalars.
    lines : dict of str to int
        Key path (``"sides.red[0].weapon"``) -> 1-based line number; ``""`` is the document start.

    Raises
    ------
    ScenarioError
        On a YAML syntax error (with the line of the problem), a duplicate key or an empty document.
    """
    loader = yaml.SafeLoader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            raise ScenarioError("the file is empty", file=source)
        lines: dict[str, int] = {"": _line(node)}
        data = _convert(node, loader, [], lines, source)
    except yaml.YAMLError as exc:
        raise _syntax_error(exc, source) from None
    finally:
        loader.dispose()
    return data, lines


def read_yaml(path) -> tuple[Any, dict[str, int]]:
    """Read a YAML file, keeping the line number of every key.

    Parameters
    ----------
    path : str or os.PathLike
        The file to read (UTF-8).

    Returns
    -------
    data : Any
        The document as plain dicts, lists and scalars.
    lines : dict of str to int
        Key path -> 1-based line number (see :func:`parse_yaml_text`).

    Raises
    ------
    ScenarioError
        If the file cannot be read, is empty, is not valid YAML or repeats a key.
    """
    source = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ScenarioError("cannot read file: no such file", file=source) from None
    except IsADirectoryError:
        raise ScenarioError("cannot read file: it is a directory", file=source) from None
    except PermissionError:
        raise ScenarioError("cannot read file: permission denied", file=source) from None
    except UnicodeDecodeError:
        raise ScenarioError("cannot read file: not UTF-8 text", file=source) from None
    except OSError as exc:
        raise ScenarioError(f"cannot read file: {exc.strerror or exc}", file=source) from None
    return parse_yaml_text(text, source)
