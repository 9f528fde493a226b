"""Writing what the command line produces without ever leaving a half-written or lost file.

* :func:`check_output` is asked before any work starts: is the path writable, and may an
  existing file there be replaced (only with ``--force``, and only a regular file: never a pipe,
  a device or a socket)?  ``-`` means standard output.
* :func:`write_output` writes through a temporary file in the same folder and renames it over
  the target (atomic on one file system), keeping the mode of the file it replaces and, when the
  target is a symbolic link, writing the file the link points to; no temporary file is left
  behind, whatever fails, and one a killed process left (``.NAME.PID.XXXX.tmp``, the process
  gone) is removed when that file is next checked or written.
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
    _refuse_special(path, real)
    clean_leftovers(real)
    if real.exists() and not force:
        raise OutputError(f"{path}: exists; add --force to replace it")
    folder = real.parent
    if not folder.is_dir():
        raise OutputError(f"{path}: the folder {folder} does not exist")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise OutputError(f"{path}: the folder {folder} is not writable")
    if real.exists() and not os.access(real, os.W_OK):
        raise OutputError(f"{path}: is not writable")


def clean_leftovers(target: Path) -> list[Path]:
    """Remove the temporary files a killed writer of ``target`` left beside it (a process ended
    by SIGKILL or a power cut between writing and renaming): ``.NAME.PID.XXXX.tmp`` whose
    process is gone.  A temporary file of a writer still running is left alone."""
    removed: list[Path] = []
    try:
        candidates = list(target.parent.glob(f".{glob_escape(target.name)}.*.tmp"))
    except OSError:
        return removed
    for tmp in candidates:
        pid_text = tmp.name[len(target.name) + 2 :].split(".", 1)[0]
        if not pid_text.isdigit() or _alive(int(pid_text)):
            continue
        try:
            tmp.unlink()
            removed.append(tmp)
        except OSError:
            pass
    return removed


def glob_escape(name: str) -> str:
    return "".join(f"[{ch}]" if ch in "*?[" else ch for ch in name)


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, ValueError):
        return True  # someone else's process, or not a pid at all: leave its file alone
    return True


def _refuse_special(path: str, real: Path) -> None:
    """Only a regular file is ever replaced: never a pipe, a device node or a socket
    (``--out /dev/null --force`` must not turn /dev/null into a file)."""
    try:
        st = real.stat()
    except FileNotFoundError:
        return
    except OSError as exc:
        raise OutputError(f"{path}: cannot be examined ({exc.strerror})") from None
    if stat.S_ISDIR(st.st_mode):
        raise OutputError(f"{path}: is a folder; give a file name")
    if not stat.S_ISREG(st.st_mode):
        kind = (
            "a named pipe" if stat.S_ISFIFO(st.st_mode)
            else "a device" if stat.S_ISCHR(st.st_mode) or stat.S_ISBLK(st.st_mode)
            else "a socket" if stat.S_ISSOCK(st.st_mode)
            else "something other than a file"
        )
        raise OutputError(f"{path}: is {kind}; cheren only ever replaces regular files (- writes to standard output)")


def write_output(path: str | Path, text: str | bytes) -> None:
    """Write ``text`` (or bytes) to ``path`` atomically (``-``: standard output)."""
    if str(path) == STDOUT:
        if isinstance(text, bytes):
            sys.stdout.buffer.write(text)
        else:
            sys.stdout.write(text)
        sys.stdout.flush()
        return
    real = Path(os.path.realpath(path))  # a link keeps pointing where it did; its target is replaced
    _refuse_special(str(path), real)  # asked again: the path may have changed since check_output
    clean_leftovers(real)
    mode = stat.S_IMODE(real.stat().st_mode) if real.exists() else None
    fd, tmp = tempfile.mkstemp(dir=real.parent, prefix=f".{real.name}.{os.getpid()}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(text.encode("utf-8") if isinstance(text, str) else text)
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
