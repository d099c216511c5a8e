"""Readable terminal output for the CLI (rich tables; plain text when not a terminal).

Tables wrap instead of cutting: every column folds a word too long for it onto the next line
(no "…"), and titles are printed as their own lines, wrapped at the terminal's width rather
than the table's. The width is the terminal's, or ``COLUMNS`` (80 when piped).
"""

from __future__ import annotations

from rich.console import Console
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from .. import fmt
from . import tables
from .pmf_rows import DEFAULT_ROWS, pmf_rows
from .tables import comparison_frame, differences_frame, sweep_frame, wins_frame

__all__ = [
    "render_answer",
    "render_exact",
    "render_result",
    "render_attack",
    "render_catalog",
    "render_comparison",
    "render_sweep",
    "render_balance",
]


def _console() -> Console:
    return Console(highlight=False)


def _table(columns, right=()) -> Table:
    """A rich table whose columns fold long words (nothing is ever cut with an ellipsis)."""
    table = Table(title=None)
    for col in columns:
        table.add_column(col, justify="right" if col in right else "left", overflow="fold")
    return table


#: A table stacks when its words need this much more than the width, or its columns would get
#: fewer than ``_MIN_COLUMN`` characters each.
_SQUEEZE = 1.25
_MIN_COLUMN = 4


def _too_narrow(con: Console, table: Table) -> bool:
    need = Measurement.get(con, con.options.update_width(10**4), table).minimum
    cols = len(table.columns)
    return need > _SQUEEZE * con.width or con.width < 1 + cols * (3 + _MIN_COLUMN)


def _stacked(con: Console, table: Table) -> None:
    """The table as one block of "header: value" lines per row (for very narrow terminals)."""
    headers = [str(c.header) for c in table.columns]
    columns = [[str(cell) for cell in c.cells] for c in table.columns]
    for r in range(table.row_count):
        con.print("-" * min(con.width, 20), style="dim")
        for header, cells in zip(headers, columns, strict=True):
            line = Text(f"{header or '#'}: ", style="bold")
            line.append(cells[r])
            con.print(line, overflow="fold")


def _show(con: Console, title: str, table: Table) -> None:
    con.print(Text(title, style="bold"), overflow="fold")
    if _too_narrow(con, table):
        _stacked(con, table)
    else:
        con.print(table)


def _numeric(cells) -> bool:
    filled = [c for c in cells if c and c != "-"]
    return bool(filled) and all(c[0].isdigit() or c[0] in "+-<" for c in filled)


def _frame_table(frame) -> Table:
    """A table of display strings (see :mod:`.tables`); numeric columns right-aligned."""
    cols = [str(c) for c in frame.columns]
    right = [c for c in cols if _numeric([str(v) for v in frame[c]])]
    table = _table(cols, right)
    for row in frame.itertuples(index=False):
        table.add_row(*[str(v) for v in row])
    return table


