"""The explorer's web server: the standard library's threading HTTP server on 127.0.0.1.

One page (``static/index.html`` with its script and style, no build step, nothing fetched from
elsewhere) and a few JSON endpoints over one :class:`~fuzion_sim.explorer.session.Explorer`:

- ``GET /api/controls``: the controls, built from the system's JSON Schema;
- ``POST /api/answer`` with ``{"changes": {path: text, ...}, "mc": false}``: a one-line error,
  the exact answer, or the id of a refining Monte Carlo job;
- ``GET /api/job?id=ID``: the job's latest stage (trials, intervals, plots, paired difference);
- ``GET /api/yaml?<the page's query>``: the changed scenario as a YAML download.

Safe by default: it listens on the loopback address only, answers only requests whose
``Host`` is that address (no DNS rebinding), takes changes only as JSON (no cross-site form
posts) and only to key paths the schema allows, and runs nothing but the simulator.
"""

from __future__ import annotations

import json
import math
import threading
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib.resources import files
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from ..errors import FuzionSimError
from .session import Explorer, error_line
from .state import parse_query

__all__ = ["HOST", "MAX_BODY", "ExploreServer", "serve"]

#: The only address the explorer listens on.
HOST = "127.0.0.1"
#: Largest request body accepted.
MAX_BODY = 64 * 1024
_POLICY = (
    "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
    "script-src 'self'; connect-src 'self'; frame-ancestors 'none'"
)
_STATIC = {
    "/": ("index.html", "text/html; charset=utf-8"),
    "/static/app.js": ("app.js", "text/javascript; charset=utf-8"),
    "/static/style.css": ("style.css", "text/css; charset=utf-8"),
}


