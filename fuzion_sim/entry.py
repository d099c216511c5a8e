"""The ``fuzion-sim`` console script: imports the command only inside the Ctrl-C handling.

Importing numpy, numba and the kernels takes a second or two; a Ctrl-C (or a SIGTERM) then
ends the command like one at any other moment (``fuzion-sim: interrupted after 0 trials``,
exit status 130; 143 after SIGTERM) instead of with a traceback.
"""

from __future__ import annotations

import sys

__all__ = ["main"]


def main(argv=None) -> None:
    """Console-script entry point (see :func:`fuzion_sim.cli.main`)."""
    from . import _signals

    _signals.terminate_as_interrupt()
    try:
        from .cli import main as cli_main
    except BaseException as err:  # a Ctrl-C, or one an import wrapped in another error
        if not _signals.caused_by_interrupt(err):
            raise
        what = "terminated" if _signals.received() == _signals.signal.SIGTERM else "interrupted"
        sys.stderr.write(f"fuzion-sim: {what} after 0 trials\n")
        sys.exit(_signals.exit_status())
    cli_main(argv)


if __name__ == "__main__":
    main()
