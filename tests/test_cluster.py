"""Sweeps on a Dask cluster give exactly the games a process pool gives for the same seed.

Starts a real LocalCluster with two worker processes (the workers are new interpreters, with
their own hash seeds, so this also checks that nothing in a game depends on one)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import asdict
from pathlib import Path

import pytest
from distributed import Client, LocalCluster

from cheren.cli.main import main
from cheren.players.simulate import read_results, simulate


@pytest.fixture(scope="module")
def cluster() -> Iterator[LocalCluster]:
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as local:
        yield local


def test_a_dask_sweep_equals_the_process_pool_run(cluster: LocalCluster) -> None:
    pool = simulate(6, seed=11, allied="heuristic", italian="random", jobs=2, keep_log=True)
    with Client(cluster) as client:
        assert len(client.scheduler_info()["workers"]) == 2
        dask = simulate(6, seed=11, allied="heuristic", italian="random", executor=client.get_executor(),
                        keep_log=True, batch=2)
    assert [asdict(r) for r in dask] == [asdict(r) for r in pool]
    assert len({r.seed for r in dask}) == 6


def test_planner_games_on_dask_are_the_games_played_in_one_process(cluster: LocalCluster) -> None:
    # the strongest bot in bulk (issue 29): its play-outs share caches within a game, and a worker
    # that plays two games in a row plays each as one process alone would
    here = simulate(2, seed=3, allied="planner:2", italian="planner:2", keep_log=True)
    with Client(cluster) as client:
        dask = simulate(2, seed=3, allied="planner:2", italian="planner:2", executor=client.get_executor(),
                        keep_log=True, batch=2)
    assert [asdict(r) for r in dask] == [asdict(r) for r in here]
    assert {r.allied_bot for r in dask} == {"planner:2"} and len({r.seed for r in dask}) == 2


def test_cheren_simulate_runs_on_a_dask_scheduler(cluster: LocalCluster, tmp_path: Path) -> None:
    out = tmp_path / "dask.json"
    assert main(["simulate", "--games", "4", "--seed", "5", "--dask", cluster.scheduler_address,
                 "--out", str(out), "--quiet"]) == 0
    local = simulate(4, seed=5)
    assert [asdict(r) for r in read_results(out)] == [asdict(r) for r in local]
    assert json.loads(out.read_text(encoding="utf-8"))["run"]["partial"] is False


def test_an_unreachable_scheduler_is_a_clear_error() -> None:
    from cheren.players.cluster import ClusterError, dask_executor

    with (
        pytest.raises(ClusterError, match=re.escape("cannot reach the Dask scheduler at tcp://127.0.0.1:9")),
        dask_executor("tcp://127.0.0.1:9", timeout=1),
    ):
        pass


def test_cheren_analyse_plays_its_planner_play_outs_on_a_dask_scheduler(cluster: LocalCluster, tmp_path: Path) -> None:
    here, there = tmp_path / "here.json", tmp_path / "dask.json"
    common = ["analyse", "massaua", "--games", "3", "--seed", "4", "--quiet"]
    assert main([*common, "--out", str(here)]) == 0
    assert main([*common, "--dask", cluster.scheduler_address, "--out", str(there)]) == 0
    mine, theirs = (json.loads(p.read_text(encoding="utf-8")) for p in (here, there))
    assert theirs["bots"] == {"allied": "planner", "italian": "planner"} and theirs["games"] == 3
    assert mine == theirs


def test_cheren_analyse_refuses_a_bad_dask_address(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyse", "massaua", "--games", "2", "--dask", "http://10.0.0.5:8786", "--quiet"]) == 2
    assert "--dask takes 'local' or a scheduler address" in capsys.readouterr().err
