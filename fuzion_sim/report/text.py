"""Readable terminal output for the CLI (rich tables; plain text when not a terminal)."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table

__all__ = [
    "render_result",
    "render_attack",
    "render_catalog",
    "render_comparison",
    "render_sweep",
    "render_balance",
]


def _console() -> Console:
    return Console(highlight=False)


def _pct(p: float) -> str:
    return f"{100 * p:.1f}%"


def render_result(result) -> None:
    """Win probabilities with 95% intervals, and the kill-time distribution."""
    con = _console()
    con.print(
        f"[bold]{result.scenario}[/bold]  ({result.system}, {result.trials:,} trials, "
        f"seed {result.seed}, dice {result.rules.get('dice')})"
    )
    wins = Table(title="Who wins", title_justify="left")
    wins.add_column("side")
    wins.add_column("win probability", justify="right")
    wins.add_column("95% interval", justify="right")
    for side in result.sides:
        lo, hi = result.win_interval(side)
        wins.add_row(side, _pct(result.win_probability(side)), f"{_pct(lo)} - {_pct(hi)}")
    if result.draw_probability:
        wins.add_row("draw", _pct(result.draw_probability), "")
    if result.unresolved_probability:
        wins.add_row("unresolved", _pct(result.unresolved_probability), "")
    con.print(wins)
    kt = result.kill_time()
    if kt["n"]:
        unit = kt["unit"]
        secs = result.time_unit["seconds"]
        table = Table(
            title=f"How long it takes (decisive fights, in {unit}s)", title_justify="left"
        )
        table.add_column("")
        table.add_column(f"{unit}s", justify="right")
        table.add_column("seconds", justify="right")
        table.add_row(
            "mean", f"{kt['mean']:.2f} ± {1.96 * kt['se']:.2f}", f"{kt['mean'] * secs:.1f}"
        )
        table.add_row("sd", f"{kt['sd']:.2f}", f"{kt['sd'] * secs:.1f}")
        for q, v in kt["quantiles"].items():
            label = "median" if q == "0.5" else f"{float(q) * 100:g}th percentile"
            table.add_row(label, str(v), f"{v * secs:g}")
        con.print(table)
    per = result.combatant_stats()
    table = Table(title="Per combatant (means per fight)", title_justify="left")
    for col in ("combatant", "side", "hit rate", "damage dealt", "damage taken", "out", "dead"):
        table.add_column(col, justify="left" if col in ("combatant", "side") else "right")
    for row in per:
        rate = "-" if row["hit_rate"] is None else _pct(row["hit_rate"])
        table.add_row(
            row["combatant"], row["side"], rate,
            f"{row['damage_dealt_mean']:.1f}", f"{row['damage_taken_mean']:.1f}",
            _pct(row["p_out"]), _pct(row["p_dead"]),
        )  # fmt: skip
    con.print(table)
    if any(row["knockback_mean"] for row in per):
        con.print(
            "Knockback taken (units per fight): "
            + ", ".join(f"{r['combatant']} {r['knockback_mean']:.2f}" for r in per)
        )
    locations = result.hits_by_location()
    if locations:
        names = result.provenance.get("location_names") or list(next(iter(locations.values())))
        table = Table(title="Hits taken by location (% of hits)", title_justify="left")
        table.add_column("combatant")
        for name in names:
            table.add_column(name, justify="right")
        for who, counts in locations.items():
            total = sum(counts.values())
            table.add_row(who, *[f"{100 * counts.get(n, 0) / total:.0f}" for n in names])
        con.print(table)
    con.print(
        f"[dim]{result.trials / result.elapsed:,.0f} trials/s on {result.threads} threads[/dim]"
    )


def _pmf_table(title: str, column: str, pmf: dict[str, float]) -> Table:
    table = Table(title=title, title_justify="left")
    table.add_column(column, justify="right")
    table.add_column("probability", justify="right")
    table.add_column("P(at least)", justify="right")
    tail = 1.0
    for value, p in pmf.items():
        table.add_row(value, f"{p:.6f}", f"{max(0.0, tail):.6f}")
        tail -= p
    return table


def render_attack(res, damage: str, knockback=None) -> None:
    """P(hit) and the damage distribution of one attack.

    ``res`` is an exact ``AttackResult`` or ``AutofireResult`` (which adds the distribution of
    bullets that hit, and whose damage is the total over all hits); with hit locations each
    location's probability is listed; ``knockback`` (a Pmf in units) adds its distribution.
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
        con.print(_pmf_table("Bullets that hit (a miss counts 0)", "hits", hits.to_dict()))
    title = "Total damage over all hits" if hits is not None else "Damage after defences"
    con.print(_pmf_table(f"{title} (a miss counts 0)", "damage", res.damage.to_dict()))
    locations = getattr(res, "locations", None)
    if locations:
        table = Table(title="Hit location (per hit)", title_justify="left")
        table.add_column("location")
        table.add_column("probability", justify="right")
        for name, p in locations.items():
            table.add_row(name, f"{p:.6f}")
        con.print(table)
    if knockback is not None:
        con.print(f"mean knockback = {knockback.mean:.4f} units")
        con.print(_pmf_table("Knockback (a miss counts 0)", "units", knockback.to_dict()))


