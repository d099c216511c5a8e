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
- by one process at a time: an operating-system lock on :data:`LOCK` (``filelock``), which
  the system releases when its process ends however it ends, so a lock is never stale; the
  holder's pid, host and start time are written beside it (:data:`HOLDER`) for the message a
  second process gets. A staging folder left behind by a process that was killed is removed
  by the next one to take the lock;
- never at the root or a system folder (``/``, ``/usr``, ``/etc`` ...), never through a
  symbolic link on the way to it (the message says where the link leads), never with a name
  the file system cannot hold.

A set of files written together replaces the set written before it (``staging(replace=True)``):
the earlier run's files that the new one does not write are removed if they are still as it
wrote them; nothing else is touched.

Every problem is a one-line :class:`~fuzion_sim.errors.FuzionSimError` (exit status 2).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import math
import os
import re
import shutil
import socket
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path

from .errors import FuzionSimError, shorten

__all__ = ["HOLDER", "LOCK", "MANIFEST", "OutputDir", "atomic_write", "SYSTEM_FOLDERS"]

#: The manifest of the files the tool wrote in a folder (relative path -> sha256).
MANIFEST = ".fuzion-sim-manifest.json"
#: The file a folder's operating-system lock is taken on (it stays; the lock does not).
LOCK = ".fuzion-sim.lock"
#: Who holds the lock (pid, host, start time), written by the holder, for the message.
HOLDER = ".fuzion-sim.lock.json"
_STAGING = ".fuzion-sim-staging-"
#: The name :func:`atomic_write` gives a file while it is written.
_TMP_NAME = re.compile(r"\..+\.[0-9]+\.[0-9a-f]{8}\.tmp")
#: Folders no output goes into directly: the root and the system's own.
SYSTEM_FOLDERS = frozenset(
    {"/", "/bin", "/boot", "/dev", "/etc", "/home", "/lib", "/lib32", "/lib64", "/libx32",
     "/media", "/mnt", "/opt", "/proc", "/root", "/run", "/sbin", "/srv", "/sys", "/tmp",
     "/usr", "/var", "/Applications", "/Library", "/System", "/Users", "/Volumes", "/private"}
)  # fmt: skip
#: Folders whose whole tree is the system's: no output goes anywhere inside them.
SYSTEM_TREES = ("/bin", "/boot", "/dev", "/etc", "/lib", "/lib32", "/lib64", "/libx32",
                "/proc", "/sbin", "/sys", "/usr/bin", "/usr/lib", "/usr/lib32", "/usr/lib64",
                "/usr/libexec", "/usr/include", "/usr/sbin", "/usr/share", "/System")  # fmt: skip


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


def _name_max(folder: Path) -> int:
    """The longest file name (bytes) the file system under ``folder`` holds."""
    for here in (folder, *folder.parents):
        try:
            return int(os.pathconf(here, "PC_NAME_MAX"))
        except (OSError, ValueError, AttributeError):
            continue
    return 255


def _system_folder(absolute: Path) -> str | None:
    """The system folder ``absolute`` is, or lies inside; None for an ordinary folder."""
    text = absolute.as_posix()
    if text in SYSTEM_FOLDERS:
        return text
    for tree in SYSTEM_TREES:
        if text == tree or text.startswith(tree + "/"):
            return tree
    return None


def _parent_link(folder: Path) -> tuple[Path, str] | None:
    """The first symbolic link on the way to ``folder`` (a folder above it, as the path
    names it) and where it leads. The way to the working folder or the home folder, when the
    path starts there, and the top-level folders (``/bin`` to ``usr/bin``, macOS's ``/tmp``)
    are the machine's layout, not the user's choice, and are not looked at."""
    absolute = Path(os.path.abspath(folder))
    trusted = Path(absolute.anchor)
    for base in (Path.cwd(), Path.home()):
        with contextlib.suppress(ValueError, RuntimeError):
            absolute.relative_to(base)
            if len(base.parts) > len(trusted.parts):
                trusted = base
    parts = absolute.parts[len(trusted.parts) : -1]
    here = trusted
    if len(trusted.parts) == 1 and parts:  # the top-level folder itself is layout
        here, parts = here / parts[0], parts[1:]
    for part in parts:
        here = here / part
        if here.is_symlink():
            return here, os.readlink(here)
    return None


