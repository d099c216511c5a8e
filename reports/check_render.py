"""Render report HTML in headless Chromium: tables must fit the page, images must load.

Usage: python reports/check_render.py [--shots DIR] reports/NAME/index.html [...]

For each page and each width (1280 and 600 px) a probe script measures, after the page has
loaded, whether any table runs past the page or any cell past its table (``scrollWidth >
clientWidth``), whether the page scrolls sideways, and whether every image decoded
(``naturalWidth > 0``). ``--shots DIR`` also saves a screenshot of the first screen at each width
(``DIR/<report>-<width>.png``). Exits 1 when a page fails, 2 when Chromium is missing
(``apt-get install -y chromium``; ``make test`` installs it). ``tests/test_report.py`` runs the
same check.
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
HEIGHT = 900
FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--hide-scrollbars", "--virtual-time-budget=5000",
]  # fmt: skip
PROBE = """<script>window.addEventListener('load', () => {
  const root = document.documentElement, vw = root.clientWidth, slack = 1;
  const out = {width: vw, page_overflow: root.scrollWidth > vw + slack, tables: [], images: []};
  document.querySelectorAll('table').forEach((t, i) => {
    const r = t.getBoundingClientRect();
    const cells = [...t.querySelectorAll('td, th')]
      .filter(c => c.scrollWidth > c.clientWidth + slack).length;
    const head = t.querySelector('th');
    out.tables.push({index: i, head: head ? head.textContent : '', right: r.right,
      overflow: r.left < -slack || r.right > vw + slack || t.scrollWidth > t.clientWidth + slack
        || cells > 0, cells_overflowing: cells});
  });
  [...document.images].forEach((im, i) => out.images.push({index: i, alt: im.alt,
    ok: im.complete && im.naturalWidth > 0, shown: im.getBoundingClientRect().width,
    overflow: im.getBoundingClientRect().right > vw + slack}));
  const pre = document.createElement('pre'); pre.id = 'fz-probe';
  pre.textContent = JSON.stringify(out); document.body.appendChild(pre);
});</script>"""


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


def probe(html: Path, width: int, browser: str, height: int = HEIGHT) -> dict:
    """Load ``html`` at ``width`` x ``height`` and measure its tables and images.

    Parameters
    ----------
    html : pathlib.Path
        The page (a copy with the probe script is written beside it, so relative links and
        images resolve as in the original, and removed afterwards).
    width, height : int
        The window size in CSS pixels.
    browser : str
        The Chromium executable.

    Returns
    -------
    dict
        ``width`` (the page's client width), ``page_overflow``, ``tables`` (each with
        ``overflow``), ``images`` (each with ``ok``).
    """
    html = Path(html)
    text = html.read_text()
    text = text.replace("</body>", PROBE + "</body>", 1) if "</body>" in text else text + PROBE
    with tempfile.NamedTemporaryFile("w", suffix=".html", dir=html.parent, delete=False) as tmp:
        tmp.write(text)
    page = Path(tmp.name)
    try:
        dom = _chromium(browser, [f"--window-size={width},{height}", "--dump-dom",
                                  page.resolve().as_uri()]).stdout  # fmt: skip
    finally:
        page.unlink()
    m = re.search(r'<pre id="fz-probe">(.*?)</pre>', dom, re.S)
    if not m:
        raise RuntimeError(f"{html}: the probe did not run (Chromium printed {dom[:200]!r})")
    return json.loads(unescape(m.group(1)))


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
    if abs(result["width"] - width) > 20:
        out.append(f"laid out {result['width']} px wide, not {width}")
    if result["page_overflow"]:
        out.append("the page scrolls sideways")
    for t in result["tables"]:
        if t["overflow"]:
            out.append(f"table {t['index']} ({t['head']!r}...) runs past the page "
                       f"({t['cells_overflowing']} cells overflow)")  # fmt: skip
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
    failed = False
    for name in argv:
        html = Path(name)
        for width in WIDTHS:
            found = problems(probe(html, width, browser), width)
            print(f"{html} at {width} px: {'; '.join(found) if found else 'ok'}")
            failed = failed or bool(found)
            if shots is not None:
                screenshot(html, width, shots / f"{html.parent.name}-{width}.png", browser)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
