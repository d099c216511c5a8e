"""HTML pieces of the report and the notebook view: tables that fit the page, and the style.

A table gets a ``data-label`` on every cell, so on a narrow screen (a phone, a side panel) a
table of five or more columns stacks: each row becomes a card of "header: value" lines instead
of running past the page. Cells wrap between words and never inside one ("break-word" only
breaks a word longer than the whole column, "anywhere" would size columns as if every word
could break: "secur / ity"); a name joined by ``_`` or ``/`` may wrap at its joints. Images
never exceed the page width.
"""

from __future__ import annotations

import base64
import html
import io
import math

__all__ = ["STYLE", "html_table", "png_data_uri", "STACK_COLUMNS"]

#: Tables with at least this many columns stack below the narrow-screen breakpoint.
STACK_COLUMNS = 5

STYLE = """
body{font-family:system-ui,sans-serif;max-width:1200px;margin:2em auto;padding:0 1em;
  color:#222;line-height:1.45;overflow-wrap:break-word}
h1{line-height:1.2}
table.fz{border-collapse:collapse;margin:.5em 0;max-width:100%;
  font-variant-numeric:tabular-nums}
table.fz td,table.fz th{border:1px solid #ccc;padding:3px 8px;text-align:left;
  vertical-align:top;overflow-wrap:break-word;word-break:normal;hyphens:manual}
table.fz th{background:#f3f3f3;font-weight:600}
table.fz td.num{text-align:right}
pre{background:#f7f7f7;padding:.8em;overflow:auto;max-width:100%;white-space:pre-wrap}
code{overflow-wrap:anywhere}
img{max-width:100%;height:auto}
figure{margin:1em 0}
figcaption{color:#555;font-size:90%}
.data{font-size:90%}
@media (max-width:760px){
  body{margin:1em auto}
  table.stack,table.stack tbody,table.stack tr,table.stack td{display:block;width:auto}
  table.stack thead{position:absolute;width:1px;height:1px;overflow:hidden;
    clip:rect(0 0 0 0)}
  table.stack tr{border:1px solid #ccc;margin:0 0 .7em}
  table.stack td,table.stack td.num{display:flex;justify-content:space-between;gap:1em;
    border:none;border-bottom:1px solid #eee;text-align:right}
  table.stack td::before{content:attr(data-label);font-weight:600;text-align:left;
    flex:0 1 50%}
}
"""


def _text(v) -> str:
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return ""
    return str(v)


def _numeric(cells: list[str]) -> bool:
    filled = [c for c in cells if c and c != "-"]
    return bool(filled) and all(c[0].isdigit() or c[0] in "+-−<" for c in filled)


def _breakable(text: str) -> str:
    """``text`` HTML-escaped, with a line-break opportunity (``<wbr>``) after each ``_`` and
    ``/``: a switch name (``knockback_into_obstacles``) or a path may wrap at its joints on a
    narrow page instead of running past it, and never inside a word."""
    return html.escape(text).replace("_", "_<wbr>").replace("/", "/<wbr>")


def html_table(frame, caption: str | None = None) -> str:
    """A DataFrame of display strings as an HTML table that fits the page.

    Parameters
    ----------
    frame : pandas.DataFrame
        Cells as they should read (see :mod:`fuzion_sim.report.tables`).
    caption : str, optional
        A caption above the table.

    Returns
    -------
    str
        ``<table class="fz">``; numeric columns right-aligned; ``stack`` added for tables of
        :data:`STACK_COLUMNS` or more columns.
    """
    cols = [str(c) for c in frame.columns]
    rows = [[_text(v) for v in row] for row in frame.itertuples(index=False)]
    numeric = [_numeric([r[j] for r in rows]) for j in range(len(cols))]
    head = "".join(f'<th scope="col">{html.escape(c)}</th>' for c in cols)
    num_class = ' class="num"'
    opens = [
        f'<td{num_class if num else ""} data-label="{html.escape(c, quote=True)}">'
        for c, num in zip(cols, numeric, strict=True)
    ]
    body = "".join(
        "<tr>" + "".join(f"{o}{_breakable(cell)}</td>" for o, cell in zip(opens, row, strict=True))
        + "</tr>"
        for row in rows
    )
    cls = "fz stack" if len(cols) >= STACK_COLUMNS else "fz"
    cap = f"<caption>{html.escape(caption)}</caption>" if caption else ""
    return f'<table class="{cls}">{cap}<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'


def png_data_uri(fig, dpi: int = 100) -> str:
    """A matplotlib figure as a ``data:image/png;base64,...`` URI.

    Parameters
    ----------
    fig : matplotlib.figure.Figure
    dpi : int

    Returns
    -------
    str
    """
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi)
    return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode()
