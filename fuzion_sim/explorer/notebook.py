"""``fz.explore("scenario.yaml")`` in Jupyter: the explorer inside the notebook.

Where ipywidgets is installed, the explorer is a set of widgets in the kernel
(:mod:`fuzion_sim.explorer.widgets`): the same controls, the same exact-first answer and
refining estimate, no server, and it works wherever the notebook runs. Otherwise the kernel
serves the same page as ``fuzion-sim explore`` (on 127.0.0.1, a free port, a background thread)
and the notebook shows it in a frame, with its shareable URL; that needs no widget library, but
the browser showing the notebook must run on the kernel's machine (a local Jupyter).
"""

from __future__ import annotations

import html

from .server import ExploreServer, serve

__all__ = ["ExplorerView", "explore"]


class ExplorerView:
    """A running explorer shown in a notebook cell.

    Attributes
    ----------
    server : ExploreServer
    explorer : Explorer
        Its answers, also usable from code: ``view.explorer.answer({...})``.
    url : str
        The page's address (open it in a browser tab for a larger view).
    """

    def __init__(self, server: ExploreServer, height: int = 900):
        self.server = server
        self.explorer = server.explorer
        self.url = server.url
        self.height = int(height)

    def _repr_html_(self) -> str:
        src = html.escape(self.url, quote=True)
        return (f'<iframe src="{src}" width="100%" height="{self.height}" '
                f'style="border: 1px solid #ccd" title="fuzion-sim explore"></iframe>'
                f'<div><a href="{src}" target="_blank">{src}</a></div>')  # fmt: skip

    def __repr__(self) -> str:
        return f"ExplorerView({self.explorer.scenario.name!r} at {self.url})"

    def stop(self) -> None:
        """Stop serving and cancel any running estimate."""
        self.server.shutdown()
        self.server.server_close()


def _have_widgets() -> bool:
    try:
        import ipywidgets  # noqa: F401
    except ImportError:
        return False
    return True


def explore(scenario, port: int = 0, max_trials=None, threads=None, height: int = 900,
            widgets=None):  # fmt: skip
    """Explore ``scenario`` in the notebook: change a value, see the answer refine.

    Parameters
    ----------
    scenario : str, path, dict or Scenario
        The base scenario.
    port : int
        Port on 127.0.0.1 (0: a free one).
    max_trials : int, optional
        Most trials of one Monte Carlo estimate (default 262,144).
    threads : int, optional
        Worker threads (default: all cores).
    height : int
        The frame's height in pixels.
    widgets : bool, optional
        True: the widget view (needs ipywidgets); False: the served page in a frame; None
        (default): widgets where ipywidgets is installed. ``port`` and ``height`` concern
        only the frame.

    Returns
    -------
    ExplorerWidget or ExplorerView
        Displays the controls and answer; ``.close()`` (widgets) or ``.stop()`` (frame)
        ends it.

    Raises
    ------
    FuzionSimError
        A bad scenario or argument (``ArgumentError`` naming it and its range).
    """
    from ..errors import ArgumentError
    from ..limits import check_int

    check_int("port", port, 0, 65535)
    check_int("height", height, 100, 10_000)
    if widgets not in (None, True, False):
        raise ArgumentError(f"widgets must be true, false or None, got {widgets!r:.40}")
    if widgets is None:
        widgets = _have_widgets()
    if widgets:
        if not _have_widgets():
            raise ArgumentError("widgets=True needs ipywidgets (pip install ipywidgets)")
        from .widgets import explore_widgets

        return explore_widgets(scenario, max_trials=max_trials, threads=threads)
    server = serve(scenario, port=port, max_trials=max_trials, threads=threads)
    server.start()
    return ExplorerView(server, height)
