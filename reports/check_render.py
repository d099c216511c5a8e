"""Render report HTML in headless Chromium: check every image loads and take a screenshot.

Usage: python reports/check_render.py reports/NAME/index.html [...]
Writes reports/NAME/screenshot.png (not committed) and exits 1 if an image failed to load.
Needs chromium (``apt-get install -y chromium``); CI checks the embedded PNGs without it.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--no-first-run", "--virtual-time-budget=5000",
]  # fmt: skip
PROBE = """<script>window.addEventListener('load', () => {
  const imgs = [...document.images];
  const bad = imgs.filter(i => !(i.complete && i.naturalWidth > 0)).length;
  const d = document.createElement('div'); d.id = 'img-probe';
  d.textContent = `IMAGES ${imgs.length} BROKEN ${bad}`; document.body.appendChild(d);
});</script></body>"""


def check(html: Path, browser: str) -> bool:
    text = html.read_text()
    with tempfile.NamedTemporaryFile("w", suffix=".html", dir=html.parent, delete=False) as tmp:
        tmp.write(text.replace("</body>", PROBE, 1))
    probe = Path(tmp.name)
    try:
        dom = subprocess.run(
            [browser, *FLAGS, "--dump-dom", probe.resolve().as_uri()],
            capture_output=True, text=True, timeout=120,
        ).stdout  # fmt: skip
    finally:
        probe.unlink()
    shot = html.parent / "screenshot.png"
    subprocess.run(
        [browser, *FLAGS, f"--screenshot={shot.resolve()}", "--window-size=1200,3000",
         html.resolve().as_uri()],
        capture_output=True, timeout=120,
    )  # fmt: skip
    m = re.search(r"IMAGES (\d+) BROKEN (\d+)", dom)
    if not m:
        print(f"{html}: probe did not run")
        return False
    total, broken = int(m.group(1)), int(m.group(2))
    print(f"{html}: {total} images, {broken} broken; screenshot {shot}")
    return total > 0 and broken == 0


def main(paths: list[str]) -> int:
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser is None:
        print("chromium not found", file=sys.stderr)
        return 2
    ok = [check(Path(p), browser) for p in paths]
    return 0 if all(ok) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
