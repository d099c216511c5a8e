"""The colour-result superhero system (seeds 004 and 002) as a rule system, ``system:
colour``, with the rooms every system has: model and catalogue (``model.py``, ``build.py``,
``ranks.py``, ``ladder.py``, ``catalogue.py``, ``data/``), ``compile.py`` and ``tables.py``,
the rules (``rules.py``, ``strike.py``, ``fate.py``), the kernels (``kernel.py`` with
``actions.py`` and ``manoeuvres.py``; ``kernel_duel.py``, chosen by ``dispatch.py``),
``exact.py`` (exact answers), ``narrate.py`` (replays); ``system.py`` puts them behind the
RuleSystem interface.
"""

from __future__ import annotations

from .system import SYSTEM

__all__ = ["SYSTEM"]
