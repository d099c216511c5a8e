"""``fuzion-sim explore SCENARIO``: serve the live what-if explorer on 127.0.0.1."""

from __future__ import annotations

import click

from ..cli_common import _base, _Command, _override_options
from ..limits import MAX_TRIALS
from .caps import MAX_TRIALS_LIMIT

__all__ = ["explore"]


@click.command(cls=_Command)
@click.argument("scenario")
@click.option("--port", type=click.IntRange(0, 65535), default=8737, show_default=True,
              help="Port on 127.0.0.1 (0: any free port).")  # fmt: skip
@click.option("--no-browser", is_flag=True, help="Do not open a browser.")
@click.option("--max-trials", type=click.IntRange(1, min(MAX_TRIALS, MAX_TRIALS_LIMIT)),
              help="Most trials of one Monte Carlo estimate (default 262,144).")  # fmt: skip
@click.option("--threads", type=click.IntRange(1, 1024),
              help="Worker threads (default: all cores).")  # fmt: skip
@click.option("--verbose", is_flag=True, help="Log every request.")
@_override_options
def explore(scenario, overrides, port, no_browser, max_trials, threads, verbose):
    """Serve a page where changing a value of SCENARIO shows the answer at once: exact where
    the rule system has one, else a Monte Carlo estimate refining in the background, with the
    paired difference from SCENARIO. The page's URL holds the changes; "Save YAML" writes the
    changed scenario. Listens on 127.0.0.1 only; Ctrl-C stops it."""
    from ..errors import FuzionSimError
    from .server import serve

    base = _base(scenario, overrides)[0]  # its warnings printed
    try:
        server = serve(base, port=port, max_trials=max_trials, threads=threads,
                       verbose=verbose)  # fmt: skip
    except OSError as err:
        raise FuzionSimError(f"--port {port}: cannot listen on 127.0.0.1: {err.strerror}") from None
    click.echo(f"fuzion-sim explore: {server.url} (Ctrl-C to stop)", err=True)
    if not no_browser:
        import webbrowser

        webbrowser.open(server.url)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        click.echo("fuzion-sim explore: stopped", err=True)
    finally:
        server.server_close()
