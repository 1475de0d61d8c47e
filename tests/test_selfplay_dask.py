"""Self-play on a real Dask LocalCluster of two worker processes (and of two threads)."""

import os
import signal

import pytest
from click.testing import CliRunner
from distributed import Client

from tessera.cli import main
from tessera.games import get_game
from tessera.selfplay import records
from tessera.selfplay.cluster import DaskCluster
from tessera.selfplay.plan import make_plan
from tessera.selfplay.runner import choose_executor, run_selfplay

AZUL = get_game("azul")


@pytest.fixture(scope="module")
def cluster():
    """A LocalCluster started as ``--cluster local`` starts it; tests reach it by address."""
    with DaskCluster("local", 2) as local:
        yield local.cluster


@pytest.mark.long  # a local dask cluster
def test_a_batch_on_the_cluster_writes_the_records_of_this_process(tmp_path, cluster):
    args = [
        "selfplay",
        "azul",
        "--games",
        "300",
        "--agents",
        "random,greedy",
        "--seed",
        "21",
        "--chunk-size",
        "100",
        "--no-plots",
        "--cluster",
        cluster.scheduler_address,
    ]
    result = CliRunner().invoke(main, args + ["--out", str(tmp_path / "dask")])
    assert result.exit_code == 0, result.output
    assert "Score of random vs greedy:" in result.stdout
    plan = make_plan(AZUL, {"players": 2}, ["random", "greedy"], 300, 21, 100)
    run_selfplay(plan, tmp_path / "here", choose_executor(1))
    assert records.read_records(tmp_path / "dask").equals(records.read_records(tmp_path / "here"))


def test_workers_share_the_cores_out(cluster):
    with DaskCluster(cluster.scheduler_address, None) as dask:
        assert dask.dask_threads_by_host() == {"127.0.0.1": 2}


@pytest.mark.long  # a local dask cluster
def test_a_lost_worker_costs_only_its_chunk(tmp_path, cluster):
    plan = make_plan(AZUL, {"players": 4}, ["greedy", "random"], 1200, 5, 100)
    with Client(cluster) as client:
        pids = client.run(os.getpid)
    killed = []

    def kill_a_worker(done, total, played_now, seconds):
        if done and not killed:
            pid = next(iter(pids.values()))
            os.kill(pid, signal.SIGKILL)
            killed.append(pid)

    result = run_selfplay(plan, tmp_path / "dask", DaskCluster(cluster.scheduler_address, None), progress=kill_a_worker)
    assert killed and result.games_done == 1200 and not result.interrupted
    run_selfplay(plan, tmp_path / "here", choose_executor(1))
    assert records.read_records(tmp_path / "dask").equals(records.read_records(tmp_path / "here"))


def test_cheap_agents_run_on_worker_threads_search_agents_on_processes(tmp_path):
    assert choose_executor(None, "local", batched=True).processes is False
    assert choose_executor(None, "local", batched=False).processes is True
    plan = make_plan(AZUL, {"players": 3}, ["random", "greedy"], 400, 8, 100)
    with DaskCluster("local", 2, processes=False) as threads:
        assert len(threads.client.scheduler_info()["workers"]) == 2
        run_selfplay(plan, tmp_path / "threads", threads)
    run_selfplay(plan, tmp_path / "here", choose_executor(1))
    assert records.read_records(tmp_path / "threads").equals(records.read_records(tmp_path / "here"))


def test_every_worker_warms_the_plan_kernels_before_taking_a_chunk(cluster):
    """Summer Pavilion, which no other test here plays: after the warm-up alone (no chunk
    submitted) every worker process holds the game's self-play kernels."""
    import sys

    plan = make_plan(get_game("pavilion"), {"players": 2}, ["random", "greedy"], 10, 3)
    with DaskCluster(cluster.scheduler_address, 2) as remote:
        assert not any(remote.client.run(lambda: "tessera.kernels.pavilion.bound.selfplay" in sys.modules).values())
        remote.warm_workers(plan, "warm-test")
        warmed = remote.client.run(lambda: "tessera.kernels.pavilion.bound.selfplay" in sys.modules)
    assert len(warmed) == 2 and all(warmed.values())
