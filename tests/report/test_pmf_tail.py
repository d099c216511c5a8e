"""``exact`` and ``attack`` never print a row that reads 0.000000: the outcomes too rare to
print are one row holding the mass left."""

from __future__ import annotations

import pytest

from fuzion_sim.pmf_rows import format_probability, pmf_rows

#: A kill time like the benchmark duel's exact one: phases 13 to 19 each far below 1e-6.
DUEL = {2: 0.02, 3: 0.11, 4: 0.2, 5: 0.22, 6: 0.18, 7: 0.12, 8: 0.07, 9: 0.04, 10: 0.02,
        11: 0.0099, 12: 0.000099, 13: 3e-7, 14: 4e-8, 15: 5e-9, 16: 6e-10, 17: 7e-11,
        18: 8e-12, 19: 9e-13}  # fmt: skip


def test_rare_tail_is_one_row_with_its_mass():
    rows = pmf_rows(DUEL, rows=30)
    assert [r.label for r in rows][-1] == "13 or more"
    assert len(rows) == 12
    last = rows[-1]
    assert last.merged == 7
    assert last.probability == pytest.approx(sum(p for t, p in DUEL.items() if t >= 13))
    assert rows[0].at_least == pytest.approx(sum(DUEL.values()))
    assert all(format_probability(r.probability) != "0.000000" for r in rows)


def test_a_printable_outcome_keeps_its_row():
    pmf = {0: 0.5, 1: 0.2, 2: 1e-9, 3: 0.3}
    assert [r.label for r in pmf_rows(pmf)] == ["0", "1", "2", "3"]
    assert format_probability(1e-9) == "1.0e-09"
    assert format_probability(0.0) == "0.000000"


def test_exact_table_prints_no_zero_rows(capsys, monkeypatch):
    from fuzion_sim.report.text import render_exact

    monkeypatch.setenv("COLUMNS", "100")
    render_exact({"scenario": "duel", "sides": {"A": {"win_probability": 0.6},
                                                "B": {"win_probability": 0.4}},
                  "draw_probability": 0.0, "unresolved_probability": 0.0,
                  "kill_time": {"unit": "phase", "mean": 5.0, "sd": 1.9,
                                "pmf": {str(k): v for k, v in DUEL.items()}}})  # fmt: skip
    out = capsys.readouterr().out
    table = out.split("Kill time")[1]
    assert "13 or more" in table
    assert "0.000000" not in table
