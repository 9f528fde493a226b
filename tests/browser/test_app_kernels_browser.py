"""`cheren app` shuts down the kernel of a page that was left (reloaded or closed): Voila 0.5
refuses the shutdown a leaving page asks for (no XSRF token, voila-dashboards/voila#1458), so
every reload left a whole app's kernel running until the server stopped.  The command culls a
kernel no page is connected to (cheren.app.launch.CULL_AFTER); here the same command with the
wait cut to seconds (the command's own settings checked), so the test need not wait two minutes."""

from __future__ import annotations

import re
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from cheren.app.launch import CULL_AFTER, CULL_EVERY, READY, app_command, prepare
from tests.browser.conftest import TIMEOUT_MS, _free_port, _isolated_env
from tests.browser.test_app_start_browser import wait_for_map

IDLE_S = 3  # seconds a kernel with no page waits before it is shut down, in this test


class Voila:
    def __init__(self, proc: subprocess.Popen[bytes], log: Path, url: str) -> None:
        self.proc, self.log, self.url = proc, log, url

    def text(self) -> str:
        return self.log.read_text(errors="replace")

    def started(self) -> list[str]:
        return re.findall(r"Kernel started: (\S+)", self.text())

    def live(self) -> set[str]:
        return set(self.started()) - set(re.findall(r"Kernel shutdown: (\S+)", self.text()))

    def wait_for(self, what: str, timeout: float = 120.0) -> None:
        deadline = time.monotonic() + timeout
        while what not in self.text():
            if self.proc.poll() is not None:
                raise RuntimeError(f"the app server exited with {self.proc.returncode}; see {self.log}")
            if time.monotonic() > deadline:
                raise TimeoutError(f"the server never said {what!r} in {timeout:.0f} s; see {self.log}")
            time.sleep(0.1)


@pytest.fixture
def app_server(tmp_path: Path) -> Iterator[Voila]:
    folder = tmp_path / "notebooks"
    folder.mkdir()
    prepare(folder)
    port = _free_port()
    log = tmp_path / "voila.log"
    cmd = app_command(folder, port, False)
    culling = [arg for arg in cmd if arg.startswith("--MappingKernelManager.cull_")]
    assert culling == [f"--MappingKernelManager.cull_idle_timeout={CULL_AFTER}",
                       f"--MappingKernelManager.cull_interval={CULL_EVERY}"]
    cmd = [arg for arg in cmd if arg not in culling] + [
        f"--MappingKernelManager.cull_idle_timeout={IDLE_S}", "--MappingKernelManager.cull_interval=1"]
    env = _isolated_env(tmp_path)
    env.pop("CHEREN_AUTOSAVE", None)  # the app's own autosave in its folder, as a user's
    with log.open("wb") as out:
        proc = subprocess.Popen(cmd, cwd=folder, env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        yield Voila(proc, log, f"http://127.0.0.1:{port}/")
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)


def test_the_kernel_of_a_reloaded_page_is_shut_down_and_the_page_s_own_kept(page: Any, app_server: Voila) -> None:
    page.set_default_navigation_timeout(120_000)
    app_server.wait_for(READY)  # the kept kernel has the app ready: the first page takes it
    page.goto(app_server.url)
    wait_for_map(page)
    first = app_server.started()[0]
    deadline = time.monotonic() + 120
    while app_server.text().count(READY) < 2:  # the next kept kernel, for the reload
        assert time.monotonic() < deadline, f"no second kept kernel; see {app_server.log}"
        time.sleep(0.1)
    page.reload()
    wait_for_map(page)
    app_server.wait_for(f"Kernel shutdown: {first}", timeout=60)  # the left page's kernel
    time.sleep(2 * IDLE_S)  # the reloaded page sits idle past the wait: its kernel stays
    bar = page.locator(".cheren-bar").first
    page.locator(".cheren-end-phase").first.click()
    expect(bar).to_have_attribute("data-phase", "movement", timeout=TIMEOUT_MS)
    # left running: the reloaded page's kernel and the one kept for the next page
    assert len(app_server.live()) == 2, app_server.text()[-3000:]
