"""Azul speed figures: random playouts, perft, compile and CLI start times.

    python bench/azul_speed.py [--games N] [--out results/azul-speed.json]

Prints a table and writes the figures as JSON. Playouts run on one core unless
said, each figure the median of three runs interleaved with the other rows' (so load on
the machine falls on all rows alike), with its range; the parallel line shows the
speed-up on all cores over one.
"""

import argparse
import os
import subprocess
import sys
import tempfile
import time

import numba
import numpy as np

from tessera.bench import (
    bar_line,
    machine,
    perft_rate,
    playout_bar,
    playout_line,
    playout_rates,
    timed,
    write_report,
)
from tessera.games import get_game
from tessera.kernels import bind

ISSUE_BAR_GAMES_PER_S = 40_000


def opening(players, variant="colour"):
    return get_game("azul").new(1, players=players, variant=variant)


ONE_CORE = ((2, "colour"), (3, "colour"), (4, "colour"), (2, "gray"))


def one_core_rates(n_games):
    """Wall-clock playout rates on one core: medians of interleaved runs, with their range."""
    rows = playout_rates([opening(players, variant) for players, variant in ONE_CORE], n_games, time.perf_counter)
    return [{"players": players, "variant": variant, **row} for (players, variant), row in zip(ONE_CORE, rows)]


def parallel_rate(n_games):
    state = opening(2)
    scores = np.zeros((n_games, 4), np.int64)
    made = np.zeros(n_games, np.int64)
    playout = bind.instance(state[0], "playout")
    playout.playouts_parallel(state, 0, 10, scores[:10], made[:10])
    _, dt = timed(time.perf_counter, playout.playouts_parallel, state, 1, n_games, scores, made)
    return {"threads": numba.get_num_threads(), "games_per_s": round(n_games / dt)}


def cli_seconds(args, cache_dir):
    env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir)
    _, seconds = timed(
        time.perf_counter,
        subprocess.run,
        [sys.executable, "-m", "tessera", *args],
        check=True,
        env=env,
        capture_output=True,
    )
    return seconds


def start_times():
    """First run with an empty numba cache (compiles everything) and the warm run after it."""
    position = subprocess.run(
        [sys.executable, "-m", "tessera", "new", "azul", "--seed", "1"], check=True, capture_output=True, text=True
    ).stdout
    with tempfile.TemporaryDirectory() as cache, tempfile.NamedTemporaryFile("w", suffix=".txt") as f:
        f.write(position)
        f.flush()
        cold_moves = cli_seconds(["moves", f.name], cache)
        warm_moves = sorted(cli_seconds(["moves", f.name], cache) for _ in range(3))
        cold_bench = cli_seconds(["bench"], cache)
        warm_bench = sorted(cli_seconds(["bench"], cache) for _ in range(3))
    # Warm runs: the median of three, with the range.
    return {
        "cold_moves_s": round(cold_moves, 2),
        "warm_moves_s": round(warm_moves[1], 2),
        "warm_moves_s_range": [round(warm_moves[0], 2), round(warm_moves[-1], 2)],
        "cold_bench_s": round(cold_bench, 2),
        "warm_bench_s": round(warm_bench[1], 2),
        "warm_bench_s_range": [round(warm_bench[0], 2), round(warm_bench[-1], 2)],
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200_000)
    parser.add_argument("--perft-depth", type=int, default=4)
    parser.add_argument("--out", default=None)
    args = parser.parse_args()

    report = {
        "command": "python bench/azul_speed.py " + " ".join(sys.argv[1:]),
        "machine": machine(),
        "playouts_one_core": one_core_rates(args.games),
        "playouts_all_cores": parallel_rate(args.games),
        "perft": perft_rate("2-player opening, seed 1", opening(2), args.perft_depth, time.perf_counter, runs=1),
        "start": start_times(),
    }
    two = report["playouts_one_core"][0]
    report["bar"] = playout_bar(two["games_per_s"], ISSUE_BAR_GAMES_PER_S)
    report["playouts_all_cores"]["speedup"] = round(report["playouts_all_cores"]["games_per_s"] / two["games_per_s"], 2)

    for row in report["playouts_one_core"]:
        print(playout_line(f"{row['players']}p {row['variant']:6}:", row))
    par = report["playouts_all_cores"]
    print(f"playouts 2p, {par['threads']} threads: {par['games_per_s']} games/s ({par['speedup']}x one core)")
    pf = report["perft"]
    print(f"perft depth {pf['depth']}: {pf['nodes']} nodes, {pf['nodes_per_s']} nodes/s")
    st = report["start"]
    print(
        f"tessera moves: cold {st['cold_moves_s']} s, warm {st['warm_moves_s']} s; "
        f"tessera bench: cold {st['cold_bench_s']} s, warm {st['warm_bench_s']} s"
    )
    print(bar_line(report["bar"]))
    write_report(args.out, report)


if __name__ == "__main__":
    main()
