"""What every class of hostile input shares: outcomes, cases, deadlines, the command line."""


from __future__ import annotations

import contextlib
import functools
import io
import os
import signal
import socket
import stat
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cheren import load_scenario
from cheren.cli.main import main

SCENARIO = load_scenario()
REFUSED, RECOVERED, KEPT = "refused cleanly", "recovered", "kept"
GOOD = {REFUSED, RECOVERED, KEPT}
ROOT = Path(__file__).resolve().parents[2]


class Hang(Exception):
    """A case ran past its deadline."""


@contextlib.contextmanager
def deadline(seconds: float) -> Iterator[None]:
    """Raise Hang in this (main) thread if the block runs longer than ``seconds``."""
    def ring(signum: int, frame: Any) -> None:
        raise Hang

    previous = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@dataclass
class Case:
    label: str
    run: Callable[[], str]  # the outcome


@dataclass
class InputClass:
    name: str
    what: str  # how the cases are made, for the table
    cases: Callable[[Path, int], list[Case]]


def later(seconds: float, fn: Callable[..., str], *args: Any) -> Callable[[], str]:
    """A case's run: ``fn(*args)`` within ``seconds``, its outcome (or traceback, or hang)."""
    return functools.partial(guarded, functools.partial(fn, *args), seconds)


def guarded(fn: Callable[[], str], seconds: float = 60) -> str:
    try:
        with deadline(seconds):
            return fn()
    except Hang:
        return "hang"
    except Exception:  # any exception escaping a case is the traceback a user would have seen
        return "traceback"


def run_cli(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            rc = main(argv)
        except SystemExit as exc:  # argparse
            rc = int(exc.code) if isinstance(exc.code, int) else 2
    return rc, out.getvalue(), err.getvalue()


def cli_refusal(argv: list[str], seconds: float = 30) -> str:
    def go() -> str:
        rc, _, err = run_cli(argv)
        lines = [line for line in err.strip().splitlines() if line.strip()]
        if "Traceback" in err:
            return "traceback"
        if rc == 0:
            return "accepted"
        if not lines or (rc == 2 and len(lines) != 1):
            return "unclear"
        return REFUSED

    return guarded(go, seconds)


def special_files(tmp: Path) -> dict[str, Path]:
    """A named pipe, a socket, a folder, links to them and to device nodes, all in ``tmp``
    (never a real device node is written to: the refusals are checked on the link)."""
    tmp.mkdir(parents=True, exist_ok=True)
    out = {"fifo": tmp / "fifo.json", "folder": tmp / "folder.json", "socket": tmp / "sock.json",
           "link to fifo": tmp / "to-fifo.json", "link to /dev/null": tmp / "null.json",
           "link to /dev/zero": tmp / "zero.json"}
    if not out["fifo"].exists():
        os.mkfifo(out["fifo"])
    out["folder"].mkdir(exist_ok=True)
    if not out["socket"].exists():
        s = socket.socket(socket.AF_UNIX)
        s.bind(str(out["socket"]))
        s.close()
    for name, target in (("link to fifo", out["fifo"]), ("link to /dev/null", Path("/dev/null")),
                         ("link to /dev/zero", Path("/dev/zero"))):
        if not out[name].is_symlink():
            out[name].symlink_to(target)
    return out


def _kind(path: Path) -> str:
    try:
        mode = path.lstat().st_mode
    except FileNotFoundError:
        return "missing"
    return {stat.S_ISFIFO(mode): "fifo", stat.S_ISSOCK(mode): "socket", stat.S_ISDIR(mode): "dir",
            stat.S_ISLNK(mode): "link", stat.S_ISREG(mode): "file"}.get(True, "other")


