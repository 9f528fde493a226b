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
    the ``with`` block ends; a scheduler that does not answer within ``timeout`` seconds is a
    :class:`ClusterError`."""
    try:
        from distributed import Client, LocalCluster
    except ImportError as exc:
        raise ClusterError(INSTALL_HINT) from exc
    cluster: Any = None
    try:
        if address == "local":
            # single-threaded workers: a game is pure Python, so threads would only share the GIL
            cluster = LocalCluster(n_workers=max(1, workers), threads_per_worker=1, processes=True,
                                   dashboard_address=None)
            client = Client(cluster)
        else:
            client = Client(address, timeout=timeout)
    except OSError as exc:  # refused, unreachable or timed out
        if cluster is not None:
            cluster.close()
        raise ClusterError(f"cannot reach the Dask scheduler at {address}: {exc}") from exc
    try:
        yield client.get_executor()
    finally:
        with suppress(Exception):
            client.close()
        if cluster is not None:
            with suppress(Exception):
                cluster.close()
