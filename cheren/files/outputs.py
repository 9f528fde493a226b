"""Writing what the command line produces without ever leaving a half-written or lost file.

* :func:`check_output` is asked before any work starts: is the path writable, and may an
  existing file there be replaced (only with ``--force``)?  ``-`` means standard output.
* :func:`write_output` writes through a temporary file in the same folder and renames it over
  the target (atomic on one file system), keeping the mode of the file it replaces and, when the
  target is a symbolic link, writing the file the link points to; no temporary file is left
  behind, whatever fails.
"""

from __future__ import annotations

import os
import stat
import sys
import tempfile
from pathlib import Path

STDOUT = "-"


class OutputError(OSError):
    """An output that cannot be written; the message names the path and the reason."""


def check_output(path: str, *, force: bool = False) -> None:
    """Refuse an output before any work is done rather than after."""
    if path == STDOUT:
        return
    target = Path(path)
    real = Path(os.path.realpath(target))
    if real.is_dir():
        raise OutputError(f"{path}: is a folder; give a file name")
    if real.exists() and not force:
        raise OutputError(f"{path}: exists; add --force to replace it")
    folder = real.parent
    if not folder.is_dir():
        raise OutputError(f"{path}: the folder {folder} does not exist")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise OutputError(f"{path}: the folder {folder} is not writable")
    if real.exists() and not os.access(real, os.W_OK):
        raise OutputError(f"{path}: is not writable")


def write_output(path: str | Path, text: str) -> None:
    """Write ``text`` to ``path`` atomically (``-``: standard output)."""
    if str(path) == STDOUT:
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    real = Path(os.path.realpath(path))  # a link keeps pointing where it did; its target is replaced
    mode = stat.S_IMODE(real.stat().st_mode) if real.exists() else None
    fd, tmp = tempfile.mkstemp(dir=real.parent, prefix=f".{real.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        if mode is not None:
            os.chmod(tmp, mode)
        else:
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(tmp, 0o666 & ~umask)  # as a plain open() would have made it
        os.replace(tmp, real)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
