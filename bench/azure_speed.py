"""Azure speed figures: random playouts, perft and IS-MCTS on one core.

    PYTHONPATH=. python bench/azure_speed.py [--games N] [--iterations N] [--out results/azure-speed.json]

Random games are played from the 2-player opening (``tessera new azure --seed 1``,
the starting hands drawn) for the base game, each Gifted card and Cosmos. IS-MCTS
searches the view of player 1 (index 0) in that opening: each iteration
determinizes the view, selects, expands and rolls out to the end of the game.
Times are CPU seconds of this process (``time.process_time``), best of three, so
other work on the machine does not count against the kernels; the load average
is recorded beside them.
"""
import argparse
import sys
import time

import numpy as np

from kernels import azure, perft, playout
from solver.bench import load_average, machine, write_report
from solver.games import get_game
from solver.search.ismcts import Ismcts
from solver.search.mcts import MctsOptions

ISSUE_BAR_GAMES_PER_S = 50_000
PERFT_DEPTH = 5
CONFIGS = (
    ("base", {}),
    ("gifted mighty", {"gifted": "mighty"}),
    ("gifted perceptive", {"gifted": "perceptive"}),
    ("gifted bountiful", {"gifted": "bountiful"}),
    ("gifted favored", {"gifted": "favored"}),
    ("cosmos", {"cosmos": True}),
)
SEARCHES = (
    ("uct, random rollouts (textbook)", dict(select="uct", rollout="random", value="win")),
    ("defaults (puct, greedy rollouts)", dict()),
)


def opening(**options):
    return get_game("azure").new(1, **options)


def cpu_timed(fn, *args):
    t = time.process_time()
    result = fn(*args)
    return result, time.process_time() - t


def playout_rate(label, options, n_games):
    """Best of three runs of ``n_games`` random games from the seeded opening."""
    state = opening(**options)
    scores = np.zeros((n_games, 4), np.int64)
    playout.playouts(state, 0, 10, scores[:10])           # compile or load
    made, dt = min((cpu_timed(playout.playouts, state, rep + 1, n_games, scores)
                    for rep in range(3)), key=lambda run: run[1])
    return {"configuration": label, "games": n_games, "games_per_s": round(n_games / dt),
            "moves_per_s": round(made / dt), "moves_per_game": round(made / n_games, 1)}


def perft_rate(label, state, depth):
    perft.perft(state, 1)
    nodes, dt = min((cpu_timed(perft.perft, state, depth) for _ in range(3)),
                    key=lambda run: run[1])
    return {"position": label, "depth": depth, "nodes": int(nodes),
            "nodes_per_s": round(nodes / dt)}


def ismcts_rate(label, iterations, options):
    state = opening()
    view = np.empty_like(state)
    azure.view(state, 0, view)
    Ismcts(MctsOptions(iterations=200, seed=0, **options)).search(view)      # load the kernels
    searcher = Ismcts(MctsOptions(iterations=iterations, seed=1, **options))
    result, dt = min((cpu_timed(searcher.search, view) for _ in range(3)), key=lambda run: run[1])
    return {"search": label, "iterations": result.visits, "seconds": round(dt, 3),
            "iterations_per_s": round(result.visits / dt), "tree_nodes": result.tree_nodes,
            "best": get_game("azure").format_move(view, result.best.move)}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200_000)
    parser.add_argument("--iterations", type=int, default=50_000)
    parser.add_argument("--out", default=None)
    args = parser.parse_args()

    load_before = load_average()
    playouts = [playout_rate(label, options, args.games) for label, options in CONFIGS]
    perfts = [perft_rate(f"2-player opening, seed 1, {label}", opening(**options), PERFT_DEPTH)
              for label, options in CONFIGS]
    searches = [ismcts_rate(label, args.iterations, options) for label, options in SEARCHES]
    base = playouts[0]
    report = {
        "command": "PYTHONPATH=. python bench/azure_speed.py " + " ".join(sys.argv[1:]),
        "position": "tessera new azure --seed 1 (with the options of each row); IS-MCTS on "
                    "player 1's view of the base opening",
        "timing": "CPU seconds of the process (time.process_time), one thread, best of 3",
        "machine": machine(load_before),
        "playouts_one_core": playouts,
        "perft": perfts,
        "ismcts_one_core": searches,
        "bar": {"games_per_s_2p_one_core": base["games_per_s"], "target": ISSUE_BAR_GAMES_PER_S,
                "ratio": round(base["games_per_s"] / ISSUE_BAR_GAMES_PER_S, 2)},
    }

    for row in playouts:
        print(f"playouts {row['configuration']:<18} {row['games_per_s']:>8} games/s "
              f"{row['moves_per_s']:>9} moves/s ({row['moves_per_game']} moves/game)")
    for row in perfts:
        print(f"perft {row['depth']} {row['position']:<45} {row['nodes']:>9} nodes "
              f"{row['nodes_per_s']:>11} nodes/s")
    for row in searches:
        print(f"ismcts {row['search']:<34} {row['iterations_per_s']:>8} iterations/s "
              f"({row['tree_nodes']} nodes, best {row['best']})")
    print(f"bar: {base['games_per_s']} / {ISSUE_BAR_GAMES_PER_S} games/s = {report['bar']['ratio']}x")
    print(f"load average before {load_before}, after {load_average()}")
    write_report(args.out, report)


if __name__ == "__main__":
    main()
