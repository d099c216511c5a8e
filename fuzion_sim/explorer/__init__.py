"""A live what-if explorer: change a value of a scenario, see the answer refine.

``fuzion-sim explore SCENARIO`` serves a page on 127.0.0.1 (:mod:`.server`); the answers come
from :class:`~fuzion_sim.explorer.session.Explorer`; the page's URL holds the change set
(:mod:`.state`). In a notebook, ``fz.explore("scenario.yaml")`` shows the same page
(:func:`fuzion_sim.explorer.notebook.explore`).
"""

from __future__ import annotations

__all__ = ["Explorer", "explore"]


def __getattr__(name: str):
    if name == "Explorer":  # on first use: it loads the simulation
        from .session import Explorer

        return Explorer
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def explore(scenario, **kwargs):
    """Show the explorer for ``scenario`` in a notebook (see
    :func:`fuzion_sim.explorer.notebook.explore` for the arguments)."""
    from .notebook import explore as show

    return show(scenario, **kwargs)
