"""The app notebook's page in a kernel `cheren app` keeps ready (issue 29, cheren.app.app_page),
against a stand-in for Voila's request socket: a kernel whose page comes later builds the app
first and takes up the autosaved game as it is when the page comes; a kernel whose page is there
already serves it at once and builds the app into it right after.  The real thing, timed, is
tests/browser/test_app_start_browser.py."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.server import ServerConnection, serve

from cheren.app import App
from cheren.app.app_page import AppPage
from cheren.app.autosave import write_autosave
from cheren.app.launch import READY
from cheren.scenario.models import Phase


class Voila:
    """Sends the page's request on the kernel's socket once :meth:`page` is called (at once if
    it was called before the kernel connected), as Voila's RequestInfoSocketHandler does."""

    def __init__(self) -> None:
        self.came = threading.Event()
        self.paths: list[str] = []
        self.server = serve(self._handler, "127.0.0.1", 0)
        self.port = self.server.socket.getsockname()[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def _handler(self, socket: ServerConnection) -> None:
        assert socket.request is not None
        self.paths.append(socket.request.path)
        while not self.came.wait(0.01):
            try:  # a kernel that only looked whether its page was there has gone: wait for the next
                socket.ping().wait(0.01)
            except Exception:
                return
        socket.send(json.dumps({"QUERY_STRING": "from=test", "SERVER_NAME": "127.0.0.1"}))
        socket.recv()  # until the kernel closes

    def page(self) -> None:
        self.came.set()


@pytest.fixture
def voila(monkeypatch: pytest.MonkeyPatch) -> Iterator[Voila]:
    server = Voila()
    for key, value in {"VOILA_PREHEAT": "True", "VOILA_APP_PORT": str(server.port), "VOILA_SERVER_URL": "/",
                       "VOILA_KERNEL_ID": "k-1", "QUERY_STRING": ""}.items():
        monkeypatch.setenv(key, value)
    yield server
    server.server.shutdown()


def test_a_kept_kernel_builds_first_and_takes_up_the_game_as_it_is_when_its_page_comes(
        voila: Voila, tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    autosave = tmp_path / "cheren-autosave.json"
    page = AppPage(autosave=autosave)
    assert page.app is not None and READY in capfd.readouterr().err  # built and said so, before any page
    # meanwhile the game goes on in another page, which autosaves it
    other = App()
    other.board.play.end_phase()
    assert write_autosave(other.board, autosave) is None
    voila.page()
    shown = page.show()
    assert shown is page.app
    assert page.app.board.game.position.phase is Phase.MOVEMENT  # the game as it is now, not as it was
    assert voila.paths[0] == "/voila/query/k-1"
    import os

    assert os.environ["QUERY_STRING"] == "from=test"  # the page's request, as Voila's wait_for_request sets it


def test_a_kernel_whose_page_is_there_first_serves_it_at_once_and_builds_the_app_into_it(
        voila: Voila, tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    voila.page()
    built: list[Any] = []

    async def notebook() -> Any:
        page = AppPage(autosave=tmp_path / "cheren-autosave.json")
        assert page.app is None  # not built before the page is served
        box = page.show()
        assert box.children == ()  # served empty: the browser loads its scripts meanwhile
        await asyncio.sleep(0)  # the cell is done: the kernel builds, then answers the browser
        built.append(page.app)
        return box

    boxes: list[Any] = []  # in a thread of its own: the browser tests' Playwright keeps a loop running in this one
    worker = threading.Thread(target=lambda: boxes.append(asyncio.run(notebook())))
    worker.start()
    worker.join(120)
    box, app = boxes[0], built[0]
    assert app is not None and box.children == (app.widget,)
    assert app.board.game.position.turn == 1 and READY in capfd.readouterr().err


def test_without_a_kept_kernel_the_app_is_built_at_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("VOILA_PREHEAT", raising=False)  # JupyterLab, nbval, a Voila page without a pool
    page = AppPage(autosave=tmp_path / "cheren-autosave.json")
    assert page.app is not None and page.show() is page.app
