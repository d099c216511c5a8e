"""A live what-if explorer: change a value of a scenario, see the answer refine.

``fuzion-sim explore SCENARIO`` serves a page on 127.0.0.1 (:mod:`.server`); the answers come
from :class:`~fuzion_sim.explore.session.Explorer`; the page's URL holds the change set
(:mod:`.state`). In a notebook, ``fz.explore("scenario.yaml")`` shows the same page
(:func:`fuzion_sim.explore.notebook.explore`): this package is callable, because
``fuzion_sim.explore`` names the package once it is imported, so the call must work on it.
"""

from __future__ import annotations

import sys
import types

from .session import Explorer

__all__ = ["Explorer", "explore"]


def explore(scenario, **kwargs):
    """Show the explorer for ``scenario`` in a notebook (see
    :func:`fuzion_sim.explore.notebook.explore` for the arguments)."""
    from .notebook import explore as show

    return show(scenario, **kwargs)


class _CallableModule(types.ModuleType):
    def __call__(self, scenario, **kwargs):
        return explore(scenario, **kwargs)


sys.modules[__name__].__class__ = _CallableModule
