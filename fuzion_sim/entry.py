"""The ``fuzion-sim`` console script: imports the command only inside the Ctrl-C handling.

Importing numpy, numba and the kernels takes a second or two; a Ctrl-C then ends the command
like one at any other moment (``fuzion-sim: interrupted after 0 trials``, exit status 130)
instead of with a traceback.
"""

from __future__ import annotations

import sys

__all__ = ["main"]


def main(argv=None) -> None:
    """Console-script entry point (see :func:`fuzion_sim.cli.main`)."""
    try:
        from .cli import main as cli_main
    except KeyboardInterrupt:
        sys.stderr.write("fuzion-sim: interrupted after 0 trials\n")
        sys.exit(130)
    cli_main(argv)
