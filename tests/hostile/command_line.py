"""Hostile command lines, Dask peers that are not schedulers, and outputs that are not files."""


from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import threading
from pathlib import Path

from tests.hostile.core import (
    KEPT,
    RECOVERED,
    REFUSED,
    ROOT,
    Case,
    _kind,
    cli_refusal,
    later,
    special_files,
)


def cli_cases(tmp: Path, size: int) -> list[Case]:
    sp = special_files(tmp / "special")
    agordat = str(ROOT / "scenarios/road_to_cheren/positions/agordat.yaml")
    big = str(10**12)
    argvs: list[list[str]] = [
        [], ["nope"], ["simulate", "--nope"], ["simulate", "--games", "abc"], ["simulate", "--games", "1e3"],
        ["simulate", "--games", "0"], ["simulate", "--games", "-3"], ["simulate", "--games", big],
        ["simulate", "--seed", "-5"], ["simulate", "--seed", str(2**64)], ["simulate", "--jobs", "0"],
        ["simulate", "--jobs", "100000"], ["simulate", "--batch", "0"], ["simulate", "--games", "5", "--batch", "6"],
        ["simulate", "--budget", "0", "--allied", "lookahead"], ["simulate", "--budget", "1000000"],
        ["simulate", "--allied", "lookahead:0"], ["simulate", "--allied", "lookahead:abc"],
        ["simulate", "--allied", "lookahead:999999999999"], ["simulate", "--italian", "nobody"],
        ["simulate", "--variant", "nope"], ["simulate", "--dask", "junk"], ["simulate", "--dask", ""],
        ["simulate", "--dask", "udp://x:1"], ["simulate", "--dask", "tcp://h:99999"], ["simulate", "--dask", ":::"],
        ["simulate", "--dask", "tcp://h:8786/path"], ["simulate", "--resume", str(tmp / "none.json")],
        ["simulate", "--resume", str(sp["folder"])], ["simulate", "--resume", str(sp["fifo"])],
        ["simulate", "--resume", str(sp["link to /dev/zero"])], ["simulate", "--resume", agordat],
        ["analyse", "agordat", "--games", "-1"], ["analyse", "agordat", "--games", big],
        ["analyse", "agordat", "--seed", "-1"], ["analyse", "agordat", "--jobs", "0"],
        ["analyse", "agordat", "--bot", "nobody"], ["analyse", "agordat", "--bot", "lookahead", "--budget", "0"],
        ["analyse", ""], ["analyse", "0000"], ["analyse", "1100"], ["analyse", "C1"], ["analyse", "C1xyz-1am"],
        ["analyse", str(sp["link to /dev/zero"])], ["analyse", str(sp["folder"])],
        ["analyse", "agordat", "--resume", str(tmp / "none.json")],
        ["compare-variants", "--games", "0"], ["compare-variants", "--games", big],
        ["compare-variants", "--seed", "-1"],
        ["compare-variants", "--variant", "nope"], ["compare-variants", "--jobs", "0"],
        ["render", "--seed", "-1", "--out", str(tmp / "x.svg")], ["render", "--seed", str(2**70), "--out", "-"],
        ["render", "--position", "0000", "--out", "-"], ["render", "--position", "", "--out", "-"],
        ["render", "--out", str(tmp / "no" / "such" / "x.svg")], ["render"],
        ["positions", "0000"], ["positions", "1100"], ["positions", "C1"], ["positions", "--code", "nowhere"],
        ["app", "--port", "-1"], ["app", "--port", "0"], ["app", "--port", "70000"], ["app", "--port", "abc"],
        ["lab", "--port", "-1"], ["app", "--dir", agordat],
        ["lessons", "nothing"], ["lessons", "check", "nothing"], ["lessons", "check", ""],
        ["lessons", "check", str(sp["folder"])], ["lessons", "check", str(sp["fifo"])],
        ["lessons", "check", "check"], ["lessons", "/etc/hostname"],
        ["variants", "nope"], ["schema", "--file", "nope"], ["validate", str(tmp / "nowhere")], ["validate", agordat],
    ]
    for name, path in sp.items():
        argvs.append(["schema", "--out", str(path), "--force"])
        if name != "folder":
            argvs.append(["render", "--out", str(path), "--force"])
    return [Case(" ".join(a) or "(nothing)", later(60, cli_refusal, a)) for a in argvs]


class _Peer:
    """A TCP server that accepts and then says nothing, or sends junk: not a Dask scheduler."""

    def __init__(self, junk: bool) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(8)
        self.port = self.sock.getsockname()[1]
        self.junk = junk
        self.conns: list[socket.socket] = []
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        with contextlib.suppress(OSError):
            while True:
                conn, _ = self.sock.accept()
                self.conns.append(conn)
                if self.junk:
                    conn.sendall(b"\xff" * 64)

    def close(self) -> None:
        for c in [*self.conns, self.sock]:
            with contextlib.suppress(OSError):
                c.close()


def dask_cases(tmp: Path, size: int) -> list[Case]:
    def peer(junk: bool) -> str:
        from cheren.players.cluster import ClusterError, dask_executor

        server = _Peer(junk)
        try:  # within the case's deadline (a hang is an outcome of its own)
            with dask_executor(f"tcp://127.0.0.1:{server.port}", timeout=1):
                return "accepted"
        except ClusterError as exc:
            return REFUSED if str(server.port) in str(exc) else "unclear"
        finally:
            server.close()

    def closed_port() -> str:
        from cheren.players.cluster import ClusterError, dask_executor

        try:
            with dask_executor("tcp://127.0.0.1:9", timeout=1):
                return "accepted"
        except ClusterError:
            return REFUSED

    return [Case("a peer that accepts and never answers", later(20, peer, False)),
            Case("a peer that answers junk", later(20, peer, True)),
            Case("a closed port", later(20, closed_port))]


def output_cases(tmp: Path, size: int) -> list[Case]:
    from cheren.files.outputs import OutputError, check_output, write_output

    sp = special_files(tmp / "out-special")
    cases = []
    for name, path in sp.items():
        def refuse(path: Path = path, name: str = name) -> str:
            before = _kind(path)
            try:
                check_output(str(path), force=True)
                return "accepted"
            except OutputError:
                pass
            if "/dev/" not in name:  # the write itself refuses too (never tried on a device)
                try:
                    write_output(path, "x")
                    return "accepted"
                except OutputError:
                    pass
            return REFUSED if _kind(path) == before else "lost"

        cases.append(Case(f"--out {name} --force", later(10, refuse)))
    # leftovers of a killed writer: removed at the next write; a live writer's stays
    def leftover(live: bool) -> str:
        target = tmp / ("live.json" if live else "dead.json")
        target.write_text("old")
        proc = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
        pid = os.getpid() if live else int(proc.stdout)
        tmpfile = tmp / f".{target.name}.{pid}.abcd1234.tmp"
        tmpfile.write_text("half")
        write_output(target, "new")
        if target.read_text() != "new":
            return "lost"
        return (KEPT if tmpfile.exists() else "lost") if live else (RECOVERED if not tmpfile.exists() else "left")

    cases.append(Case("a .tmp left by a killed writer", later(10, leftover, False)))
    cases.append(Case("a .tmp of a writer still running", later(10, leftover, True)))
    return cases