def _plain(obj):
    """``obj`` with numpy scalars as Python numbers and NaN or infinities as None (JSON has
    neither), recursively."""
    if isinstance(obj, dict):
        return {str(k): _plain(v) for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return [_plain(v) for v in obj]
    if hasattr(obj, "item") and not isinstance(obj, str | bytes):
        obj = obj.item()
    if isinstance(obj, float) and not math.isfinite(obj):
        return None
    return obj


class _Handler(BaseHTTPRequestHandler):
    server: ExploreServer
    server_version = "fuzion-sim-explore"
    protocol_version = "HTTP/1.1"

    def log_message(self, format, *args):
        if self.server.verbose:
            super().log_message(format, *args)

    # -- replies ---------------------------------------------------------------------------
    def _send(self, status: int, body: bytes, kind: str, extra=()) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Content-Security-Policy", _POLICY)
        for name, value in extra:
            self.send_header(name, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _json(self, obj, status: int = 200) -> None:
        body = json.dumps(_plain(obj), allow_nan=False).encode()
        self._send(status, body, "application/json")

    def _refuse(self, status: int, why: str) -> None:
        self._json({"ok": False, "error": f"fuzion-sim: error: {why}"}, status)

    def _host_ok(self) -> bool:
        port = self.server.server_address[1]
        host = (self.headers.get("Host") or "").lower()
        return host in (f"{HOST}:{port}", f"localhost:{port}")

    # -- requests --------------------------------------------------------------------------
    def do_GET(self):
        if not self._host_ok():
            return self._refuse(HTTPStatus.FORBIDDEN, "unexpected Host header")
        url = urlsplit(self.path)
        explorer = self.server.explorer
        if url.path in _STATIC:
            name, kind = _STATIC[url.path]
            return self._send(200, self.server.asset(name), kind)
        if url.path == "/favicon.ico":
            return self._send(HTTPStatus.NO_CONTENT, b"", "image/x-icon")
        if url.path == "/api/controls":
            return self._json(explorer.controls())
        if url.path == "/api/job":
            snap = explorer.job((parse_qs(url.query).get("id") or [""])[0])
            if snap is None:
                return self._refuse(HTTPStatus.NOT_FOUND, "no such job (the server restarted?)")
            return self._json(snap)
        if url.path == "/api/yaml":
            changes, _ = parse_query(url.query)
            try:
                text = explorer.yaml(changes)
            except FuzionSimError as err:
                return self._json({"ok": False, "error": error_line(err)}, HTTPStatus.BAD_REQUEST)
            stem = Path(explorer.base.source or "scenario").stem
            return self._send(200, text.encode(), "application/yaml; charset=utf-8",
                              [("Content-Disposition",
                                f'attachment; filename="{stem}-explored.yaml"')])  # fmt: skip
        return self._refuse(HTTPStatus.NOT_FOUND, f"no page {url.path!r}")

    do_HEAD = do_GET

    def do_POST(self):
        if not self._host_ok():
            return self._refuse(HTTPStatus.FORBIDDEN, "unexpected Host header")
        origin = self.headers.get("Origin")
        port = self.server.server_address[1]
        if origin and origin not in (f"http://{HOST}:{port}", f"http://localhost:{port}"):
            return self._refuse(HTTPStatus.FORBIDDEN, "requests from other sites are refused")
        if not (self.headers.get("Content-Type") or "").startswith("application/json"):
            return self._refuse(HTTPStatus.UNSUPPORTED_MEDIA_TYPE, "expected application/json")
        try:
            size = int(self.headers.get("Content-Length") or 0)
        except ValueError:
            size = -1
        if not 0 <= size <= MAX_BODY:
            return self._refuse(HTTPStatus.REQUEST_ENTITY_TOO_LARGE,
                                f"a request body of at most {MAX_BODY} bytes")  # fmt: skip
        if urlsplit(self.path).path != "/api/answer":
            return self._refuse(HTTPStatus.NOT_FOUND, f"no endpoint {self.path!r}")
        try:
            body = json.loads(self.rfile.read(size) or b"{}")
        except (ValueError, UnicodeDecodeError):
            return self._refuse(HTTPStatus.BAD_REQUEST, "the request is not JSON")
        changes = body.get("changes", {}) if isinstance(body, dict) else None
        if not isinstance(changes, dict | list):
            return self._refuse(HTTPStatus.BAD_REQUEST, "changes: expected a mapping")
        if isinstance(changes, list) and not all(
            isinstance(c, list) and len(c) == 2 for c in changes
        ):
            return self._refuse(HTTPStatus.BAD_REQUEST, "changes: expected [path, value] pairs")
        return self._json(self.server.explorer.answer(changes, bool(body.get("mc"))))


class ExploreServer(ThreadingHTTPServer):
    """The explorer's HTTP server, bound to ``127.0.0.1:port`` (0: a free port).

    Parameters
    ----------
    explorer : Explorer
    port : int
        The port (0 picks a free one; ``server_address[1]`` then says which).
    verbose : bool
        Log each request on stderr.
    """

    daemon_threads = True
    allow_reuse_address = False

    def __init__(self, explorer: Explorer, port: int = 0, verbose: bool = False):
        self.explorer = explorer
        self.verbose = verbose
        self._assets: dict[str, bytes] = {}
        super().__init__((HOST, int(port)), _Handler)

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.server_address[1]}/"

    def asset(self, name: str) -> bytes:
        if name not in self._assets:
            self._assets[name] = files(__package__).joinpath("static", name).read_bytes()
        return self._assets[name]

    def start(self) -> threading.Thread:
        """Serve on a daemon thread (for tests and notebooks); ``shutdown()`` ends it."""
        thread = threading.Thread(target=self.serve_forever, name="explore-http", daemon=True)
        thread.start()
        return thread

    def server_close(self) -> None:
        self.explorer.close()
        super().server_close()


def serve(scenario, port: int = 0, max_trials=None, threads=None, verbose=False) -> ExploreServer:
    """An :class:`ExploreServer` for ``scenario`` (a path, Scenario or data), not yet serving."""
    from .session import DEFAULT_MAX_TRIALS

    cap = DEFAULT_MAX_TRIALS if max_trials is None else max_trials
    explorer = Explorer(scenario, max_trials=cap, threads=threads)
    return ExploreServer(explorer, port, verbose)
