"""The app notebook's page (``notebooks/app.ipynb``): the app built and its autosaved game taken
up, in the order that shows the map soonest wherever the notebook runs.

``cheren app`` keeps a kernel ready (Voila's preheated kernels, :mod:`cheren.app.launch`): it runs
the notebook before any page asks for it, so the kernel builds the app first, then waits for its
page and takes up the autosaved game as it is then (a kernel kept for minutes must not show the
game as it was when it started).  While the page loads its scripts, the kernel makes the map's
first paint ready to send (:meth:`cheren.render.canvas.SceneCanvas.prepare`), so the browser gets
it as soon as it says it is there.

The first page after the command usually comes before that kernel has even started: the page
then waits for the kernel whatever it does, and the browser has its own second or so of work
(Voila's scripts, the widgets) that can only begin once the page is served.  So a kernel whose
page is already there when the notebook starts serves the page at once, with an empty box, and
builds the app into it right after: the browser loads its scripts on one processor while the
kernel builds on the other, and asks for the widgets when they are there (the kernel answers
nothing while it builds).

Anywhere else (JupyterLab, nbval, a Voila page without a pool) the app is built at once."""

from __future__ import annotations

import asyncio
import json
import os
import sys
import traceback
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from cheren.app.launch import READY

APP_INTRO = (
    "<p>Play on the map below: hot-seat, or against a bot (<i>Who plays</i>, in the bar under these "
    "words). <b>Open position…</b> opens a historical position (or a code, or a file) for study: both "
    "sides, no curtain, its question and story beside the map, every move in the move list. The game is "
    "kept as you play and taken up again when you come back, with the bot you play against; <i>Save</i> "
    "and <i>Load</i> keep other games. New to the rules? <b>☰ Course</b> opens the course: lessons with "
    "exercises on this map.</p>"
)


class AppPage:
    """``AppPage(autosave)`` in the notebook's first cell, ``page.show()`` in its last: the app
    is :attr:`app` (``None`` only while a kept kernel builds it after serving its page)."""

    def __init__(self, autosave: str | Path, **app_args: Any) -> None:
        self.autosave = Path(autosave)
        self.app_args = {"intro": APP_INTRO, **app_args}  # the intro is the app's: it goes with the course
        self.app: Any = None
        self._socket: Any = None  # the kept kernel's line to the server, which says when a page takes it
        self._line = ExitStack()  # closes it
        self._request: str | None = None
        if os.environ.get("VOILA_PREHEAT") == "True":
            self._socket = _request_socket(self._line)
            self._request = _receive(self._socket, timeout=0.05)  # its page is there already?
        if self._request is None:
            self._build()
            if self._socket is not None:
                self._rehearse()
                print(READY, file=sys.__stderr__, flush=True)  # the console `cheren app` runs in

    def show(self) -> Any:
        """What the page shows: the app with the autosaved game taken up, once a page has
        taken a kept kernel; or, if its page was there first, a box the app is built into
        as soon as the page is served."""
        if self._request is None and self._socket is not None:
            self._request = _receive(self._socket, timeout=None)  # a kept kernel waits for its page
        if self._request is not None:
            for key, value in json.loads(self._request).items():  # as Voila's wait_for_request does
                os.environ[key] = value
        self._line.close()
        self._socket = None
        if self.app is not None:
            self.app.take_up(self.autosave)
            if self._request is not None:  # a kept kernel: its browser connects once the page is served
                _after_this_cell(self.app.map.canvas.prepare)
            return self.app
        import ipywidgets as w

        box = w.VBox(layout=w.Layout(width="100%"))
        # run once this cell is done and the page served: the kernel answers the browser after
        _after_this_cell(lambda: self._build_into(box))
        return box

    def _build(self) -> None:
        from cheren.app import App

        self.app = App(**self.app_args)

    def _rehearse(self) -> None:
        """Write this app's new game to a file and read it back, as the page's take-up will read
        the autosave: the first reading in a process loads and prepares what it needs (about
        0.08 s), which a kept kernel does now rather than while its page waits."""
        import tempfile

        from cheren.app.autosave import write_autosave
        from cheren.study.game_saves import load_study

        with tempfile.TemporaryDirectory(prefix="cheren-app-") as tmp:
            path = Path(tmp) / "rehearsal.json"
            if write_autosave(self.app.board, path) is None:
                load_study(path, self.app.board.scenario)

    def _build_into(self, box: Any) -> None:
        import ipywidgets as w

        try:
            self._build()
            self.app.take_up(self.autosave)
            box.children = [self.app.widget]
        except Exception:  # the page would stay empty: say why there
            box.children = [w.HTML(f"<pre>{traceback.format_exc()}</pre>")]
            raise
        finally:
            print(READY, file=sys.__stderr__, flush=True)


def _after_this_cell(fn: Callable[[], None]) -> None:
    """Run ``fn`` once the cell running now is done (its output is on the page then); at once
    where no event loop runs (a script)."""
    try:
        asyncio.get_running_loop().call_soon(fn)
    except RuntimeError:
        fn()


def _request_socket(line: ExitStack) -> Any:
    """The socket on which Voila (0.5) tells a kept kernel that a page took it, as
    ``voila.utils.wait_for_request`` opens it, without importing Voila in the kernel: that pulls in
    the whole Jupyter server (jsonschema's format checkers compile a grammar as they load), about
    1.7 s of a processor.  The server sends the page's request (its URL, query and headers as CGI
    variables) when a page takes the kernel, and keeps it for a kernel that connects later.
    ``None`` when there is no server to ask (the page is served all the same)."""
    from websockets.sync.client import connect

    env = os.environ
    base = env.get("VOILA_WS_BASE_URL", env.get("VOILA_SERVER_URL", "/"))
    url = (f"{env.get('VOILA_WS_PROTOCOL', 'ws')}://{env.get('VOILA_APP_IP', '127.0.0.1')}:"
           f"{env.get('VOILA_APP_PORT', '8866')}{base}voila/query/{env.get('VOILA_KERNEL_ID')}")
    try:
        return line.enter_context(connect(url, open_timeout=5))
    except (TimeoutError, OSError) as exc:
        print(f"cheren app: the kept kernel cannot hear its page come ({exc})", file=sys.__stderr__)
        return None


def _receive(socket: Any, timeout: float | None) -> str | None:
    """The page's request, if it comes within ``timeout`` seconds (``None``: however long)."""
    if socket is None:
        return None
    try:
        message = socket.recv(timeout=timeout)
    except TimeoutError:
        return None
    except Exception as exc:  # the server went away: nothing more will come on this socket
        print(f"cheren app: the kept kernel lost its line to the server ({exc})", file=sys.__stderr__)
        return None
    return message if isinstance(message, str) else message.decode()
