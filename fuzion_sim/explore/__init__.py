"""A live what-if explorer: change a value of a scenario, see the answer refine.

``fuzion-sim explore SCENARIO`` serves a page on 127.0.0.1 (:mod:`.server`); the answers come
from :class:`~fuzion_sim.explore.session.Explorer`; the page's URL holds the change set
(:mod:`.state`).
"""

from __future__ import annotations

from .session import Explorer

__all__ = ["Explorer"]
