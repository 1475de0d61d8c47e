"""Azure speed figures: random playouts, perft and IS-MCTS on one core.

    PYTHONPATH=. python bench/azure_speed.py [--games N] [--iterations N] [--out results/azure-speed.json]

Random games are played from the 2-player opening (``tessera new azure --seed 1``,
the starting hands drawn) for the base game, each Gifted card and Cosmos. IS-MCTS
searches the view of player 1 (index 0) in that opening: each iteration
determinizes the view, selects, expands and rolls out to the end of the game.
Times are CPU seconds of this process (``time.process_time``), so other work on the
machine counts less against the kernels; each figure is the median of three runs
interleaved with the other rows' runs, with its range; the load average is recorded
beside them.
"""

import argparse
import sys
import time

import numpy as np

from tessera.bench import (
    bar_line,
    interleaved,
    load_average,
    machine,
    median_rate,
    perft_line,
    perft_rates,
    playout_bar,
    playout_line,
    playout_rates,
    timed,
    write_report,
)
from tessera.games import get_game
from tessera.kernels import azure
from tessera.search.ismcts import Ismcts
from tessera.search.mcts import MctsOptions

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
    ("puct, greedy rollouts (the defaults before the learned value)", dict(rollout="greedy")),
)


def opening(**options):
    return get_game("azure").new(1, **options)


def ismcts_rates(iterations):
    """IS-MCTS from player 1's view of the opening, per search of ``SEARCHES``: the median
    of three runs interleaved with the other search's, and the range."""
    state = opening()
    view = np.empty_like(state)
    azure.view(state, 0, view)
    found = {}

    def measure(label, options):
        Ismcts(MctsOptions(iterations=200, seed=0, **options)).search(view)  # load the kernels

        def run():
            result, seconds = timed(
                time.process_time, Ismcts(MctsOptions(iterations=iterations, seed=1, **options)).search, view
            )
            found[label] = result
            return result.visits, seconds

        return run

    rows = []
    runs = interleaved([measure(label, options) for label, options in SEARCHES])
    for (label, _), searched in zip(SEARCHES, runs):
        rate, spread = median_rate(searched)
        result = found[label]
        rows.append(
            {
                "search": label,
                "iterations": result.visits,
                "iterations_per_s": rate,
                "iterations_per_s_range": spread,
                "tree_nodes": result.tree_nodes,
                "best": get_game("azure").format_move(view, result.best.move),
            }
        )
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200_000)
    parser.add_argument("--iterations", type=int, default=50_000)
    parser.add_argument("--out", default=None)
    args = parser.parse_args()

    load_before = load_average()
    playouts = [
        {"configuration": label, **row}
        for (label, _), row in zip(CONFIGS, playout_rates([opening(**options) for _, options in CONFIGS], args.games))
    ]
    perfts = perft_rates(
        [(f"2-player opening, seed 1, {label}", opening(**options)) for label, options in CONFIGS], PERFT_DEPTH
    )
    searches = ismcts_rates(args.iterations)
    report = {
        "command": "PYTHONPATH=. python bench/azure_speed.py " + " ".join(sys.argv[1:]),
        "position": "tessera new azure --seed 1 (with the options of each row); IS-MCTS on "
        "player 1's view of the base opening",
        "timing": "CPU seconds of the process (time.process_time), one thread; medians of 3"
        " interleaved runs, with their range",
        "machine": machine(load_before),
        "playouts_one_core": playouts,
        "perft": perfts,
        "ismcts_one_core": searches,
        "bar": playout_bar(playouts[0]["games_per_s"], ISSUE_BAR_GAMES_PER_S),
    }

    for row in playouts:
        print(playout_line(f"{row['configuration']:<18}", row))
    for row in perfts:
        print(perft_line(row, 45))
    for row in searches:
        print(
            f"ismcts {row['search']:<34} {row['iterations_per_s']:>8} iterations/s "
            f"({row['tree_nodes']} nodes, best {row['best']})"
        )
    print(bar_line(report["bar"]))
    print(f"load average before {load_before}, after {load_average()}")
    write_report(args.out, report)


if __name__ == "__main__":
    main()
