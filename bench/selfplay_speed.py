"""Self-play speed: batched random games on one and two cores; a greedy batch, pool against Dask.

    python bench/selfplay_speed.py [--games N] [--greedy-games N] [--repeats R] [--out FILE]

1. Random 2-player games, batched:
   - ``kernel``: ``kernels.selfplay.play_batch`` alone on ready start positions,
     with numba set to 1 and to 2 threads;
   - ``in_process``: whole chunks (start positions from ``Game.new``, the kernel,
     the Parquet records) through ``run_selfplay`` in this process, 1 and 2 threads;
   - ``pool``: ``run_selfplay`` on a pool of 1 and of 2 single-threaded worker
     processes.
2. ``--greedy-games`` greedy 2-player games through ``run_selfplay`` on a local
   process pool and on a Dask LocalCluster, two workers each.

Each figure is games per second of wall time, from start to end (``rate``) and, for
runs with workers, after the first chunk landed (``after_first_chunk``: once the
workers are up); and games per CPU second (``cpu_rate``: this process and its
children, all threads). On a machine shared with other work the wall-time ratios
understate what two idle cores give; the ratio of CPU rates (``cpu_efficiency``:
1.0 when a second core does as much as the first) does not depend on the load. The
measures alternate and the best of ``--repeats`` is kept, as other work slows some
runs and never speeds one up. The load average is recorded before and after each part.
"""
import argparse
import json
import os
import platform
import resource
import sys
import tempfile
import time
from pathlib import Path

import numba
import numpy as np

from kernels import selfplay as kernel
from solver.agents import CHANCE_SALT
from solver.games import get_game
from solver.selfplay.chunk import warm_up
from solver.selfplay.cluster import DaskCluster
from solver.selfplay.plan import make_plan
from solver.selfplay.runner import run_selfplay
from solver.selfplay.workers import InProcess, ProcessPool

GAME = "azul"
CHUNK_SIZE = 500


def load():
    return [round(x, 2) for x in os.getloadavg()]


def measured(games, run):
    """Run ``run()`` (which may return the time its first chunk landed): the figures."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu, started = time.process_time(), time.perf_counter()
    first = run()
    ended = time.perf_counter()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu_seconds = (time.process_time() - cpu + after.ru_utime - children.ru_utime
                   + after.ru_stime - children.ru_stime)
    figures = {"rate": games / (ended - started), "cpu_rate": games / cpu_seconds}
    if first is not None:
        first_games, first_time = first
        figures["after_first_chunk"] = (games - first_games) / (ended - first_time)
    return figures


def kernel_run(games, threads, starts, seeds):
    kinds = np.full((games, 2), kernel.RANDOM, np.int8)
    agent_seeds = np.stack([seeds, seeds + 1], axis=1)
    out = (np.zeros((games, 256), np.int64), np.zeros((games, 256), np.int8),
           np.zeros(games, np.int64), np.zeros((games, 2), np.int64), np.zeros((games, 2)))

    def run():
        numba.set_num_threads(threads)
        kernel.play_batch(starts, seeds ^ CHANCE_SALT, agent_seeds, kinds, *out)
    return run


def selfplay_run(plan, executor):
    """A run of ``plan`` on ``executor`` that returns (games, time) of its first chunk."""
    def run():
        landed = []

        def note(done, total, played_now, seconds):
            if played_now and not landed:
                landed.append((played_now, time.perf_counter()))

        with tempfile.TemporaryDirectory() as out_dir:
            result = run_selfplay(plan, out_dir, executor, progress=note)
        assert result.games_done == plan.games
        return landed[0]
    return run


def best_of(repeats, games, runs):
    """Each run in turn, ``repeats`` rounds: the figures of each one's fastest round."""
    best = {}
    for _ in range(repeats):
        for name, run in runs.items():
            figures = measured(games, run)
            if name not in best or figures["rate"] > best[name]["rate"]:
                best[name] = figures
    return best


def compared(one, two):
    return {"1": one, "2": two, "speedup": two["rate"] / one["rate"],
            "cpu_efficiency": two["cpu_rate"] / one["cpu_rate"]}


def random_scaling(games, repeats):
    game = get_game(GAME)
    seeds = np.arange(games, dtype=np.int64)
    starts = np.stack([game.new(int(seed)) for seed in seeds])
    plan = make_plan(game, {"players": 2}, ["random"], games, 1, CHUNK_SIZE)
    warm_up(plan)
    before = load()
    best = best_of(repeats, games, {
        "kernel_1": kernel_run(games, 1, starts, seeds),
        "kernel_2": kernel_run(games, 2, starts, seeds),
        "in_process_1": selfplay_run(plan, InProcess(1)),
        "in_process_2": selfplay_run(plan, InProcess(2)),
        "pool_1": selfplay_run(plan, ProcessPool(1, 1)),
        "pool_2": selfplay_run(plan, ProcessPool(2, 1)),
    })
    figures = {"games": games, "repeats": repeats, "load_before": before, "load_after": load()}
    for way in ("kernel", "in_process", "pool"):
        figures[way] = compared(best[f"{way}_1"], best[f"{way}_2"])
    return figures


def pool_against_dask(games, repeats):
    plan = make_plan(get_game(GAME), {"players": 2}, ["greedy"], games, 2, CHUNK_SIZE)
    warm_up(plan)
    before = load()
    best = best_of(repeats, games, {"pool": selfplay_run(plan, ProcessPool(2, 1)),
                                    "dask": selfplay_run(plan, DaskCluster("local", 2))})
    pool, dask = best["pool"], best["dask"]
    return {
        "games": games, "repeats": repeats, "load_before": before, "load_after": load(),
        "pool": pool, "dask": dask,
        "dask_over_pool": {name: dask[name] / pool[name] for name in pool},
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200_000)
    parser.add_argument("--greedy-games", type=int, default=20_000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    report = {
        "command": "python bench/selfplay_speed.py " + " ".join(sys.argv[1:]),
        "machine": {"cpu_count": os.cpu_count(), "python": platform.python_version(),
                    "processor": platform.processor() or platform.machine()},
        "random_scaling": random_scaling(args.games, args.repeats),
        "pool_against_dask": pool_against_dask(args.greedy_games, args.repeats),
    }
    text = json.dumps(report, indent=2)
    print(text)
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(text + "\n")


if __name__ == "__main__":
    main()
