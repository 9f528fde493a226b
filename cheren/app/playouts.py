"""Play-outs in the background: the position on the board played out N times by two bots
(:func:`cheren.study.analysis.evaluate.evaluate`) in worker processes, while the map stays live.
The games finished so far are counted as they come in (games done, the running estimate);
**Stop** ends the run at once and keeps what finished.

The games run in other processes, so the kernel is free to answer clicks; a thread of the kernel
only waits for their results.  Whoever shows the progress registers a callback with
:meth:`PlayOuts.watch`: it is called from that thread, so it should only update its own widgets."""

from __future__ import annotations

import atexit
import os
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from cheren.study.analysis.evaluate import Evaluation
from cheren.study.map_intents import Feedback

if TYPE_CHECKING:
    from concurrent.futures import Executor

    from cheren.app.board import Board


class _Stopped(Exception):
    """Raised in the waiting thread when Stop was pressed: it ends the run."""


_LIVE: set[Any] = set()  # the worker pools running now


@atexit.register
def _stop_all() -> None:
    """The kernel is going (a page closed, a notebook shut down): no worker plays on after it."""
    from cheren.players.simulate import stop_pool

    for pool in list(_LIVE):
        stop_pool(pool)


def default_jobs() -> int:
    """Worker processes for a play-out: every core but one, which the app keeps (1 to 4)."""
    return max(1, min(4, (os.cpu_count() or 2) - 1))


class PlayOuts:
    def __init__(self, board: Board) -> None:
        self.board = board
        self.evaluation: Evaluation | None = None  # the last run's games, finished so far
        self.total = 0
        self.label = ""
        self.state = "idle"  # idle, running, stopped, done, failed
        self.error = ""
        self.started = self.ended = 0.0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._pool: Executor | None = None
        self._watchers: list[Callable[[], None]] = []

    @property
    def running(self) -> bool:
        return self.state == "running"

    @property
    def done(self) -> int:
        return len(self.evaluation.results) if self.evaluation is not None else 0

    def watch(self, fn: Callable[[], None]) -> None:
        self._watchers.append(fn)

    def _tell(self) -> None:
        for fn in list(self._watchers):
            fn()

    def start(self, games: int, bot: str = "heuristic", *, seed: int | None = None, jobs: int | None = None,
              wait: bool = False) -> Feedback:
        """Play the board's position out ``games`` times with ``bot`` on both sides; ``wait``:
        return only when it is over (scripts and tests)."""
        b = self.board
        if self.running:
            return b.say(Feedback("refused", "Play-outs are running: Stop them first (the finished games are kept)."))
        if games < 1:
            return b.say(Feedback("refused", "Play out at least one game."))
        position = b.position.copy()
        study = b.study
        self.label = f"{study.current}, after {len(b.game.log)} actions ({b.game.status()})"
        self.evaluation = Evaluation(b.scenario, self.label, bot, bot, b.version if seed is None else seed,
                                     position.side.value)
        self.total, self.state, self.error = games, "running", ""
        self.started, self.ended = time.monotonic(), 0.0
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, args=(position, games, bot, self.evaluation,
                                                                jobs or default_jobs()), daemon=True)
        self._thread.start()
        self._tell()
        fb = b.say(Feedback("info", f"Playing the position out {games} times in the background ({bot} bots): "
                                    "the map stays yours; Stop keeps the games finished."))
        if wait:
            self.wait()
        return fb

    def _run(self, position: Any, games: int, bot: str, ev: Evaluation, jobs: int) -> None:
        from cheren.players.simulate import stop_pool, worker_pool
        from cheren.study.analysis.evaluate import evaluate

        pool = self._pool = worker_pool(jobs, background=True)
        _LIVE.add(pool)

        def finished(result: Any) -> None:
            if self._stop.is_set():
                raise _Stopped
            ev.results.append(result)
            self._tell()

        try:
            evaluate(position, games, allied=bot, italian=bot, seed=ev.seed, label=ev.label, executor=pool,
                     on_result=finished)
            self.state = "stopped" if self._stop.is_set() else "done"
        except _Stopped:
            self.state = "stopped"
        except Exception as exc:  # a failed run is said, never a traceback in the page
            self.state = "stopped" if self._stop.is_set() else "failed"
            self.error = str(exc)
        finally:
            stop_pool(pool)
            _LIVE.discard(pool)
            self._pool = None
            self.ended = time.monotonic()
            self._tell()

    def stop(self) -> Feedback:
        """End the run now; the games finished are kept."""
        b = self.board
        if not self.running:
            return b.say(Feedback("info", "No play-out is running."))
        self._stop.set()
        self.state = "stopped"
        pool = self._pool
        if pool is not None:  # the games not started are dropped; the waiting thread ends the workers
            pool.shutdown(wait=False, cancel_futures=True)
        self.ended = time.monotonic()
        self._tell()
        return b.say(Feedback("info", f"Stopped: {self.done} of {self.total} play-outs finished and kept."))

    def wait(self, timeout: float | None = None) -> None:
        thread = self._thread
        if thread is not None:
            thread.join(timeout)
