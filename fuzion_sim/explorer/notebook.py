"""``fz.explore("scenario.yaml")`` in Jupyter: the explorer's page inside the notebook.

The kernel serves the same page as ``fuzion-sim explore`` (on 127.0.0.1, a free port, a
background thread) and the notebook shows it in a frame: the same controls, the same
exact-first answer and refining estimate, the same shareable URL. It needs no widget library;
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


def explore(scenario, port: int = 0, max_trials=None, threads=None, height: int = 900):
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

    Returns
    -------
    ExplorerView
        Displays the page; ``.stop()`` ends it.

    Raises
    ------
    FuzionSimError
        A bad scenario or argument (``ArgumentError`` naming it and its range).
    """
    from ..limits import check_int

    check_int("port", port, 0, 65535)
    check_int("height", height, 100, 10_000)
    server = serve(scenario, port=port, max_trials=max_trials, threads=threads)
    server.start()
    return ExplorerView(server, height)
