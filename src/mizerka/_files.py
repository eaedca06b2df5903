"""Files written whole or not at all (the game records of ``mizerka play`` and ``mizerka score``).

Standard library only.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import stat
from pathlib import Path

__all__ = ["is_read_only", "write_atomically"]


def is_read_only(path: Path) -> bool:
    """Whether the existing file *path* is read-only: not writable for us, or without any write permission (which
    ``os.access`` does not see for root): a file someone protected, never replaced."""
    try:
        mode = path.stat().st_mode
    except OSError:
        return False
    return not os.access(path, os.W_OK) or not mode & 0o222


def write_atomically(path: Path, text: str) -> None:
    """Write *text* (UTF-8) to *path* whole or not at all: a new file in the same folder, then :func:`os.replace`.

    An interrupted write (Ctrl-C, a full disk) leaves *path* as it was and no temporary file behind.  A symbolic
    link is followed: the file it points to is replaced (in its folder), and the link stays.  An existing file keeps
    its permissions, and a read-only one is not replaced.

    Raises:
        OSError: if the file cannot be written (:class:`PermissionError` for a read-only file).
    """
    target = Path(os.path.realpath(path))
    if is_read_only(target):
        raise PermissionError(errno.EACCES, "the file is read-only", str(path))
    try:
        mode: int | None = stat.S_IMODE(target.stat().st_mode)
    except OSError:
        mode = None
    # a short temporary name: the file's own name may be as long as the file system allows
    temporary = target.parent / f".{target.name[:64]}.{secrets.token_hex(6)}.tmp"
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)  # the umask applies, as for any file
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as file:
            if mode is not None:
                os.fchmod(file.fileno(), mode)
            file.write(text)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
