"""The analysis tests' fake results (``fake_result``), shared with the report tests."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

_spec = importlib.util.spec_from_file_location(
    "_fake_results", Path(__file__).resolve().parents[1] / "analysis" / "conftest.py"
)
_fake = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_fake)


@pytest.fixture
def fake_result():
    """Results made from counts (see ``tests/analysis/conftest.py``)."""
    return _fake.make_result
