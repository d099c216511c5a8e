"""Reading YAML while keeping the line number of every key.

PyYAML's ``compose`` step (SafeLoader) gives a node tree with marks; this module turns it into plain
Python values and a map from key path (``"sides.red[0].weapon"``) to 1-based line number, so that
validation errors can name the line. Duplicate keys, which PyYAML silently accepts, are errors.

Input is bounded before it can cost much: a file over :data:`~fuzion_sim.limits.MAX_FILE_BYTES`
is refused unread, nesting deeper than :data:`~fuzion_sim.limits.MAX_YAML_DEPTH` stops the
composer, and the conversion stops once :data:`~fuzion_sim.limits.MAX_YAML_NODES` values have
been produced (an alias bomb expands to billions) or an alias refers to a node that contains
it. Every problem, a reader error (a NUL byte) included, is one :class:`ScenarioError` with
the file and line.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

import yaml

from fuzion_sim.errors import ScenarioError, shorten
from fuzion_sim.limits import MAX_FILE_BYTES, MAX_YAML_DEPTH, MAX_YAML_NODES

from .keypath import format_path

__all__ = ["parse_yaml_text", "read_yaml"]


def _line(node) -> int:
    return node.start_mark.line + 1


class _BoundedLoader(yaml.SafeLoader):
    """SafeLoader whose composer stops at :data:`MAX_YAML_DEPTH` levels of nesting (PyYAML's
    composer recurses once per level, so 5,000 levels would end in a ``RecursionError``)."""

    def __init__(self, stream):
        super().__init__(stream)
        self._depth = 0

    def compose_node(self, parent, index):
        self._depth += 1
        try:
            if self._depth > MAX_YAML_DEPTH:
                raise yaml.composer.ComposerError(
                    None, None, f"nesting deeper than {MAX_YAML_DEPTH} levels",
                    self.peek_event().start_mark,
                )  # fmt: skip
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1


class _Converter:
    """Turns a composed node graph into plain Python within the bounds, recording the line of
    every key path."""

    def __init__(self, loader, lines: dict[str, int], source: str | None):
        self.loader = loader
        self.lines = lines
        self.source = source
        self.nodes = 0
        self.open: set[int] = set()  # ids of the collections being converted (the path)

    def fail(self, message: str, parts, node) -> ScenarioError:
        return ScenarioError(
            message, path=format_path(parts) or None, file=self.source, line=_line(node)
        )

    def scalar(self, node, parts):
        try:
            return self.loader.construct_object(node, deep=True)
        except yaml.YAMLError:
            raise
        except (ValueError, TypeError, OverflowError) as exc:  # e.g. !!timestamp 2001-02-30
            raise self.fail(f"invalid value: {shorten(exc)}", parts, node) from None

    def convert(self, node, parts):
        self.nodes += 1
        if self.nodes > MAX_YAML_NODES:
            raise self.fail(
                f"more than {MAX_YAML_NODES:,} values once aliases are expanded "
                "(an alias bomb?)",
                parts, node,
            )  # fmt: skip
        if not isinstance(node, yaml.MappingNode | yaml.SequenceNode):
            return self.scalar(node, parts)
        if len(parts) >= MAX_YAML_DEPTH:
            raise self.fail(f"nesting deeper than {MAX_YAML_DEPTH} levels", parts, node)
        if id(node) in self.open:
            raise self.fail("an alias refers to a list or mapping that contains it", parts, node)
        self.open.add(id(node))
        try:
            if isinstance(node, yaml.MappingNode):
                return self.mapping(node, parts)
            return self.sequence(node, parts)
        finally:
            self.open.discard(id(node))

    def mapping(self, node, parts) -> dict:
        out: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode):
                raise self.fail(
                    "a mapping key must be a plain value, not a list or mapping", parts, key_node
                )
            if key_node.tag == "tag:yaml.org,2002:merge":
                raise self.fail("YAML merge keys ('<<') are not supported", parts, key_node)
            key = self.scalar(key_node, parts)
            child = [*parts, key]
            if key in out:
                raise ScenarioError(
                    f"duplicate key '{shorten(key)}' (first given on line "
                    f"{self.lines.get(format_path(child), '?')})",
                    path=format_path(child),
                    file=self.source,
                    line=_line(key_node),
                )
            self.lines[format_path(child)] = _line(key_node)
            out[key] = self.convert(value_node, child)
        return out

    def sequence(self, node, parts) -> list:
        items = []
        for index, item in enumerate(node.value):
            child = [*parts, index]
            self.lines[format_path(child)] = _line(item)
            items.append(self.convert(item, child))
        return items


def _syntax_error(exc: yaml.YAMLError, source: str | None, text: str) -> ScenarioError:
    if isinstance(exc, yaml.reader.ReaderError):
        line = text.count("\n", 0, max(0, exc.position)) + 1
        what = f"#x{exc.character:04x}" if isinstance(exc.character, int) else "a byte"
        return ScenarioError(
            f"invalid YAML: unacceptable character {what} ({exc.reason})", file=source, line=line
        )
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
        The YAML document, at most :data:`~fuzion_sim.limits.MAX_FILE_BYTES` long.
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
        On a YAML syntax or reader error (with the line of the problem), a duplicate key, an
        empty document, a text over the size limit, nesting over the depth limit, more values
        than the node limit once aliases are expanded, or a recursive alias.
    """
    if not isinstance(text, str):
        raise ScenarioError(f"expected YAML text, got {type(text).__name__}", file=source)
    if len(text) > MAX_FILE_BYTES:
        raise _too_big(source)
    loader = None
    try:
        loader = _BoundedLoader(text)
        node = loader.get_single_node()
        if node is None:
            raise ScenarioError("the file is empty", file=source)
        lines: dict[str, int] = {"": _line(node)}
        data = _Converter(loader, lines, source).convert(node, [])
    except yaml.YAMLError as exc:
        raise _syntax_error(exc, source, text) from None
    except RecursionError:  # pragma: no cover - the depth limit stops nesting well before
        raise ScenarioError(f"nesting deeper than {MAX_YAML_DEPTH} levels", file=source) from None
    finally:
        if loader is not None:
            loader.dispose()
    return data, lines


