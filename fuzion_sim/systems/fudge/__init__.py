"""FUDGE Firearms (seed 003) as a rule system, with the rooms every system has: model and
catalogue (``model.py``, ``build.py``, ``consistency.py``, ``catalogue.py``, ``data/``), the
dice and tables (``dice.py``, ``tables.py``, ``damage.py``), ``compile.py``, ``rules.py``, the
kernels (``kernel.py``, ``kernel_duel.py``, chosen by ``dispatch.py``), ``exact.py`` and
``oracle.py`` (exact answers), ``narrate.py`` (replays); ``system.py`` puts them behind the
RuleSystem interface.
"""

from __future__ import annotations

from .system import SYSTEM

__all__ = ["SYSTEM"]
