"""`cheren app` on screen at once (issue 29): the real command, timed from the moment it is typed
until the map is painted, then a page reload until the map is painted again.

The command keeps a kernel ready (Voila's preheated kernels, cheren.app.launch): the engine, the
scenario and the app are built before the page asks, and the autosaved game is read when it
does.  So the test also changes the game *after* the kept kernel was started and checks that the
reload shows the game as it is, not as it was when that kernel started.  The first page is asked
for where and as soon as the command says it serves (it says so, and opens a user's browser, once
Voila has its kept kernel); it finds that kernel still starting: the kernel serves the page at
once and builds the app into it after (cheren.app.app_page), so both paths are timed.

Targets: the map within 4 s of the command on a warm machine and within 1.5 s of a reload; the
test fails above twice these (8 s, 3 s), since CI runs it on 2 shared cores with the whole suite.
Both times are printed in the "browser timings" section at the end of the run.  The reload is
timed once the server says a kernel is ready again (a user who reloads at once, while the kept
kernel is still being started, waits for it: that is a kernel start, not a page load).

The page keeps what a browser keeps (its HTTP cache, so a reload does not fetch and compile
Voila's hundred scripts again): requests are not routed here, since Playwright's routing turns
the cache off (playwright#7220); none leaves the machine all the same (conftest's resolver rule).

A wall clock measures the machine as much as the app: on a machine already running more than
:data:`BUSY` processes per core (the load average, before and after), the figures are printed and
the test is skipped, saying so, rather than failed; everywhere else they are judged."""

from __future__ import annotations

import contextlib
import os
import re
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from cheren.app.launch import READY
from tests.browser.conftest import BIN, TIMEOUT_MS, TIMINGS, _free_port, _isolated_env
from tests.servers import running

TAKEN = "Using pre-heated kernel"  # Voila's log, as a page takes a kept kernel
COMMAND_TO_MAP_S = 8.0  # twice the 4 s target
RELOAD_TO_MAP_S = 3.0  # twice the 1.5 s target
BUSY = 2.0  # runnable processes per core (1-minute load average) above which times are not judged
CANVAS = ".cheren-app canvas.cheren-map"
# the map canvas is on screen (not behind the hot-seat curtain) and has paint in its middle
PAINTED = """(sel) => { const c = document.querySelector(sel); if (!c || !c.width || !c.offsetParent) return false;
  return c.getContext('2d').getImageData(c.width / 2, c.height / 2, 1, 1).data[3] > 0; }"""


class Server:
    def __init__(self, proc: subprocess.Popen[bytes], log: Path, url: str, started: float) -> None:
        self.proc, self.log, self.url, self.started = proc, log, url, started

    def kernels_free(self) -> int:
        """Kept kernels ready and not taken by a page: each says it is ready once (after its page
        if that came first), and Voila says when a page takes one."""
        text = self.log.read_text(errors="replace")
        return text.count(READY) - text.count(TAKEN)

    def wait_ready(self, timeout: float = 120.0) -> None:
        """Until a kept kernel is ready for the next page."""
        self.wait_until(lambda: self.kernels_free() >= 1, f"no kept kernel said {READY!r}", timeout)

    def wait_until(self, done: Callable[[], bool], failure: str, timeout: float = 120.0) -> None:
        deadline = time.monotonic() + timeout
        while not done():
            if self.proc.poll() is not None:
                raise RuntimeError(f"the app server exited with {self.proc.returncode}; see {self.log}")
            if time.monotonic() > deadline:
                raise TimeoutError(f"{failure} in {timeout:.0f} s; see {self.log}")
            time.sleep(0.05)


