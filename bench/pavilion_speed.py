"""Summer Pavilion speed figures: random playouts and perft on one core.

    python bench/pavilion_speed.py [--games N] [--out results/pavilion-speed.json]

Prints a table and writes the figures as JSON. Times are CPU seconds of this process
(``time.process_time``), so other work on the machine does not count against the
kernels; the load average is recorded beside them.
"""
import argparse
import sys
import time

import numpy as np

from kernels import games, pavilion, perft, playout
from kernels.rng import make_rng
from solver.bench import load_average, machine, write_report

ISSUE_BAR_GAMES_PER_S = 10_000
PERFT_DEPTH = 4


def start(players, seed=1):
    state = pavilion.new_game(players)
    games.resolve_chance(state, make_rng(seed))
    return state


def cpu_timed(fn, *args):
    t = time.process_time()
    result = fn(*args)
    return result, time.process_time() - t


def playout_rate(players, n_games):
    """Best of three runs of ``n_games`` random games from a seeded opening."""
    state = start(players)
    scores = np.zeros((n_games, 4), np.int64)
    playout.playouts(state, 0, 10, scores[:10])           # compile or load
    made, dt = min((cpu_timed(playout.playouts, state, rep + 1, n_games, scores)
                    for rep in range(3)), key=lambda run: run[1])
    return {"players": players, "games": n_games, "games_per_s": round(n_games / dt),
            "moves_per_s": round(made / dt), "moves_per_game": round(made / n_games, 1)}


def perft_rate(label, state, depth):
    perft.perft(state, 1)
    nodes, dt = min((cpu_timed(perft.perft, state, depth) for _ in range(3)),
                    key=lambda run: run[1])
    return {"position": label, "depth": depth, "nodes": int(nodes),
            "nodes_per_s": round(nodes / dt)}


def perft_positions():
    """The opening, and the Summer Pavilion bench positions (solver/bench.py)."""
    from solver.bench import BENCH_POSITIONS, build
    positions = [("2-player opening, seed 1", start(2))]
    positions += [(p.label, build(p)) for p in BENCH_POSITIONS if p.game == "pavilion"]
    return positions


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--out", default=None)
    args = parser.parse_args()

    load_before = load_average()
    playouts = [playout_rate(p, args.games) for p in (2, 3, 4)]
    perfts = [perft_rate(label, state, PERFT_DEPTH) for label, state in perft_positions()]
    total_nodes = sum(row["nodes"] for row in perfts)
    total_seconds = sum(row["nodes"] / row["nodes_per_s"] for row in perfts)
    two = playouts[0]
    report = {
        "command": "python bench/pavilion_speed.py " + " ".join(sys.argv[1:]),
        "timing": "CPU seconds of the process (time.process_time), one thread",
        "machine": machine(load_before),
        "playouts_one_core": playouts,
        "perft": perfts,
        "perft_total": {"nodes": total_nodes, "nodes_per_s": round(total_nodes / total_seconds)},
        "bar": {"games_per_s_2p_one_core": two["games_per_s"], "target": ISSUE_BAR_GAMES_PER_S,
                "ratio": round(two["games_per_s"] / ISSUE_BAR_GAMES_PER_S, 2)},
    }

    for row in playouts:
        print(f"playouts {row['players']}p: {row['games_per_s']:>8} games/s "
              f"{row['moves_per_s']:>9} moves/s ({row['moves_per_game']} moves/game)")
    for row in perfts:
        print(f"perft {row['depth']} {row['position']:<40} {row['nodes']:>9} nodes "
              f"{row['nodes_per_s']:>11} nodes/s")
    print(f"perft total: {total_nodes} nodes, {report['perft_total']['nodes_per_s']} nodes/s")
    print(f"bar: {two['games_per_s']} / {ISSUE_BAR_GAMES_PER_S} games/s"
          f" = {report['bar']['ratio']}x")
    print(f"load average before {load_before}, after {load_average()}")
    write_report(args.out, report)


if __name__ == "__main__":
    main()
