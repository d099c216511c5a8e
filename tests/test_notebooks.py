"""The notebooks run end to end on small trial counts (ARCHITECTURE rule 9)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")


def _runner():
    spec = importlib.util.spec_from_file_location("nb_run", ROOT / "notebooks" / "run.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


#: Each notebook and the trials it runs with here (the studies' run many fights each).
NOTEBOOKS = {
    "hero-vs-interlock.ipynb": 4000, "weapon-armour-tuning.ipynb": 4000,
    "autofire-ratios.ipynb": 4000, "run-until-decided.ipynb": 2000,
    "balance-tables.ipynb": 2000, "sensitivity.ipynb": 2000, "trade-offs.ipynb": 2000,
}  # fmt: skip


@pytest.mark.parametrize("name", list(NOTEBOOKS))
def test_notebook_executes(name, monkeypatch):
    monkeypatch.setenv("FUZION_NB_TRIALS", str(NOTEBOOKS[name]))
    # The kernel must be this interpreter (the venv): put it first on PATH for kernel lookup.
    monkeypatch.setenv("PATH", str(Path(sys.executable).parent), prepend=":")
    nb = _runner().execute(ROOT / "notebooks" / name, inplace=False, timeout=120)
    errors = [
        out for cell in nb.cells if cell.cell_type == "code"
        for out in cell.get("outputs", []) if out.get("output_type") == "error"
    ]  # fmt: skip
    assert not errors
