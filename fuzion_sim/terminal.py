"""Terminal tables every command and rule system prints with (rich; plain text when piped).

Tables wrap instead of cutting: every column folds a word too long for it onto the next line
(no "..."), titles are printed as their own lines, wrapped at the terminal's width rather than
the table's, and a table too wide for the terminal prints as one "header: value" block per
row. The width is the terminal's, or ``COLUMNS`` (80 when piped).
"""

from __future__ import annotations

from rich.console import Console
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from . import fmt
from .pmf_rows import format_probability, pmf_rows

__all__ = ["console", "frame_table", "new_table", "pmf_table", "show"]

#: A table stacks when its words need this much more than the width, or its columns would get
#: fewer than ``_MIN_COLUMN`` characters each.
_SQUEEZE = 1.25
_MIN_COLUMN = 4


class _EscapingConsole(Console):
    """A console that shows the control characters of what it prints as escapes
    (:func:`~fuzion_sim.fmt.terminal_text`): a name cannot drive the terminal."""

    def render_str(self, text: str, **kwargs) -> Text:
        return super().render_str(fmt.terminal_text(text), **kwargs)

    def render(self, renderable, options=None):
        if isinstance(renderable, Text) and renderable.plain != fmt.terminal_text(renderable.plain):
            renderable = _escaped_text(renderable)
        return super().render(renderable, options)


def _escaped_text(text: Text) -> Text:
    """``text`` with its control characters written as escapes, its styles kept."""
    safe = Text(style=text.style, justify=text.justify, overflow=text.overflow,
                no_wrap=text.no_wrap, end=text.end)  # fmt: skip
    cuts = sorted({i for span in text.spans for i in (span.start, span.end)}
                  - {0, len(text.plain)})  # fmt: skip
    for piece in text.divide(cuts):  # each piece's spans cover all of it
        part = Text(fmt.terminal_text(piece.plain))
        for span in piece.spans:
            part.stylize(span.style)
        safe.append_text(part)
    return safe


def console() -> Console:
    """The console commands print to (no syntax highlighting; control characters escaped)."""
    return _EscapingConsole(highlight=False)


class _PlainTable(Table):
    """A table whose text cells show as written: a name with square brackets (``Duel [/b]``)
    is never read as rich markup."""

    def add_row(self, *cells, **kwargs) -> None:
        super().add_row(*(Text(c) if isinstance(c, str) else c for c in cells), **kwargs)


def new_table(columns, right=()) -> Table:
    """A rich table whose columns fold long words (nothing is ever cut with an ellipsis);
    the columns named in ``right`` are right-aligned; its cells are plain text, never markup."""
    tbl = _PlainTable(title=None)
    for col in columns:
        tbl.add_column(col, justify="right" if col in right else "left", overflow="fold")
    return tbl


def _too_narrow(con: Console, tbl: Table) -> bool:
    need = Measurement.get(con, con.options.update_width(10**4), tbl).minimum
    cols = len(tbl.columns)
    return need > _SQUEEZE * con.width or con.width < 1 + cols * (3 + _MIN_COLUMN)


def _stacked(con: Console, tbl: Table) -> None:
    """The table as one block of "header: value" lines per row (for very narrow terminals)."""
    headers = [str(c.header) for c in tbl.columns]
    columns = [[str(cell) for cell in c.cells] for c in tbl.columns]
    for r in range(tbl.row_count):
        con.print("-" * min(con.width, 20), style="dim")
        for header, cells in zip(headers, columns, strict=True):
            line = Text(f"{header or '#'}: ", style="bold")
            line.append(cells[r])
            con.print(line, overflow="fold")


def show(con: Console, title: str, tbl: Table) -> None:
    """Print ``title`` on its own line, then the table (stacked when too wide)."""
    con.print(Text(title, style="bold"), overflow="fold")
    if _too_narrow(con, tbl):
        _stacked(con, tbl)
    else:
        con.print(tbl)


def _numeric(cells) -> bool:
    filled = [c for c in cells if c and c != "-"]
    return bool(filled) and all(c[0].isdigit() or c[0] in "+-<" for c in filled)


def frame_table(frame) -> Table:
    """A table of display strings (see :mod:`.tables`); numeric columns right-aligned."""
    cols = [str(c) for c in frame.columns]
    right = [c for c in cols if _numeric([str(v) for v in frame[c]])]
    tbl = new_table(cols, right)
    for row in frame.itertuples(index=False):
        tbl.add_row(*[str(v) for v in row])
    return tbl


def pmf_table(con: Console, title: str, column: str, pmf: dict, rows: int) -> None:
    """A distribution (``{outcome: probability}``) as a table of at most ``rows`` rows, the
    outcomes past them merged, with a line saying how much probability a merged row holds."""
    shown = pmf_rows(pmf, rows)
    tbl = new_table([column, "probability", "P(at least)"],
                    right=[column, "probability", "P(at least)"])  # fmt: skip
    for row in shown:
        tbl.add_row(row.label, format_probability(row.probability),
                    format_probability(row.at_least))  # fmt: skip
    show(con, title, tbl)
    merged = [r for r in shown if r.merged > 1]
    if merged:
        held = "; ".join(
            f"'{r.label}' holds {_share(r.probability)} of the probability ({r.merged} outcomes)"
            for r in merged
        )
        con.print(
            f"{len(pmf)} outcomes in {len(shown)} rows: {held}. --rows N shows more, --json all."
        )


def _share(p: float) -> str:
    """A merged row's share: a percent, or the probability itself when a percent would read
    0.0%."""
    return fmt.pct(p) if p >= 0.0005 else format_probability(p)
