"""Readable terminal output for the CLI (rich tables; plain text when not a terminal).

Tables wrap instead of cutting: every column folds a word too long for it onto the next line
(no "…"), and titles are printed as their own lines, wrapped at the terminal's width rather
than the table's. The width is the terminal's, or ``COLUMNS`` (80 when piped).
"""

from __future__ import annotations

from rich.markup import escape

from .. import fmt
from ..pmf_rows import DEFAULT_ROWS
from ..terminal import console, frame_table, new_table, pmf_table, show
from . import tables
from .tables import comparison_frame, differences_frame, sweep_frame, wins_frame

__all__ = [
    "render_answer",
    "render_exact",
    "render_result",
    "render_catalog",
    "render_comparison",
    "render_sweep",
    "render_balance",
]


def _headline_switches(result) -> dict:
    """The rule switches a system gives a shortcut option (``Switch.flag``: Fuzion's dice),
    with their values: what a reader needs beside the numbers."""
    from ..systems import get_system

    switches = get_system(result.system).switches
    return {k: result.rules[k] for k, spec in switches.items() if spec.flag and k in result.rules}


def render_result(result) -> None:
    """Win probabilities with 95% intervals, and the kill-time distribution."""
    con = console()
    headline = "".join(f", {k} {v}" for k, v in _headline_switches(result).items())
    con.print(
        f"[bold]{escape(result.scenario)}[/bold]  ({result.system}, {result.trials:,} trials, "
        f"seed {result.seed}{headline})"
    )
    show(con, "Who wins", frame_table(wins_frame(result)))
    kt = result.kill_time()
    if kt["n"]:
        unit = fmt.plural(kt["unit"])
        secs = result.time_unit["seconds"]
        s = result.kill_time_summary()
        table = new_table(["", unit, "seconds"], right=(unit, "seconds"))
        table.add_row("mean (95% interval)", fmt.num_interval(s["mean"], *s["ci95"]),
                      fmt.num_interval(s["mean"] * secs, s["ci95"][0] * secs,
                                       s["ci95"][1] * secs, 1))  # fmt: skip
        table.add_row("sd", fmt.num(kt["sd"]), fmt.num(kt["sd"] * secs, 1))
        for q, v in kt["quantiles"].items():
            label = "median" if q == "0.5" else f"{float(q) * 100:g}th percentile"
            table.add_row(label, str(v), fmt.num(v * secs, 1))
        show(con, f"How long it takes (decisive fights, in {unit})", table)
    per = result.combatant_stats()
    cols = ["combatant", "side", "hit rate", "damage dealt", "damage taken", "out", "dead"]
    table = new_table(cols, right=cols[2:])
    for row in per:
        rate = "-" if row["hit_rate"] is None else fmt.pct(row["hit_rate"])
        table.add_row(
            row["combatant"], row["side"], rate,
            f"{row['damage_dealt_mean']:.1f}", f"{row['damage_taken_mean']:.1f}",
            fmt.pct(row["p_out"]), fmt.pct(row["p_dead"]),
        )  # fmt: skip
    show(con, "Per combatant (means per fight)", table)
    _counters_table(con, result, per)
    for spec in result.schema.categories if result.schema else ():
        _categories_table(con, spec, result.category_counts(spec.name))
    con.print(
        f"[dim]{result.trials / result.elapsed:,.0f} trials/s on {result.threads} threads[/dim]"
    )


def _categories_table(con, spec, counts: dict) -> None:
    """A system's counts by category (hits by location) as each combatant's percent of its
    own total: one row a combatant, or, when there are fewer combatants than categories, one
    column a combatant (a blank where it scored none)."""
    if not counts:
        return
    names = [n for n in spec.labels if any(n in c for c in counts.values())]
    share = {who: {n: 100 * v / sum(row.values()) for n, v in row.items()}
             for who, row in counts.items()}  # fmt: skip
    title = f"{spec.description[:1].upper()}{spec.description[1:]} (% of all)"
    if len(counts) >= len(names):
        table = new_table(["combatant", *names], right=names)
        for who, row in share.items():
            table.add_row(who, *[f"{row.get(n, 0):.0f}" for n in names])
    else:
        table = new_table(["", *counts], right=list(counts))
        for n in names:
            table.add_row(n.replace("_", " "),
                          *["" if n not in row else f"{row[n]:.0f}" for row in share.values()])
    show(con, title, table)


def _counters_table(con, result, per: list[dict]) -> None:
    """What the rule system counts beyond the shared outcomes (knockback; a vehicle's
    immobilisation, crashes, loss of control), one row a combatant that scored any:
    probabilities beside the means (see :func:`~fuzion_sim.report.tables.counters_frame`)."""
    frame = tables.counters_frame(result)
    if frame.empty:
        return
    unit = fmt.plural(result.time_unit["unit"])
    show(con, f"Counted by the rules (means per fight and probabilities; a time in {unit}, "
              "over the fights where it happened)", frame_table(frame))  # fmt: skip


