"""How a Result and a Comparison show themselves: a short ``repr`` and a Jupyter HTML view.

The ``repr`` is a few lines, whatever the run's size (the tally's arrays are not printed); the
HTML view holds the win table, the kill-time summary and a small kill-time plot (an inline
PNG), or for a comparison the variants, the differences and the verdicts.
"""

from __future__ import annotations

import html

from .. import fmt
from .html import html_table, png_data_uri
from .tables import comparison_frame, differences_frame, kill_time_frame, wins_frame

__all__ = ["comparison_html", "comparison_repr", "result_html", "result_repr"]

#: Longest name (scenario, side, label) a repr prints in full.
_NAME = 60
#: Most sides / variants a repr lists.
_LIST = 8


def _short(text, n: int = _NAME) -> str:
    text = str(text)
    return text if len(text) <= n else text[: n - 3] + "..."


#: The longest repr (Jupyter and the REPL print it whole).
MAX_REPR = 1_990


def _cap(text: str) -> str:
    """``text`` cut at a line end so that it stays under :data:`MAX_REPR` characters."""
    if len(text) <= MAX_REPR:
        return text
    cut = text.rfind("\n", 0, MAX_REPR - 6)
    return text[: cut if cut > 0 else MAX_REPR - 6] + "\n  ..."


def _listed(items: list[str]) -> str:
    more = len(items) - _LIST
    shown = items[:_LIST] + ([f"... {more} more"] if more > 0 else [])
    return ", ".join(shown)


def _wins_line(result) -> str:
    """Each side's win probability, then draws and unresolved fights when there were any
    (they are outcomes too: a side at 34% with draws at 54% is not the favourite)."""
    def share(outcome: str) -> str:
        p = result.outcome_probability(outcome)
        return fmt.pct_interval(p, *result.outcome_interval(outcome))

    wins = [f"{_short(s, 30)} {share(s)}" for s in result.sides]
    others = [f"{o} {share(o)}" for o in ("draw", "unresolved")
              if result.outcome_probability(o) > 0]  # fmt: skip
    return _listed(wins) + "".join(f", {o}" for o in others)


def _kill_line(result) -> str:
    kt = result.kill_time_summary()
    if kt["mean"] is None:
        return "no decisive fight"
    unit = fmt.plural(kt["unit"])
    median = kt["quantiles"]["0.5"]["value"]
    return (
        f"kill time mean {fmt.num_interval(kt['mean'], *kt['ci95'])} {unit}, "
        f"median {fmt.num(median)} ({fmt.count(kt['n'])} decisive fights)"
    )


def _headline(result) -> str:
    """``", dice hero"``: the switches the system gives a shortcut option, with their values
    (none for a system without one: colour and FUDGE have no dice switch)."""
    from ..systems import get_system

    try:
        switches = get_system(result.system).switches
    except Exception:  # an unregistered system: nothing to headline
        return ""
    return "".join(f", {k} {result.rules[k]}" for k, spec in switches.items()
                   if spec.flag and k in result.rules)  # fmt: skip


def result_repr(result) -> str:
    """``Result(...)`` in a few lines: scenario, trials, seed, wins and kill time.

    Parameters
    ----------
    result : Result

    Returns
    -------
    str
        Under 2,000 characters for any run.
    """
    head = (
        f"Result({_short(result.scenario)!r}, {result.system}, {result.trials:,} trials, "
        f"seed {result.seed}{_headline(result)}, {len(result.combatants)} combatants)"
    )
    return _cap(f"{head}\n  wins: {_wins_line(result)}\n  {_kill_line(result)}")


def _thumbnail(result) -> str:
    from .plots import _figure

    fig, ax = _figure(figsize=(4.6, 2.1))
    pmf = result.kill_time_pmf()
    ax.bar(pmf.index, pmf.values, width=0.8, color="#4c72b0")
    unit = fmt.plural(result.time_unit["unit"])
    ax.set_xlabel(f"kill time ({unit})", fontsize=8)
    ax.set_ylabel("probability", fontsize=8)
    ax.tick_params(labelsize=7)
    from matplotlib.ticker import MaxNLocator

    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    return png_data_uri(fig, dpi=80)


def result_html(result) -> str:
    """Jupyter's view of a Result.

    Parameters
    ----------
    result : Result

    Returns
    -------
    str
        HTML: a heading line, the win table, the kill-time table and a kill-time plot.
    """
    head = (
        f"<p><strong>{html.escape(result.scenario)}</strong> ({html.escape(result.system)}, "
        f"{result.trials:,} trials, seed {result.seed}{html.escape(_headline(result))})</p>"
    )
    parts = ["<div>", head, html_table(wins_frame(result))]
    kt = kill_time_frame(result)
    if len(kt):
        uri = _thumbnail(result)
        parts += [
            html_table(kt),
            f'<img alt="Kill-time distribution: {html.escape(_kill_line(result))}" '
            f'src="{uri}">',
        ]
    parts.append("</div>")
    return "\n".join(parts)


def comparison_repr(cmp) -> str:
    """``Comparison(...)`` in a few lines: the variants' wins and the verdicts.

    Parameters
    ----------
    cmp : Comparison

    Returns
    -------
    str
        Under 2,000 characters for a handful of variants (longer lists are cut).
    """
    first = cmp.results[0]
    lines = [f"Comparison({_short(first.scenario)!r}, {len(cmp.results)} variants, "
             f"{first.trials:,} trials each)"]  # fmt: skip
    for label, res in list(zip(cmp.labels, cmp.results, strict=True))[:_LIST]:
        lines.append(f"  {_short(label, 40)}: {_wins_line(res)}")
    if len(cmp.results) > _LIST:
        lines.append(f"  ... {len(cmp.results) - _LIST} more variants")
    for sentence in cmp.verdicts()[:3]:
        lines.append(f"  verdict: {_short(sentence, 400)}")
    return _cap("\n".join(lines))


def comparison_html(cmp) -> str:
    """Jupyter's view of a Comparison.

    Parameters
    ----------
    cmp : Comparison

    Returns
    -------
    str
        HTML: the variants table, the differences table and the verdicts.
    """
    items = "".join(f"<li>{html.escape(v)}</li>" for v in cmp.verdicts())
    return "\n".join(
        ["<div>", f"<p><strong>{html.escape(cmp.results[0].scenario)}</strong></p>",
         html_table(comparison_frame(cmp)), html_table(differences_frame(cmp)),
         f"<ul>{items}</ul>", "</div>"]
    )  # fmt: skip