def render_result(result) -> None:
    """Win probabilities with 95% intervals, and the kill-time distribution."""
    con = _console()
    con.print(
        f"[bold]{result.scenario}[/bold]  ({result.system}, {result.trials:,} trials, "
        f"seed {result.seed}, dice {result.rules.get('dice')})"
    )
    _show(con, "Who wins", _frame_table(wins_frame(result)))
    kt = result.kill_time()
    if kt["n"]:
        unit = fmt.plural(kt["unit"])
        secs = result.time_unit["seconds"]
        s = result.kill_time_summary()
        table = _table(["", unit, "seconds"], right=(unit, "seconds"))
        table.add_row("mean (95% interval)", fmt.num_interval(s["mean"], *s["ci95"]),
                      fmt.num_interval(s["mean"] * secs, s["ci95"][0] * secs,
                                       s["ci95"][1] * secs, 1))  # fmt: skip
        table.add_row("sd", fmt.num(kt["sd"]), fmt.num(kt["sd"] * secs, 1))
        for q, v in kt["quantiles"].items():
            label = "median" if q == "0.5" else f"{float(q) * 100:g}th percentile"
            table.add_row(label, str(v), fmt.num(v * secs, 1))
        _show(con, f"How long it takes (decisive fights, in {unit})", table)
    per = result.combatant_stats()
    cols = ["combatant", "side", "hit rate", "damage dealt", "damage taken", "out", "dead"]
    table = _table(cols, right=cols[2:])
    for row in per:
        rate = "-" if row["hit_rate"] is None else fmt.pct(row["hit_rate"])
        table.add_row(
            row["combatant"], row["side"], rate,
            f"{row['damage_dealt_mean']:.1f}", f"{row['damage_taken_mean']:.1f}",
            fmt.pct(row["p_out"]), fmt.pct(row["p_dead"]),
        )  # fmt: skip
    _show(con, "Per combatant (means per fight)", table)
    for label in result.counter_labels():
        if any(row[f"{label}_mean"] for row in per):
            con.print(
                f"Mean {label} per fight: "
                + ", ".join(f"{r['combatant']} {r[f'{label}_mean']:.2f}" for r in per)
            )
    for spec in result.schema.categories if result.schema else ():
        counts = result.category_counts(spec.name)
        if not counts:
            continue
        names = [n for n in spec.labels if any(n in c for c in counts.values())]
        table = _table(["combatant", *names], right=names)
        for who, row in counts.items():
            total = sum(row.values())
            table.add_row(who, *[f"{100 * row.get(n, 0) / total:.0f}" for n in names])
        _show(con, f"{spec.description[:1].upper()}{spec.description[1:]} (% of all)", table)
    con.print(
        f"[dim]{result.trials / result.elapsed:,.0f} trials/s on {result.threads} threads[/dim]"
    )


def _pmf_table(con: Console, title: str, column: str, pmf: dict, rows: int) -> None:
    shown = pmf_rows(pmf, rows)
    table = _table([column, "probability", "P(at least)"], right=[column, "probability",
                                                                "P(at least)"])  # fmt: skip
    for row in shown:
        table.add_row(row.label, f"{row.probability:.6f}", f"{row.at_least:.6f}")
    _show(con, title, table)
    merged = [r for r in shown if r.merged > 1]
    if merged:
        held = "; ".join(
            f"'{r.label}' holds {fmt.pct(r.probability)} of the probability ({r.merged} outcomes)"
            for r in merged
        )
        con.print(
            f"{len(pmf)} outcomes in {len(shown)} rows: {held}. --rows N shows more, --json all."
        )


def render_attack(res, damage: str, knockback=None, rows: int = DEFAULT_ROWS) -> None:
    """P(hit) and the damage distribution of one attack.

    Parameters
    ----------
    res : AttackResult or AutofireResult
        An exact result (an autofire result adds the distribution of bullets that hit, and its
        damage is the total over all hits); with hit locations each location's probability is
        listed.
    damage : str
        ``"killing"`` or ``"stun"``, for the headline.
    knockback : Pmf, optional
        The knockback distribution in units, added as a table.
    rows : int
        The most rows of each distribution's table; outcomes past them are merged into one
        "N or more" row and a line says how much probability it holds.
    """
    con = _console()
    hits = getattr(res, "hits", None)
    total = "total " if hits is not None else ""
    con.print(
        f"P(hit) = {res.p_hit:.6f}; mean {total}{damage} damage after defences = {res.mean:.4f}"
    )
    if hits is not None:
        penalty = f", attack penalty -{res.penalty}" if res.penalty else ""
        con.print(f"{res.shots} shots{penalty}; mean bullets that hit = {hits.mean:.4f}")
        _pmf_table(con, "Bullets that hit (a miss counts 0)", "hits", hits.to_dict(), rows)
    title = "Total damage over all hits" if hits is not None else "Damage after defences"
    _pmf_table(con, f"{title} (a miss counts 0)", "damage", res.damage.to_dict(), rows)
    locations = getattr(res, "locations", None)
    if locations:
        table = _table(["location", "probability"], right=["probability"])
        for name, p in locations.items():
            table.add_row(name, f"{p:.6f}")
        _show(con, "Hit location (per hit)", table)
    if knockback is not None:
        con.print(f"mean knockback = {knockback.mean:.4f} units")
        _pmf_table(con, "Knockback (a miss counts 0)", "units", knockback.to_dict(), rows)


