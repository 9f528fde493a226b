"""``cheren app`` and ``cheren lab`` (issue 30, item 7): the notebooks are served from a working
copy (in a clone too, so git stays clean), copies the user never changed follow the notebooks,
changed ones are kept, and the address printed is the one the server listens on."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from cheren.app import launch
from cheren.app.launch import MANIFEST, Announcement, prepare, served_url, working_folder
from cheren.scenario.resources import _SOURCE


def test_in_a_clone_the_notebooks_are_served_from_a_copy_git_ignores(tmp_path: Path) -> None:
    where = working_folder(None)
    assert where == _SOURCE / "cheren-notebooks" and where != _SOURCE / "notebooks"
    if (_SOURCE / ".git").exists():
        probe = where / "play.ipynb"
        ignored = subprocess.run(["git", "check-ignore", "-q", str(probe)], cwd=_SOURCE)
        assert ignored.returncode == 0, "cheren-notebooks/ must be ignored by git"
    assert working_folder(tmp_path) == tmp_path


def test_copies_follow_their_notebooks_until_the_user_changes_them(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    source = tmp_path / "bundled"
    (source / "learn").mkdir(parents=True)
    (source / "a.ipynb").write_text("a1")
    (source / "learn" / "b.ipynb").write_text("b1")
    monkeypatch.setattr(launch, "notebooks_dir", lambda: source)
    work = tmp_path / "work"
    done = prepare(work)
    assert sorted(p.name for p in done.copied) == ["a.ipynb", "b.ipynb"] and not done.updated
    assert json.loads((work / MANIFEST).read_text())  # the versions copied
    (work / "learn" / "b.ipynb").write_text("mine")  # the learner's own work
    (source / "a.ipynb").write_text("a2")
    (source / "learn" / "b.ipynb").write_text("b2")
    done = prepare(work)
    assert [p.name for p in done.updated] == ["a.ipynb"] and [p.name for p in done.kept] == ["b.ipynb"]
    assert (work / "a.ipynb").read_text() == "a2" and (work / "learn" / "b.ipynb").read_text() == "mine"
    assert prepare(work).updated == []  # nothing new: nothing to do (b stays the user's, said each time)
    assert list(work.glob("*.json")) == []  # the app lists *.json as saves: the record is not one


def test_the_address_is_read_from_what_the_server_says() -> None:
    lab = ["[I 2026-11-25 ServerApp] Jupyter Server 2.21.1 is running at:",
           "[I 2026-11-25 ServerApp] http://localhost:8890/lab?token=abc",
           "[I 2026-11-25 ServerApp]     http://127.0.0.1:8890/lab?token=abc"]
    seen: list[str] = []
    assert [served_url(line, seen) for line in lab] == [None, "http://127.0.0.1:8890/lab?token=abc",
                                                       "http://127.0.0.1:8890/lab?token=abc"]
    assert served_url("see http://127.0.0.1:1/ for nothing", []) is None  # not before "is running at"
    voila = ["[Voila] Voilà is running at:", "http://127.0.0.1:8867/"]
    seen = []
    assert [served_url(line, seen) for line in voila] == [None, "http://127.0.0.1:8867/"]


def test_cheren_lab_says_the_port_jupyter_took_when_the_one_asked_for_is_in_use(tmp_path: Path) -> None:
    pytest.importorskip("jupyterlab")
    busy = socket.socket()
    busy.bind(("127.0.0.1", 0))
    busy.listen()
    port = busy.getsockname()[1]
    cmd = [sys.executable, "-m", "cheren.cli.main", "lab", "--dir", str(tmp_path / "nb"), "--port", str(port),
           "--no-browser"]
    proc = subprocess.Popen(cmd, cwd=tmp_path, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stderr is not None
        deadline, said = time.monotonic() + 120, ""
        while time.monotonic() < deadline and not said:
            line = proc.stderr.readline()
            if not line and proc.poll() is not None:
                break
            if line.startswith("cheren lab: serving"):
                said = line
        assert said, "cheren lab never said where it serves"
        url = said.split(" at ", 1)[1].split()[0]
        assert f":{port}/" not in url and f"port {port} was in use" in said
        status = url.replace("/lab?", "/api/status?")
        while True:  # the server answers there (give it the moment it takes to start answering)
            try:
                with urllib.request.urlopen(status, timeout=30) as answer:
                    assert answer.status == 200
                    break
            except OSError:
                assert time.monotonic() < deadline and proc.poll() is None, f"nothing answers at {url}"
                time.sleep(0.3)
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        busy.close()


VOILA_START = ["[Voila] Voilà is running at:", "http://127.0.0.1:8866/",
               "[Voila] WARNING | Notebook app.ipynb is not trusted",
               "[Voila] Kernel started: 6dae76cc-d2c3-45ce-97d8-0bf32f5b8294",
               "[Voila] Kernel pool of app.ipynb is filled with 1 kernel(s)",
               "[Voila] Kernel started: 502d4f01-db12-4b70-8408-375ea32a70de"]


def test_cheren_app_gives_its_address_once_the_kept_kernel_is_there() -> None:
    # a page asked for before Voila has taken in its kept kernel gets a kernel of its own, which
    # builds the app beside the kept one: the address (and the browser) waits for that line
    news = Announcement(wait_for_kept_kernel=True)
    assert [news.feed(line) for line in VOILA_START] == [None, None, None, None, "http://127.0.0.1:8866/", None]
    lab = Announcement(wait_for_kept_kernel=False)  # JupyterLab: as soon as it listens
    assert [lab.feed(line) for line in VOILA_START[:3]] == [None, "http://127.0.0.1:8866/", None]


def test_cheren_app_gives_its_address_anyway_when_no_kept_kernel_comes() -> None:
    news = Announcement(wait_for_kept_kernel=True)
    assert [news.feed(line) for line in VOILA_START[:3]] == [None, None, None]
    assert news.due() is None
    assert news.due(waited_enough=True) == "http://127.0.0.1:8866/"  # the launcher's timer
    assert news.due(waited_enough=True) is None and news.feed(VOILA_START[4]) is None  # said once
