"""Render report HTML in headless Chromium: tables must fit the page, images must load.

Usage: python reports/check_render.py [--shots DIR] reports/NAME/index.html [...]

Every page is loaded at each width (1280 and 600 px), each in an iframe of that width, all in
one Chromium; a probe script measures, once everything has loaded, whether any table runs past
the page or any cell past its table (``scrollWidth > clientWidth``), whether a table cell
breaks a word across lines at the wide width (a word's range laid out on two lines: "secur /
ity"; a name may wrap after a ``_`` or ``/``), whether the page scrolls sideways, and whether
every image decoded (``naturalWidth > 0``). ``--shots DIR`` also saves a
screenshot of the first screen at each width (``DIR/<report>-<width>.png``). Exits 1 when a
page fails, 2 when Chromium is missing (``apt-get install -y chromium``; ``make test`` installs
it). ``tests/test_report.py`` runs the same check.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import tempfile
from html import unescape
from pathlib import Path

WIDTHS = (1280, 600)
#: From this width up a table cell must never break a word across lines.
WHOLE_WORDS_FROM = 1000
HEIGHT = 900
FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--hide-scrollbars", "--virtual-time-budget=5000",
]  # fmt: skip
#: Measures one document laid out in its own viewport (an iframe of the width asked for).
MEASURE = """function measure(doc) {
  const root = doc.documentElement, vw = root.clientWidth, slack = 1;
  const out = {width: vw, page_overflow: root.scrollWidth > vw + slack, tables: [], images: [],
    broken_words: []};
  const walker = doc.createTreeWalker(doc.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.parentElement || !node.parentElement.closest('td, th')) continue;
    const re = /[^\\s_/]+/g; let m;  // a word ends at a space, _ or /
    while ((m = re.exec(node.data)) !== null) {
      if (m[0].length < 2) continue;
      const range = doc.createRange();
      range.setStart(node, m.index); range.setEnd(node, m.index + m[0].length);
      const tops = new Set([...range.getClientRects()].filter(r => r.width > 0)
        .map(r => Math.round(r.top)));
      if (tops.size > 1) out.broken_words.push(m[0]);
    }
  }
  doc.querySelectorAll('table').forEach((t, i) => {
    const r = t.getBoundingClientRect();
    const cells = [...t.querySelectorAll('td, th')]
      .filter(c => c.scrollWidth > c.clientWidth + slack).length;
    const head = t.querySelector('th');
    out.tables.push({index: i, head: head ? head.textContent : '', right: r.right,
      overflow: r.left < -slack || r.right > vw + slack || t.scrollWidth > t.clientWidth + slack
        || cells > 0, cells_overflowing: cells});
  });
  [...doc.images].forEach((im, i) => out.images.push({index: i, alt: im.alt,
    ok: im.complete && im.naturalWidth > 0, shown: im.getBoundingClientRect().width,
    overflow: im.getBoundingClientRect().right > vw + slack}));
  return out;
}"""
#: The wrapper page: every (page, width) in an iframe of that width, measured once all loaded.
WRAPPER = """<!DOCTYPE html><html><body>{frames}<script>{measure}
window.addEventListener('load', () => {{
  const out = [...document.querySelectorAll('iframe')].map(f => {{
    try {{ return measure(f.contentDocument); }} catch (e) {{ return {{error: String(e)}}; }}
  }});
  const pre = document.createElement('pre'); pre.id = 'fz-probe';
  pre.textContent = JSON.stringify(out); document.body.appendChild(pre);
}});</script></body></html>"""


def find_browser() -> str | None:
    """The Chromium executable on PATH (Debian's ``chromium``), or None."""
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


def _chromium(browser: str, args: list[str], timeout: int = 60) -> subprocess.CompletedProcess:
    with tempfile.TemporaryDirectory(prefix="fz-chromium-") as profile:
        return subprocess.run(
            [browser, *FLAGS, f"--user-data-dir={profile}", *args],
            capture_output=True, text=True, timeout=timeout,
        )  # fmt: skip


def probe_many(pages: list[tuple[Path, int]], browser: str, height: int = HEIGHT) -> list[dict]:
    """Load every page at its width in one Chromium and measure its tables and images.

    Parameters
    ----------
    pages : list of (pathlib.Path, int)
        The pages and the width (CSS pixels) to lay each out at: each goes in an iframe of
        that width, whose media queries and layout are the page's at that window width.
    browser : str
        The Chromium executable.
    height : int
        The iframes' height.

    Returns
    -------
    list of dict
        Per page, in order: ``width`` (its client width), ``page_overflow``, ``tables`` (each
        with ``overflow``), ``images`` (each with ``ok``).
    """
    frames = "".join(
        f'<iframe src="{Path(p).resolve().as_uri()}" style="display:block;border:0;'
        f'width:{w}px;height:{height}px"></iframe>'
        for p, w in pages
    )
    with tempfile.TemporaryDirectory(prefix="fz-probe-") as tmp:
        wrapper = Path(tmp) / "probe.html"
        wrapper.write_text(WRAPPER.format(frames=frames, measure=MEASURE))
        dom = _chromium(browser, ["--allow-file-access-from-files", "--window-size=1400,900",
                                  "--dump-dom", wrapper.as_uri()]).stdout  # fmt: skip
    m = re.search(r'<pre id="fz-probe">(.*?)</pre>', dom, re.S)
    if not m:
        raise RuntimeError(f"the probe did not run (Chromium printed {dom[:200]!r})")
    results = json.loads(unescape(m.group(1)))
    for (page, _w), res in zip(pages, results, strict=True):
        if "error" in res:
            raise RuntimeError(f"{page}: cannot measure it: {res['error']}")
    return results


def probe(html: Path, width: int, browser: str, height: int = HEIGHT) -> dict:
    """:func:`probe_many` for one page at one width."""
    return probe_many([(html, width)], browser, height)[0]


def problems(result: dict, width: int) -> list[str]:
    """What is wrong with a probe's measurements (empty when the page passes).

    Parameters
    ----------
    result : dict
        What :func:`probe` returned.
    width : int
        The width asked for (the page must have been laid out at it).

    Returns
    -------
    list of str
    """
    out = []
    if abs(result["width"] - width) > 20:  # a vertical scrollbar takes up to 20 px
        out.append(f"laid out {result['width']} px wide, not {width}")
    if result["page_overflow"]:
        out.append("the page scrolls sideways")
    for t in result["tables"]:
        if t["overflow"]:
            out.append(f"table {t['index']} ({t['head']!r}...) runs past the page "
                       f"({t['cells_overflowing']} cells overflow)")  # fmt: skip
    broken = result.get("broken_words") or []
    if broken and width >= WHOLE_WORDS_FROM:
        shown = ", ".join(repr(w) for w in broken[:5])
        out.append(f"{len(broken)} words broken across lines in table cells ({shown})")
    for im in result["images"]:
        if not im["ok"]:
            out.append(f"image {im['index']} ({im['alt'][:60]!r}) did not load")
        elif im["overflow"]:
            out.append(f"image {im['index']} is wider than the page")
    return out


def screenshot(html: Path, width: int, out: Path, browser: str, height: int = HEIGHT) -> Path:
    """Save the first screen of ``html`` at ``width`` x ``height`` as a PNG at ``out``."""
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    _chromium(browser, [f"--window-size={width},{height}", f"--screenshot={out.resolve()}",
                        Path(html).resolve().as_uri()])  # fmt: skip
    return out


def main(argv: list[str]) -> int:
    shots = None
    if "--shots" in argv:
        i = argv.index("--shots")
        shots = Path(argv[i + 1])
        argv = argv[:i] + argv[i + 2 :]
    browser = find_browser()
    if browser is None:
        print("chromium not found (apt-get install -y chromium)", file=sys.stderr)
        return 2
    pages = [(Path(name), width) for name in argv for width in WIDTHS]
    failed = False
    for (html, width), result in zip(pages, probe_many(pages, browser), strict=True):
        found = problems(result, width)
        print(f"{html} at {width} px: {'; '.join(found) if found else 'ok'}")
        failed = failed or bool(found)
        if shots is not None:
            screenshot(html, width, shots / f"{html.parent.name}-{width}.png", browser)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
