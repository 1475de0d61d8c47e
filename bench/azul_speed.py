"""Azul speed figures: random playouts, perft, compile and CLI start times.

    python bench/azul_speed.py [--games N] [--out results/azul-speed.json]

Prints a table and writes the figures as JSON. Playouts run on one core unless
said; the parallel line shows the speed-up on all cores over one.
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time

import numba
import numpy as np

from kernels import azul, games, perft, playout
from kernels.rng import make_rng
from solver.bench import machine, write_report

ISSUE_BAR_GAMES_PER_S = 40_000


def start(players, variant=0, seed=1):
    state = azul.new_game(players, variant)
    games.resolve_chance(state, make_rng(seed))
    return state


def timed(fn, *args):
    t = time.perf_counter()
    result = fn(*args)
    return result, time.perf_counter() - t


def playout_rate(players, n_games, variant=0):
    state = start(players, variant)
    scores = np.zeros((n_games, 4), np.int64)
    playout.playouts(state, 0, 10, scores[:10])           # compile or load
    best = None
    for rep in range(3):
        made, dt = timed(playout.playouts, state, rep + 1, n_games, scores)
        if best is None or dt < best[1]:
            best = (made, dt)
    made, dt = best
    return {"players": players, "variant": ["colour", "gray"][variant], "games": n_games,
            "games_per_s": round(n_games / dt), "moves_per_s": round(made / dt),
            "moves_per_game": round(made / n_games, 1)}


def parallel_rate(n_games):
    state = start(2)
    scores = np.zeros((n_games, 4), np.int64)
    made = np.zeros(n_games, np.int64)
    playout.playouts_parallel(state, 0, 10, scores[:10], made[:10])
    _, dt = timed(playout.playouts_parallel, state, 1, n_games, scores, made)
    return {"threads": numba.get_num_threads(), "games_per_s": round(n_games / dt)}


def perft_rate(depth):
    state = start(2)
    perft.perft(state, 1)
    nodes, dt = timed(perft.perft, state, depth)
    return {"position": "2-player opening, seed 1", "depth": depth, "nodes": int(nodes),
            "nodes_per_s": round(nodes / dt)}


def cli_seconds(args, cache_dir):
    env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir)
    t = time.perf_counter()
    subprocess.run([sys.executable, "-m", "solver", *args], check=True, env=env,
                   capture_output=True)
    return time.perf_counter() - t


def start_times():
    """First run with an empty numba cache (compiles everything) and the warm run after it."""
    position = subprocess.run([sys.executable, "-m", "solver", "new", "azul", "--seed", "1"],
                              check=True, capture_output=True, text=True).stdout
    with tempfile.TemporaryDirectory() as cache, tempfile.NamedTemporaryFile("w", suffix=".txt") as f:
        f.write(position)
        f.flush()
        cold_moves = cli_seconds(["moves", f.name], cache)
        warm_moves = min(cli_seconds(["moves", f.name], cache) for _ in range(3))
        cold_bench = cli_seconds(["bench"], cache)
        warm_bench = min(cli_seconds(["bench"], cache) for _ in range(2))
    return {"cold_moves_s": round(cold_moves, 2), "warm_moves_s": round(warm_moves, 2),
            "cold_bench_s": round(cold_bench, 2), "warm_bench_s": round(warm_bench, 2)}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200_000)
    parser.add_argument("--perft-depth", type=int, default=4)
    parser.add_argument("--out", default=None)
    args = parser.parse_args()

    report = {
        "command": "python bench/azul_speed.py " + " ".join(sys.argv[1:]),
        "machine": machine(),
        "playouts_one_core": [playout_rate(p, args.games) for p in (2, 3, 4)]
        + [playout_rate(2, args.games, variant=1)],
        "playouts_all_cores": parallel_rate(args.games),
        "perft": perft_rate(args.perft_depth),
        "start": start_times(),
    }
    two = report["playouts_one_core"][0]
    report["bar"] = {"games_per_s_2p_one_core": two["games_per_s"],
                     "target": ISSUE_BAR_GAMES_PER_S,
                     "ratio": round(two["games_per_s"] / ISSUE_BAR_GAMES_PER_S, 2)}
    report["playouts_all_cores"]["speedup"] = round(
        report["playouts_all_cores"]["games_per_s"] / two["games_per_s"], 2)

    for row in report["playouts_one_core"]:
        print(f"playouts {row['players']}p {row['variant']:6}: {row['games_per_s']:>8} games/s "
              f"{row['moves_per_s']:>9} moves/s ({row['moves_per_game']} moves/game)")
    par = report["playouts_all_cores"]
    print(f"playouts 2p, {par['threads']} threads: {par['games_per_s']} games/s "
          f"({par['speedup']}x one core)")
    pf = report["perft"]
    print(f"perft depth {pf['depth']}: {pf['nodes']} nodes, {pf['nodes_per_s']} nodes/s")
    st = report["start"]
    print(f"tessera moves: cold {st['cold_moves_s']} s, warm {st['warm_moves_s']} s; "
          f"tessera bench: cold {st['cold_bench_s']} s, warm {st['warm_bench_s']} s")
    print(f"bar: {two['games_per_s']} / {ISSUE_BAR_GAMES_PER_S} games/s = {report['bar']['ratio']}x")
    write_report(args.out, report)


if __name__ == "__main__":
    main()