def _check_folder_path(path) -> Path:
    if isinstance(path, str) and not path.strip():
        raise FuzionSimError(f"the output folder {path!r} is empty: give a folder name")
    if not isinstance(path, str | os.PathLike):
        raise FuzionSimError(f"the output folder must be a path, got {type(path).__name__}")
    folder = Path(path)
    if "\x00" in str(folder):
        raise _fail(repr(str(folder)), "a folder name cannot hold a NUL character")
    try:
        limit = _name_max(folder.absolute())
        for part in folder.parts:
            size = len(os.fsencode(part))
            if size > limit:
                raise _fail(folder, f"the name {shorten(part, 40)!r} is {size} bytes long; "
                                    f"the file system holds names of at most {limit}")  # fmt: skip
        absolute = Path(os.path.abspath(folder))
        real = folder.resolve()
        system = _system_folder(absolute) or _system_folder(real)
        if system:
            where = "is" if system in (absolute.as_posix(), real.as_posix()) else "is inside"
            raise _fail(folder, f"{where} the system folder {system}; give a folder of your "
                                "own (for example ./out)")  # fmt: skip
        if folder.is_symlink():
            raise _fail(folder, f"is a symbolic link (to {os.readlink(folder)}); give the "
                                "folder itself")  # fmt: skip
        link = _parent_link(folder)
        if link is not None:
            raise _fail(folder, f"goes through the symbolic link {link[0]} (to {link[1]}); "
                                f"give the real folder ({real}) if that is where it should "
                                "go")  # fmt: skip
        if folder.exists() and not folder.is_dir():
            raise _fail(folder, "exists and is not a folder")
    except OSError as exc:
        raise _fail(folder, f"cannot use this path: {exc.strerror or exc}") from None
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
        self._lock = None
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
        """Take the folder's lock, or fail naming the live process that holds it; then
        remove the staging folders a killed process left (nobody else can be using them)."""
        from filelock import FileLock, Timeout

        path = self.root / LOCK
        if path.is_symlink():
            raise _fail(path, "is a symbolic link; fuzion-sim does not write through links")
        lock = FileLock(path, timeout=0)
        try:
            lock.acquire()
        except Timeout:
            raise _fail(self.root, _held_message(_read_json(self.root / HOLDER), path)) from None
        except OSError as exc:
            raise _fail(path, f"cannot take the lock: {exc.strerror or exc}") from None
        self._lock = lock
        try:
            info = {"pid": os.getpid(), "host": socket.gethostname(), "started": time.time()}
            atomic_write(self.root / HOLDER, lambda tmp: tmp.write_text(json.dumps(info)))
            self._remove_stale_staging()
        except BaseException:
            self.unlock()
            raise

    def unlock(self) -> None:
        """Release the lock if this object holds it (the lock file stays, empty of meaning:
        removing it would let two processes lock two different files of one name)."""
        lock, self._lock = self._lock, None
        if lock is None:
            return
        with contextlib.suppress(OSError):
            (self.root / HOLDER).unlink()
        lock.release()

    def _remove_stale_staging(self) -> None:
        """What a killed holder left: staging folders, and half-written files of
        :func:`atomic_write` (``.NAME.PID.XXXXXXXX.tmp``) here and in the owned subfolders."""
        for stage in self.root.glob(f"{_STAGING}*"):
            if stage.is_dir() and not stage.is_symlink():
                shutil.rmtree(stage, ignore_errors=True)
        for folder in (self.root, *(self.root / d for d in self.owned_dirs)):
            if folder.is_symlink() or not folder.is_dir():
                continue
            for tmp in folder.glob(".*.tmp"):
                if _TMP_NAME.fullmatch(tmp.name) and tmp.is_file() and not tmp.is_symlink():
                    with contextlib.suppress(OSError):
                        tmp.unlink()

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
    def staging(self, replace: bool = False):
        """A temporary folder inside this one to write a set of files into; on leaving the
        block without an error they are :meth:`commit`-ted (``replace``: as the set that
        replaces the one written before), and the folder is removed whatever happens."""
        stage = Path(tempfile.mkdtemp(prefix=_STAGING, dir=self.root))
        try:
            yield stage
            self.commit(stage, replace=replace)
        finally:
            shutil.rmtree(stage, ignore_errors=True)

    def commit(self, stage: Path, replace: bool = False) -> list[Path]:
        """Move every file under ``stage`` to the same place in this folder: all targets are
        checked first, so either every file is replaced or none is.

        ``replace``: the files are the whole output of a run (a report, a sweep's table and
        plots), so the files an earlier run recorded in the manifest that this set does not
        hold are removed, when they are still as that run wrote them, and forgotten (one
        changed since is left where it is, no longer the tool's). Files of the owned
        subfolders (a sweep's points) and files the tool never wrote stay."""
        files = sorted(p for p in Path(stage).rglob("*") if p.is_file())
        rels = [p.relative_to(stage).as_posix() for p in files]
        for rel in rels:
            self.check(rel)
        if replace:
            self._drop_earlier(set(rels))
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

    def _drop_earlier(self, keep: set[str]) -> None:
        """Remove the earlier run's files that ``keep`` does not name (see :meth:`commit`)."""
        for rel, digest in list(self.manifest.items()):
            parts = Path(rel).parts
            if rel in keep or (len(parts) > 1 and parts[0] in self.owned_dirs):
                continue
            try:
                target = self._inside(rel)
            except FuzionSimError:
                continue  # a path through a link, or not inside: not ours to touch
            del self.manifest[rel]
            if target.is_symlink() or not target.is_file():
                continue
            if _digest(target) == digest:
                target.unlink()
                with contextlib.suppress(OSError):  # a subfolder it leaves empty
                    parent = target.parent
                    while parent != self.root and not any(parent.iterdir()):
                        parent.rmdir()
                        parent = parent.parent


def _read_json(path: Path):
    try:
        with open(path, encoding="utf-8") as handle:
            return json.load(handle)
    except (OSError, ValueError):
        return None


def _held_message(holder, path: Path) -> str:
    """What a second process is told: who holds the lock, when the holder's note can be
    read (any part of it may be missing or malformed: a note is only a courtesy)."""
    if not isinstance(holder, dict):
        return f"another fuzion-sim is writing here (lock {path}); wait for it to finish"
    pid, host, started = holder.get("pid"), holder.get("host"), holder.get("started")
    ident = []
    if isinstance(pid, int) and not isinstance(pid, bool):
        ident.append(f"pid {pid}")
    if isinstance(host, str) and host:
        ident.append(f"on {shorten(host, 60)}")
    parts = [" ".join(ident)] if ident else []
    if isinstance(started, int | float) and not isinstance(started, bool):
        with contextlib.suppress(OverflowError, OSError, ValueError):
            if math.isfinite(started):
                parts.append("since " + time.strftime("%Y-%m-%d %H:%M:%S",
                                                      time.localtime(started)))  # fmt: skip
    named = f" ({', '.join(parts)})" if parts else ""
    return (
        f"another fuzion-sim{named} is writing here; wait for it to finish (the lock is the "
        f"operating system's: it goes when that process ends)"
    )