def render_catalog(kind: str, entries: list[dict], columns=None) -> None:
    """A catalogue as a table: ``columns`` (the system's choice of what a designer compares;
    default every key of the first entry), ``--json`` has every field."""
    con = _console()
    if not entries:
        con.print("(empty)")
        return
    cols = tuple(columns or entries[0])
    table = _table(cols)
    for e in entries:
        table.add_row(*["" if e.get(c) is None else str(e.get(c)) for c in cols])
    _show(con, f"Catalogue: {kind}", table)


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
    con = _console()
    con.print(f"[bold]{title}[/bold]")
    for key, value in answer.items():
        label = key.replace("_", " ")
        if isinstance(value, dict) and "pmf" in value:
            con.print(f"mean {label} = {value['mean']:.4f}")
            _pmf_table(con, f"{label.capitalize()} (a miss counts 0)", label, value["pmf"], rows)
        elif isinstance(value, dict) and all(isinstance(v, float) for v in value.values()):
            table = _table([label, "probability"], right=["probability"])
            for name, p in value.items():
                table.add_row(str(name), f"{p:.6f}")
            _show(con, label.capitalize(), table)
        elif isinstance(value, dict):
            con.print(f"{label}: " + ", ".join(f"{k} {v:g}" if isinstance(v, float) else
                                              f"{k} {v}" for k, v in value.items()))  # fmt: skip
        elif isinstance(value, float):
            con.print(f"{label} = {value:.6f}")
        else:
            con.print(f"{label}: {value}")


def render_exact(answer: dict) -> None:
    """The exact answer to a fight (``fuzion-sim exact``): who wins, the kill-time
    distribution."""
    con = _console()
    con.print(f"[bold]{answer['scenario']}[/bold] (exact: {answer.get('method', 'exact')})")
    table = _table(["outcome", "probability"], right=["probability"])
    for side, row in answer["sides"].items():
        table.add_row(f"{side} wins", f"{row['win_probability']:.6f}")
    table.add_row("draw", f"{answer['draw_probability']:.6f}")
    table.add_row("unresolved", f"{answer['unresolved_probability']:.6f}")
    _show(con, "Who wins", table)
    kt = answer["kill_time"]
    if kt["mean"] is not None:
        unit = kt["unit"]
        con.print(f"kill time (decisive fights): mean {kt['mean']:.6f} {unit}s, sd "
                  f"{kt['sd']:.6f}")  # fmt: skip
        _pmf_table(con, f"Kill time ({unit}s)", unit, kt["pmf"], DEFAULT_ROWS)


def render_comparison(cmp) -> None:
    """Variants side by side, paired differences with intervals, and the verdicts."""
    con = _console()
    first = cmp.results[0]
    crn = "common random numbers" if cmp.common_random_numbers else "independent seeds"
    con.print(f"[bold]{first.scenario}[/bold]  ({first.trials:,} trials per variant, {crn})")
    _show(con, "Variants", _frame_table(comparison_frame(cmp)))
    _show(con, "Differences from the baseline (95% intervals)",
          _frame_table(differences_frame(cmp)))  # fmt: skip
    note = tables.ks_note(cmp)
    if note:
        con.print(f"[dim]{note}[/dim]")
    for sentence in cmp.verdicts():
        con.print(f"[bold]Verdict:[/bold] {sentence}")


def render_sweep(table, keys: list[str], out_dir) -> None:
    """The sweep table: grid values, win probabilities, the unresolved share and the mean kill
    time, with intervals."""
    con = _console()
    _show(con, f"Sweep ({len(table)} points) -> {out_dir}", _frame_table(sweep_frame(table, keys)))


def render_balance(res) -> None:
    """The value found, the metric's estimate there, the bracketing pair and the search."""
    con = _console()
    for line in res.headline(markup=True):
        con.print(line)
    if not res.bracketed:
        con.print(
            f"[yellow]The target lies outside the range {res.low:g}:{res.high:g}; "
            "the closer end is reported.[/yellow]"
        )
    t = _table([res.param, res.label], right=[res.param, res.label])
    for v, e in res.steps:
        t.add_row(f"{v:g}", res.format_estimate(e))
    _show(con, "Search steps", t)
