"""`cheren app` shuts down the kernel of a page that was left (reloaded or closed): Voila 0.5
refuses the shutdown a leaving page asks for (no XSRF token, voila-dashboards/voila#1458), so
every reload left a whole app's kernel running until the server stopped.  The command culls a
kernel no page is connected to (cheren.app.launch.CULL_AFTER); here the same command with the
wait cut to seconds (the command's own settings checked), so the test need not wait two minutes."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from cheren.app.launch import CULL_AFTER, CULL_EVERY, app_command, prepare
from tests.browser.conftest import TIMEOUT_MS, _free_port, _isolated_env
from tests.browser.test_app_start_browser import Server, wait_for_map
from tests.servers import running

IDLE_S = 3  # seconds a kernel with no page waits before it is shut down, in this test


def kernels(server: Server) -> tuple[list[str], set[str]]:
    """Every kernel the server started, in order, and those still running (from its log)."""
    text = server.log.read_text(errors="replace")
    started = re.findall(r"Kernel started: (\S+)", text)
    return started, set(started) - set(re.findall(r"Kernel shutdown: (\S+)", text))


@pytest.fixture
def app_server(tmp_path: Path) -> Iterator[Server]:
    folder = tmp_path / "notebooks"
    folder.mkdir()
    prepare(folder)
    port = _free_port()
    cmd = app_command(folder, port, False)
    culling = [arg for arg in cmd if arg.startswith("--MappingKernelManager.cull_")]
    assert culling == [f"--MappingKernelManager.cull_idle_timeout={CULL_AFTER}",
                       f"--MappingKernelManager.cull_interval={CULL_EVERY}"]
    cmd = [arg for arg in cmd if arg not in culling] + [
        f"--MappingKernelManager.cull_idle_timeout={IDLE_S}", "--MappingKernelManager.cull_interval=1"]
    env = _isolated_env(tmp_path)
    env.pop("CHEREN_AUTOSAVE", None)  # the app's own autosave in its folder, as a user's
    log = tmp_path / "voila.log"
    with running(cmd, folder, env, log) as proc:
        yield Server(proc, log, f"http://127.0.0.1:{port}/", time.monotonic())


def test_the_kernel_of_a_reloaded_page_is_shut_down_and_the_page_s_own_kept(page: Any, app_server: Server) -> None:
    page.set_default_navigation_timeout(120_000)
    app_server.wait_ready()  # the kept kernel has the app ready: the first page takes it
    page.goto(app_server.url)
    wait_for_map(page)
    first = kernels(app_server)[0][0]
    app_server.wait_ready()  # the next kept kernel, for the reload
    page.reload()
    wait_for_map(page)
    app_server.wait_until(lambda: first not in kernels(app_server)[1], "the left page's kernel was not shut down", 60)
    time.sleep(2 * IDLE_S)  # the reloaded page sits idle past the wait: its kernel stays
    bar = page.locator(".cheren-bar").first
    page.locator(".cheren-end-phase").first.click()
    expect(bar).to_have_attribute("data-phase", "movement", timeout=TIMEOUT_MS)
    # left running: the reloaded page's kernel and the one kept for the next page
    assert len(kernels(app_server)[1]) == 2, app_server.log.read_text(errors="replace")[-3000:]
