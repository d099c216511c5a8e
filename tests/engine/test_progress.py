"""The terminal's notices: the compile notice appears only when loading the kernels is slow."""

import io
import time

from fuzion_sim.engine.progress import COMPILING, compiling_notice


class Terminal(io.StringIO):
    def isatty(self):
        return True


def test_a_slow_first_load_says_it_is_compiling_and_how_long_it_took():
    out = Terminal()
    with compiling_notice(stream=out, delay=0.05):
        time.sleep(0.3)
    lines = out.getvalue().splitlines()
    assert lines[0] == COMPILING
    assert lines[1].startswith("compiled in ")


def test_a_cache_hit_says_nothing():
    out = Terminal()
    with compiling_notice(stream=out, delay=5.0):
        pass
    assert out.getvalue() == ""


def test_nothing_off_a_terminal_or_when_switched_off():
    piped = io.StringIO()
    with compiling_notice(stream=piped, delay=0.0):
        time.sleep(0.1)
    assert piped.getvalue() == ""
    out = Terminal()
    with compiling_notice(False, stream=out, delay=0.0):
        time.sleep(0.1)
    assert out.getvalue() == ""
