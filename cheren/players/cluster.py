"""Sweeps on a Dask cluster: :func:`cheren.players.simulate.simulate` takes any
:class:`concurrent.futures.Executor`, and Dask distributed's ``Client.get_executor()`` is one
that runs on as many machines as the cluster has.

Install the extra on the machine that submits and on every worker::

    pip install 'cheren[cluster]'

then ``cheren simulate --dask tcp://scheduler:8786 ...`` (a running cluster) or
``cheren simulate --dask local --jobs N ...`` (a :class:`distributed.LocalCluster` of N worker
processes on this machine).  Games go to the workers in batches (see
:func:`cheren.players.simulate.simulate`), so the scheduler handles a few dozen tasks rather than one
per game.  Every game's seed comes from the run's seed, so the results are the same as with a
process pool or in one process.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from concurrent.futures import Executor
from contextlib import contextmanager, suppress
from typing import Any

INSTALL_HINT = "Dask is not installed: pip install 'cheren[cluster]' (on the workers too)"


class ClusterError(RuntimeError):
    """The cluster could not be used (not installed, not reachable)."""


@contextmanager
def dask_executor(address: str, workers: int = 2, timeout: float = 10) -> Iterator[Executor]:
    """An executor that runs tasks on the Dask cluster at ``address`` (a scheduler address such
    as ``tcp://10.0.0.5:8786``), or on a new local cluster of ``workers`` single-threaded
    worker processes when ``address`` is ``local``.  The client (and a local cluster) close when
    the ``with`` block ends.  A scheduler that does not answer within ``timeout`` seconds (even
    one that accepts the connection and then says nothing), something else at that address, or a
    cluster without a worker is a :class:`ClusterError`."""
    try:
        from distributed import Client, LocalCluster
    except ImportError as exc:
        raise ClusterError(INSTALL_HINT) from exc
    cluster: Any = None
    if address == "local":
        try:
            # single-threaded workers: a game is pure Python, so threads would only share the GIL
            cluster = LocalCluster(n_workers=max(1, workers), threads_per_worker=1, processes=True,
                                   dashboard_address=None)
            client = Client(cluster)
        except Exception as exc:
            if cluster is not None:
                with suppress(Exception):
                    cluster.close()
            raise ClusterError(f"cannot start a local Dask cluster: {_reason(exc)}") from exc
    else:
        client = _connect(Client, address, timeout)
    try:
        yield client.get_executor()
    finally:
        with suppress(Exception):
            client.close(timeout=timeout)
        if cluster is not None:
            with suppress(Exception):
                cluster.close(timeout=timeout)


def _connect(client_type: Any, address: str, timeout: float) -> Any:
    """A client of the scheduler at ``address``, within ``timeout`` seconds or a ClusterError.

    Dask's own timeout covers opening the connection, not a peer that accepts it and then never
    answers (the client would wait for minutes), so the connection is made in a thread and given
    up after the deadline; the thread is a daemon, so it never keeps the command from ending."""
    box: dict[str, Any] = {}
    connected = threading.Event()

    def connect() -> None:
        client = None
        try:
            client = client_type(address, timeout=timeout)
            connected.set()
            client.wait_for_workers(1, timeout=timeout)
            box["client"] = client
        except BaseException as exc:  # whatever the peer sends, report it rather than raise in a thread
            box["error"] = exc
            if client is not None:
                with suppress(Exception):
                    client.close(timeout=1)
        finally:
            connected.set()

    thread = threading.Thread(target=connect, name="cheren-dask-connect", daemon=True)
    thread.start()
    if not connected.wait(timeout + 1):
        raise ClusterError(f"the Dask scheduler at {address} did not answer within {timeout:g} s; "
                           "is a Dask scheduler running there?")
    thread.join(timeout + 1)
    if thread.is_alive():
        raise ClusterError(f"the Dask cluster at {address} has no worker (waited {timeout:g} s)")
    if "error" in box:
        exc = box["error"]
        if isinstance(exc, TimeoutError) and "worker" in str(exc).lower():
            raise ClusterError(f"the Dask cluster at {address} has no worker (waited {timeout:g} s)")
        raise ClusterError(f"cannot reach the Dask scheduler at {address}: {_reason(exc)}")
    return box["client"]


def _reason(exc: BaseException) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text[:200]