@pytest.fixture
def cheren_app(tmp_path: Path) -> Iterator[Server]:
    """`cheren app` as a user types it, serving a fresh folder (no autosave yet)."""
    port = _free_port()
    log = tmp_path / "cheren-app.log"
    cmd = [str(BIN / "cheren"), "app", "--no-browser", f"--port={port}", f"--dir={tmp_path / 'notebooks'}"]
    env = _isolated_env(tmp_path)
    # the autosave a user's app keeps (in the served folder), not the one the test run shares
    # (tests/conftest.py): another test's game there would be taken up instead of a new one
    env.pop("CHEREN_AUTOSAVE", None)
    started = time.monotonic()
    with running(cmd, tmp_path, env, log) as proc:
        yield Server(proc, log, f"http://127.0.0.1:{port}/", started)


def wait_until_served(server: Server) -> str:
    """The address the command says it serves at, as soon as it says it."""
    deadline = time.monotonic() + 120
    while True:
        said = re.search(r"cheren app: serving .* at (http\S+)", server.log.read_text(errors="replace"))
        if said:
            return said.group(1)
        if server.proc.poll() is not None:
            raise RuntimeError(f"cheren app exited with {server.proc.returncode}; see {server.log}")
        if time.monotonic() > deadline:
            raise TimeoutError(f"cheren app never said where it serves; see {server.log}")
        time.sleep(0.02)


def wait_for_map(page: Any) -> None:
    """Until the map is painted; the hot-seat curtain (shown after a reload) is answered as soon
    as it shows, so that click is part of the time."""
    deadline = time.monotonic() + 120
    while not page.evaluate(PAINTED, CANVAS):
        reveal = page.locator(".cheren-reveal:visible")
        if reveal.count():
            # it may go away (answered) or not be clickable yet: then look again
            with contextlib.suppress(Exception):
                reveal.first.click(timeout=500)
        if time.monotonic() > deadline:
            raise TimeoutError("the map was not painted in 120 s")
        page.wait_for_timeout(20)


def busy() -> float:
    """Runnable processes per core, over the last minute."""
    return os.getloadavg()[0] / (os.cpu_count() or 1)


def test_cheren_app_shows_the_map_at_once_and_again_after_a_reload(page: Any, cheren_app: Server) -> None:
    load_before = busy()
    page.unroute("**/*")  # the browser's HTTP cache on, as a user's is (see the module notes)
    page.set_default_navigation_timeout(120_000)
    page.goto(wait_until_served(cheren_app))
    wait_for_map(page)
    command_to_map = time.monotonic() - cheren_app.started

    # the page took the kernel started with the server; the next one is being started now
    cheren_app.wait_ready()
    # changed after the kept kernel was started: the reload must show it as it is now
    bar = page.locator(".cheren-bar").first
    page.locator(".cheren-end-phase").first.click()
    expect(bar).to_have_attribute("data-phase", "movement", timeout=TIMEOUT_MS)
    page.wait_for_timeout(300)  # the autosave is written as the phase changes; let it land

    t0 = time.monotonic()
    page.reload()
    wait_for_map(page)
    reload_to_map = time.monotonic() - t0
    expect(page.locator(".cheren-bar").first).to_have_attribute("data-phase", "movement", timeout=TIMEOUT_MS)

    load = max(load_before, busy())
    TIMINGS.append(f"cheren app: the map painted {command_to_map:.1f} s after the command "
                   f"(target 4 s, fails above {COMMAND_TO_MAP_S:.0f} s; load {load:.1f} per core)")
    TIMINGS.append(f"cheren app: the map painted {reload_to_map:.1f} s after a page reload "
                   f"(target 1.5 s, fails above {RELOAD_TO_MAP_S:.0f} s)")
    if load > BUSY:
        pytest.skip(f"the machine is busy ({load:.1f} runnable processes per core): the map took "
                    f"{command_to_map:.1f} s after the command and {reload_to_map:.1f} s after a reload, not judged")
    assert command_to_map <= COMMAND_TO_MAP_S, f"the map took {command_to_map:.1f} s after `cheren app`"
    assert reload_to_map <= RELOAD_TO_MAP_S, f"the map took {reload_to_map:.1f} s after a reload"
