"""Execute the notebooks (CI and ``make notebooks``).

Usage: python notebooks/run.py [--inplace] [NOTEBOOK ...]

Runs each notebook with nbclient on the ``python3`` kernel from the current interpreter, with
its working directory set to ``notebooks/``. ``--inplace`` writes the outputs back (what
``make notebooks`` does); otherwise the notebooks are only executed (a failing cell raises).
Trial counts come from the notebooks' parameter cell: ``FUZION_NB_TRIALS`` overrides them.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
NOTEBOOKS = (
    "hero-vs-interlock.ipynb",
    "weapon-armour-tuning.ipynb",
    "autofire-ratios.ipynb",
    "run-until-decided.ipynb",
    "balance-tables.ipynb",
    "sensitivity.ipynb",
    "trade-offs.ipynb",
)


def execute(path: Path, inplace: bool = False, timeout: int = 300):
    """Execute one notebook; return the executed NotebookNode."""
    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(
        nb, timeout=timeout, kernel_name="python3", resources={"metadata": {"path": str(HERE)}}
    )
    client.execute()
    if inplace:
        nbformat.write(nb, path)
    return nb


def main(argv: list[str]) -> int:
    inplace = "--inplace" in argv
    names = [a for a in argv if not a.startswith("--")] or list(NOTEBOOKS)
    for name in names:
        path = Path(name) if Path(name).exists() else HERE / name
        execute(path, inplace=inplace)
        print(f"executed {path}{' (outputs written)' if inplace else ''}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
