"""Output folders (``report -o``, ``sweep -o``): safe, atomic, owned writes.

An :class:`OutputDir` is a folder the tool writes into:

- never through a symbolic link: the folder itself, a subfolder or a file that is a link is
  refused (``--force`` replaces a linked file by a real one; it never writes to its target);
- only over files it wrote itself: every file written is recorded with its SHA-256 in the
  folder's manifest (:data:`MANIFEST`); an existing file that is not in it, or that changed
  since, is refused unless ``force``;
- atomically: each file is written to a temporary name next to it and renamed into place
  (``os.replace``), so an interrupted run leaves no partial file; a set of files is staged in
  a temporary folder and committed only once every target has been checked;
- by one process at a time: a lock file (:data:`LOCK`) names its holder (pid and host); a
  lock whose process is gone (same host) is taken over.

Every problem is a one-line :class:`~fuzion_sim.errors.FuzionSimError` (exit status 2).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import socket
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path

from .errors import FuzionSimError, shorten

__all__ = ["LOCK", "MANIFEST", "OutputDir", "atomic_write"]

#: The manifest of the files the tool wrote in a folder (relative path -> sha256).
MANIFEST = ".fuzion-sim-manifest.json"
#: The lock file of a folder being written.
LOCK = ".fuzion-sim.lock"
_STAGING = ".fuzion-sim-staging-"


def _fail(where, message: str) -> FuzionSimError:
    return FuzionSimError(f"{shorten(where, 200)}: {message}")


def _digest(path: Path) -> str:
    sha = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            sha.update(block)
    return sha.hexdigest()


def atomic_write(path: Path, writer: Callable[[Path], object]) -> None:
    """``writer(tmp)`` writes the file at a temporary name beside ``path``, then it is renamed
    onto ``path`` (which, if a symbolic link, is replaced, never written through). On any
    error (Ctrl-C included) the temporary file is removed and ``path`` is untouched."""
    path = Path(path)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{uuid.uuid4().hex[:8]}.tmp")
    try:
        writer(tmp)
        os.replace(tmp, path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()


def _check_folder_path(path) -> Path:
    if isinstance(path, str) and not path.strip():
        raise FuzionSimError(f"the output folder {path!r} is empty: give a folder name")
    if not isinstance(path, str | os.PathLike):
        raise FuzionSimError(f"the output folder must be a path, got {type(path).__name__}")
    folder = Path(path)
    if folder.is_symlink():
        raise _fail(folder, "is a symbolic link; give the folder itself")
    if folder.exists() and not folder.is_dir():
        raise _fail(folder, "exists and is not a folder")
    return folder


class OutputDir:
    """A folder the tool writes into (see the module docstring); a context manager that holds
    the folder's lock.

    Parameters
    ----------
    path : str or os.PathLike
        The folder (created with its parents); not empty text, not a symbolic link, not a
        file.
    force : bool
        Overwrite files the tool did not write (or that changed since), and replace linked
        files by real ones.
    owned_dirs : iterable of str
        Subfolders wholly the tool's (a sweep's ``points``): their files are checked by their
        own content when read, and may be replaced.

    Raises
    ------
    FuzionSimError
        For every path problem, and when another live process holds the lock.
    """

    def __init__(self, path, force: bool = False, owned_dirs=()):
        self.root = _check_folder_path(path)
        self.force = bool(force)
        self.owned_dirs = tuple(owned_dirs)
        self._lock_token: str | None = None
        try:
            self.root.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise _fail(self.root, f"cannot create the folder: {exc.strerror or exc}") from None
        self.manifest = self._load_manifest()

    # -- lock ----------------------------------------------------------------------------
    def __enter__(self) -> OutputDir:
        self.lock()
        return self

    def __exit__(self, *exc) -> None:
        self.unlock()

    def lock(self) -> None:
        """Take the folder's lock, or fail naming the live process that holds it."""
        path = self.root / LOCK
        token = uuid.uuid4().hex
        info = {"pid": os.getpid(), "host": socket.gethostname(), "started": time.time(),
                "token": token}  # fmt: skip
        for _ in range(3):
            try:
                fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
            except FileExistsError:
                holder = _read_json(path)
                if _stale(holder, path):
                    with contextlib.suppress(FileNotFoundError):
                        path.unlink()
                    continue
                raise _fail(self.root, _held_message(holder, path)) from None
            except OSError as exc:
                raise _fail(path, f"cannot create the lock file: {exc.strerror or exc}") from None
            with os.fdopen(fd, "w") as handle:
                json.dump(info, handle)
            self._lock_token = token
            return
        raise _fail(self.root, f"cannot take the lock {path}")  # pragma: no cover

    def unlock(self) -> None:
        """Release the lock if this object still holds it."""
        if self._lock_token is None:
            return
        path = self.root / LOCK
        holder = _read_json(path)
        if holder and holder.get("token") == self._lock_token:
            with contextlib.suppress(FileNotFoundError):
                path.unlink()
        self._lock_token = None

    # -- manifest ------------------------------------------------------------------------
    def _load_manifest(self) -> dict:
        path = self.root / MANIFEST
        if path.is_symlink():
            raise _fail(path, "is a symbolic link")
        if not path.exists():
            return {}
        data = _read_json(path)
        if not isinstance(data, dict) or not isinstance(data.get("files"), dict):
            if self.force:
                return {}
            raise _fail(path, "is not a fuzion-sim manifest (use --force to start a new one)")
        return dict(data["files"])

    def _save_manifest(self) -> None:
        body = json.dumps({"tool": "fuzion-sim", "files": self.manifest}, indent=1, sort_keys=True)
        atomic_write(self.root / MANIFEST, lambda tmp: tmp.write_text(body + "\n"))

    # -- checks --------------------------------------------------------------------------
    def _inside(self, rel: str) -> Path:
        rel_path = Path(rel)
        if rel_path.is_absolute() or ".." in rel_path.parts or not rel_path.parts:
            raise _fail(rel, "is not a path inside the output folder")  # pragma: no cover
        here = self.root
        for part in rel_path.parts[:-1]:
            here = here / part
            if here.is_symlink():
                raise _fail(here, "is a symbolic link; fuzion-sim does not write through links")
            if here.exists() and not here.is_dir():
                raise _fail(here, "exists and is not a folder")
        return self.root / rel_path

    def check(self, rel: str) -> None:
        """Raise if the file ``rel`` (relative to the folder) may not be written."""
        target = self._inside(rel)
        owned = Path(rel).parts[0] in self.owned_dirs and len(Path(rel).parts) > 1
        if target.is_symlink():
            if not self.force:
                raise _fail(target, "is a symbolic link; fuzion-sim does not write through "
                                    "links (--force replaces the link by a file)")  # fmt: skip
            return
        if not target.exists():
            return
        if not target.is_file():
            raise _fail(target, "exists and is not a regular file")
        if self.force or owned:
            return
        recorded = self.manifest.get(Path(rel).as_posix())
        if recorded is None:
            raise _fail(target, "exists and was not written by fuzion-sim here; use --force to "
                                "overwrite it, or another folder")  # fmt: skip
        if _digest(target) != recorded:
            raise _fail(target, "was changed since fuzion-sim wrote it; use --force to "
                                "overwrite it, or another folder")  # fmt: skip

    def check_dir(self, rel: str) -> None:
        """Raise if the subfolder ``rel`` may not be used (a link, a file)."""
        path = self._inside(f"{rel}/x")
        path = path.parent
        if path.is_symlink():
            raise _fail(path, "is a symbolic link; fuzion-sim does not write through links")
        if path.exists() and not path.is_dir():
            raise _fail(path, "exists and is not a folder")

    # -- writes --------------------------------------------------------------------------
    def write(self, rel: str, writer: Callable[[Path], object], record: bool = True) -> Path:
        """Write the file ``rel`` atomically with ``writer(tmp_path)`` after :meth:`check`;
        record it in the manifest (``record``)."""
        self.check(rel)
        target = self.root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(target, writer)
        if record:
            self.manifest[Path(rel).as_posix()] = _digest(target)
            self._save_manifest()
        return target

    @contextlib.contextmanager
    def staging(self):
        """A temporary folder inside this one to write a set of files into; on leaving the
        block without an error they are :meth:`commit`-ted, and the folder is removed
        whatever happens."""
        stage = Path(tempfile.mkdtemp(prefix=_STAGING, dir=self.root))
        try:
            yield stage
            self.commit(stage)
        finally:
            shutil.rmtree(stage, ignore_errors=True)

    def commit(self, stage: Path) -> list[Path]:
        """Move every file under ``stage`` to the same place in this folder: all targets are
        checked first, so either every file is replaced or none is."""
        files = sorted(p for p in Path(stage).rglob("*") if p.is_file())
        rels = [p.relative_to(stage).as_posix() for p in files]
        for rel in rels:
            self.check(rel)
        out = []
        for src, rel in zip(files, rels, strict=True):
            target = self.root / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            digest = _digest(src)
            os.replace(src, target)
            self.manifest[rel] = digest
            out.append(target)
        self._save_manifest()
        return out


def _read_json(path: Path):
    try:
        with open(path, encoding="utf-8") as handle:
            return json.load(handle)
    except (OSError, ValueError):
        return None


def _stale(holder, path: Path) -> bool:
    """A lock nobody holds any more: unreadable and over a minute old, or its process gone
    (same host)."""
    if not isinstance(holder, dict) or not isinstance(holder.get("pid"), int):
        try:
            return time.time() - path.stat().st_mtime > 60
        except FileNotFoundError:
            return True
    if holder.get("host") != socket.gethostname():
        return False
    try:
        os.kill(holder["pid"], 0)
    except ProcessLookupError:
        return True
    except (PermissionError, OverflowError, ValueError):
        return False
    return False


def _held_message(holder, path: Path) -> str:
    if not isinstance(holder, dict):
        return f"another fuzion-sim is writing here (lock {path}); wait for it to finish"
    since = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(holder.get("started", 0)))
    return (
        f"another fuzion-sim (pid {holder.get('pid')} on {shorten(holder.get('host'), 60)}, "
        f"since {since}) is writing here; wait for it, or delete {path} if it has stopped"
    )