def render_catalog(kind: str, entries: list[dict]) -> None:
    """A catalogue as a table (the columns a designer compares; ``--json`` has every field)."""
    con = _console()
    if not entries:
        con.print("(empty)")
        return
    cols = {
        "weapons": ("name", "skill", "kind", "damage", "dc", "accuracy", "range", "rof", "min_str"),
        "armor": ("name", "category", "pd", "ekd", "description"),
    }.get(kind, tuple(entries[0]))
    table = Table(title=f"Catalogue: {kind}", title_justify="left")
    for col in cols:
        table.add_column(col, no_wrap=col == "name")
    for e in entries:
        table.add_row(*["" if e.get(c) is None else str(e.get(c)) for c in cols])
    con.print(table)


def _ci_text(ci, scale: float = 1.0, fmt: str = "{:.2f}") -> str:
    if ci is None or ci[0] is None:
        return ""
    return f"{fmt.format(ci[0] * scale)} to {fmt.format(ci[1] * scale)}"


def render_comparison(cmp) -> None:
    """Variants side by side, paired differences with intervals, and the verdicts."""
    con = _console()
    first = cmp.results[0]
    crn = "common random numbers" if cmp.common_random_numbers else "independent seeds"
    con.print(f"[bold]{first.scenario}[/bold]  ({first.trials:,} trials per variant, {crn})")
    table = Table(title="Variants", title_justify="left")
    table.add_column("#", justify="right")
    table.add_column("variant")
    for side in first.sides:
        table.add_column(f"P({side} wins), 95% interval", justify="right")
    table.add_column(f"mean kill time ({first.time_unit['unit']}s)", justify="right")
    table.add_column("median", justify="right")
    for i, (label, res) in enumerate(zip(cmp.labels, cmp.results, strict=True)):
        cells = []
        for side in res.sides:
            lo, hi = res.win_interval(side)
            cells.append(f"{_pct(res.win_probability(side))} ({_pct(lo)}-{_pct(hi)})")
        kt = res.kill_time_summary()
        mean = "-" if kt["mean"] is None else f"{kt['mean']:.2f} ± {1.96 * kt['se']:.2f}"
        med = "-" if kt["mean"] is None else f"{kt['quantiles']['0.5']['value']:g}"
        table.add_row(str(i), label, *cells, mean, med)
    con.print(table)
    diff = Table(title="Differences (b minus a, 95% intervals)", title_justify="left")
    for col in ("b - a", "quantity", "difference", "95% interval", "test / p"):
        diff.add_column(col, justify="left" if col in ("b - a", "quantity") else "right")
    for d in cmp.differences:
        pair = f"{cmp.labels[d['b']]} - {cmp.labels[d['a']]}"
        for side, w in d["win_probability"].items():
            diff.add_row(pair, f"P({side} wins)", f"{100 * w['diff']:+.2f} pts",
                         _ci_text(w["ci95"], 100, "{:+.2f}"), "")  # fmt: skip
        for q, name in (("kill_time_mean", "mean kill time"), ("kill_time_median", "median")):
            v = d[q]
            if v["diff"] is not None:
                diff.add_row(pair, name, f"{v['diff']:+.2f}", _ci_text(v["ci95"], 1, "{:+.2f}"), "")
        t = d["kill_time_test"]
        if t["p_value"] is not None:
            diff.add_row(
                pair, "kill-time distributions", "", "", f"{t['name']}: p={t['p_value']:.3g}"
            )
    con.print(diff)
    for sentence in cmp.verdicts():
        con.print(f"[bold]Verdict:[/bold] {sentence}")


def render_sweep(table, keys: list[str], out_dir) -> None:
    """The sweep table (grid values, win probabilities, unresolved share, mean kill time)."""
    con = _console()
    cols = [*keys, *[c for c in table.columns if c.startswith("win_probability.")],
            *[c for c in ("unresolved_probability",) if c in table.columns],
            "kill_time_mean"]  # fmt: skip
    t = Table(title=f"Sweep ({len(table)} points) -> {out_dir}", title_justify="left")
    for c in cols:
        t.add_column(c, justify="right")
    for row in table[cols].itertuples(index=False):
        t.add_row(*[f"{v:.3f}" if isinstance(v, float) else str(v) for v in row])
    con.print(t)


def render_balance(res) -> None:
    """The value found, its win probability and the search steps."""
    con = _console()
    lo, hi = res.ci95
    con.print(
        f"[bold]{res.param} = {res.value:g}[/bold] gives P({res.side} wins) = "
        f"{_pct(res.win_probability)} ({_pct(lo)}-{_pct(hi)}), target {_pct(res.target)} "
        f"({res.trials:,} trials per step, seed {res.seed})"
    )
    if not res.bracketed:
        con.print(
            f"[yellow]The target lies outside the range {res.low:g}:{res.high:g}; "
            "the closer end is reported.[/yellow]"
        )
    t = Table(title="Search steps", title_justify="left")
    t.add_column(res.param, justify="right")
    t.add_column(f"P({res.side} wins)", justify="right")
    for v, p in res.steps:
        t.add_row(f"{v:g}", _pct(p))
    con.print(t)