def render_catalog(kind: str, entries: list[dict], columns=None) -> None:
    """A catalogue as a table: ``columns`` (the system's choice of what a designer compares;
    default every key of the first entry), ``--json`` has every field."""
    con = console()
    if not entries:
        con.print("(empty)")
        return
    cols = tuple(columns or entries[0])
    table = new_table(cols)
    for e in entries:
        table.add_row(*["" if e.get(c) is None else str(e.get(c)) for c in cols])
    show(con, f"Catalogue: {kind}", table)


def render_answer(title: str, answer: dict, rows: int = DEFAULT_ROWS) -> None:
    """An exact answer of a rule system's oracle (``fuzion-sim attack SCENARIO``): its numbers
    as lines, each distribution (``{"mean", "pmf"}``) as a table, each set of probabilities
    (``{name: p}``) as a table.

    Parameters
    ----------
    title : str
    answer : dict
        As :func:`fuzion_sim.api.exact_attack` returns it.
    rows : int
        The most rows of each distribution's table.
    """
    con = console()
    con.print(f"[bold]{escape(title)}[/bold]")
    for key, value in answer.items():
        label = key.replace("_", " ")
        if isinstance(value, dict) and "pmf" in value:
            con.print(f"mean {label} = {value['mean']:.4f}")
            pmf_table(con, f"{label.capitalize()} (a miss counts 0)", label, value["pmf"], rows)
        elif isinstance(value, dict) and all(isinstance(v, float) for v in value.values()):
            table = new_table([label, "probability"], right=["probability"])
            for name, p in value.items():
                table.add_row(str(name), f"{p:.6f}")
            show(con, label.capitalize(), table)
        elif isinstance(value, dict):
            con.print(escape(f"{label}: " + ", ".join(
                f"{k} {v:g}" if isinstance(v, float) else f"{k} {v}" for k, v in value.items())))
        elif isinstance(value, float):
            con.print(f"{label} = {value:.6f}")
        else:
            con.print(escape(f"{label}: {value}"))


def render_exact(answer: dict) -> None:
    """The exact answer to a fight (``fuzion-sim exact``): who wins, the kill-time
    distribution."""
    con = console()
    method = answer.get("method", "exact")
    con.print(f"[bold]{escape(answer['scenario'])}[/bold] (exact: {escape(method)})")
    table = new_table(["outcome", "probability"], right=["probability"])
    for side, row in answer["sides"].items():
        table.add_row(f"{side} wins", f"{row['win_probability']:.6f}")
    table.add_row("draw", f"{answer['draw_probability']:.6f}")
    table.add_row("unresolved", f"{answer['unresolved_probability']:.6f}")
    show(con, "Who wins", table)
    kt = answer["kill_time"]
    if kt["mean"] is not None:
        unit = kt["unit"]
        con.print(f"kill time (decisive fights): mean {kt['mean']:.6f} {unit}s, sd "
                  f"{kt['sd']:.6f}")  # fmt: skip
        pmf_table(con, f"Kill time ({unit}s)", unit, kt["pmf"], DEFAULT_ROWS)


def render_comparison(cmp) -> None:
    """Variants side by side, paired differences with intervals, and the verdicts."""
    con = console()
    first = cmp.results[0]
    crn = "common random numbers" if cmp.common_random_numbers else "independent seeds"
    con.print(
        f"[bold]{escape(first.scenario)}[/bold]  ({first.trials:,} trials per variant, {crn})"
    )
    show(con, "Variants", frame_table(comparison_frame(cmp)))
    counted = tables.comparison_counters_frame(cmp)
    if not counted.empty:
        show(con, "Counted by the rules: how often it happened at all, by variant",
             frame_table(counted))  # fmt: skip
    show(con, "Differences from the baseline (95% intervals)",
          frame_table(differences_frame(cmp)))  # fmt: skip
    note = tables.ks_note(cmp)
    if note:
        con.print(f"[dim]{escape(note)}[/dim]")
    for sentence in cmp.verdicts():
        con.print(f"[bold]Verdict:[/bold] {escape(sentence)}")


def render_sweep(table, keys: list[str], out_dir) -> None:
    """The sweep table: grid values, win probabilities, the unresolved share and the mean kill
    time, with intervals."""
    con = console()
    show(con, f"Sweep ({len(table)} points) -> {out_dir}", frame_table(sweep_frame(table, keys)))


def render_balance(res) -> None:
    """The value found, the metric's estimate there, the bracketing pair and the search."""
    con = console()
    for line in res.headline(markup=True):
        con.print(line)
    if not res.bracketed:
        con.print(
            f"[yellow]The target lies outside the range {res.low:g}:{res.high:g}; "
            "the closer end is reported.[/yellow]"
        )
    t = new_table([res.param, res.label], right=[res.param, res.label])
    for v, e in res.steps:
        t.add_row(f"{v:g}", res.format_estimate(e))
    show(con, "Search steps", t)
