"""Writing a file so that readers only ever see the old contents or the new ones.

:func:`atomic_write` is used by everything that saves (``funcgrad.compat.save``,
the demo's checkpoints and plots).  It writes a temporary file beside the target
and renames it over the target with ``os.replace``, so a crash, an exception or
a ``kill -9`` mid-save never leaves a truncated file under the target's name.
The new file is what ``open(path, "wb")`` would have produced:

- permissions: an existing file keeps its mode; a new one gets ``0o666`` filtered
  by the process umask (``tempfile.mkstemp`` would give ``0o600``);
- symlinks: a target that is a symlink is followed, and the file it points to is
  replaced (the link stays a link);
- leftovers: the temporary file is named ``.<name>.<pid>.<random>.tmp``; one left
  by a process that died mid-save (its pid no longer runs) is removed by the next
  save to the same path.
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
import time

__all__ = ["atomic_write", "stale_temporaries"]

_STALE_AGE_S = 24 * 3600  # where process liveness cannot be asked (not POSIX): a day-old leftover is stale


def _temp_pattern(name):
    return re.compile(rf"\.{re.escape(name)}\.(\d+)\.[0-9a-f]{{8}}\.tmp")


def _alive(pid):
    if os.name != "posix":
        return None  # unknown
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # it runs, under another user
        return True
    return True


def stale_temporaries(path):
    """The temporary files of saves to ``path`` (after following symlinks) whose process is gone."""
    folder, name = os.path.split(os.path.realpath(os.fspath(path)))
    pattern = _temp_pattern(name)
    try:
        entries = os.listdir(folder)
    except OSError:
        return []
    stale = []
    for entry in entries:
        m = pattern.fullmatch(entry)
        if not m:
            continue
        full = os.path.join(folder, entry)
        alive = _alive(int(m.group(1)))
        if alive is None:
            with contextlib.suppress(OSError):
                alive = time.time() - os.stat(full).st_mtime < _STALE_AGE_S
        if not alive:
            stale.append(full)
    return stale


@contextlib.contextmanager
def atomic_write(path):
    """Open a temporary file beside ``path`` for binary writing; rename it over ``path`` on success.

    On any exception (``KeyboardInterrupt`` included) the temporary file is removed and
    ``path`` is left as it was.
    """
    target = os.path.realpath(os.fspath(path))
    folder, name = os.path.split(target)
    for leftover in stale_temporaries(target):
        with contextlib.suppress(OSError):
            os.unlink(leftover)
    try:
        mode = os.stat(target).st_mode & 0o7777
    except FileNotFoundError:
        mode = None
    tmp = os.path.join(folder, f".{name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o666)
    try:
        if mode is not None and hasattr(os, "fchmod"):
            os.fchmod(fd, mode)
        with os.fdopen(fd, "wb") as f:
            fd = None
            yield f
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, target)
    except BaseException:
        if fd is not None:
            os.close(fd)
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