def _too_big(source) -> ScenarioError:
    return ScenarioError(
        f"the file is larger than {MAX_FILE_BYTES >> 20} MiB ({MAX_FILE_BYTES:,} bytes), the "
        "most a scenario may be",
        file=source,
    )


#: What a file that is not a regular file is, by its ``stat`` mode.
_KINDS = ((stat.S_ISFIFO, "a pipe (FIFO)"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))  # fmt: skip


def _not_regular(mode: int, source: str) -> ScenarioError:
    if stat.S_ISDIR(mode):
        return ScenarioError("cannot read file: it is a directory", file=source)
    kind = next((text for test, text in _KINDS if test(mode)), "not a regular file")
    return ScenarioError(
        f"cannot read file: it is {kind}, not a regular file (save the scenario to a file)",
        file=source,
    )


def _read_regular(path: Path, source: str) -> bytes:
    """The first ``MAX_FILE_BYTES + 1`` bytes of ``path``, a regular file.

    Anything else (a FIFO, ``/dev/stdin`` on a pipe or terminal, a device, a socket) is
    refused from its ``stat`` before it is opened: reading one could wait for ever. The file
    is then opened without blocking and checked again, in case it was replaced in between.
    """
    mode = os.stat(path).st_mode
    if not stat.S_ISREG(mode):
        raise _not_regular(mode, source)
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    with open(fd, "rb") as handle:  # read at most one byte past the limit
        mode = os.fstat(handle.fileno()).st_mode
        if not stat.S_ISREG(mode):
            raise _not_regular(mode, source)
        return handle.read(MAX_FILE_BYTES + 1)


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
        If the file cannot be read, is not a regular file (a FIFO, a device, a pipe given as
        ``/dev/stdin``: refused unopened, since reading one may never end), is larger than
        :data:`~fuzion_sim.limits.MAX_FILE_BYTES`, is empty, is not valid YAML, repeats a
        key or is over a nesting or size bound (see :func:`parse_yaml_text`).
    """
    source = str(path)
    try:
        raw = _read_regular(Path(path), source)
        if len(raw) > MAX_FILE_BYTES:
            raise _too_big(source)
        text = raw.decode("utf-8")
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
    except (ValueError, TypeError) as exc:  # a NUL in the path, a path that is not one
        raise ScenarioError(f"cannot read file: {shorten(exc)}", file=source) from None
    return parse_yaml_text(text, source)
