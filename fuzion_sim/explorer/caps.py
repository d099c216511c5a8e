"""The explorer's caps on the work one page can ask for (kept apart so the command's options
are defined without loading the simulation)."""

from __future__ import annotations

__all__ = ["DEFAULT_MAX_TRIALS", "MAX_TRIALS_LIMIT"]

#: The default and the largest cap on one estimate's trials.
DEFAULT_MAX_TRIALS = 1 << 18
MAX_TRIALS_LIMIT = 1 << 24
