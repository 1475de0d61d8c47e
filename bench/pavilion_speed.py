"""Summer Pavilion speed figures: random playouts and perft on one core.

    python bench/pavilion_speed.py [--games N] [--out results/pavilion-speed.json]

Prints a table and writes the figures as JSON. Times are CPU seconds of this process
(``time.process_time``), so other work on the machine does not count against the
kernels; the load average is recorded beside them.
"""

import argparse
import sys

from tessera.bench import (
    BENCH_POSITIONS,
    bar_line,
    build,
    load_average,
    machine,
    perft_line,
    perft_rates,
    playout_bar,
    playout_line,
    playout_rates,
    write_report,
)
from tessera.games import get_game

ISSUE_BAR_GAMES_PER_S = 10_000
PERFT_DEPTH = 4


def opening(players):
    return get_game("pavilion").new(1, players=players)


def perft_positions():
    """The opening, and the Summer Pavilion bench positions (solver/bench.py)."""
    positions = [("2-player opening, seed 1", opening(2))]
    positions += [(p.label, build(p)) for p in BENCH_POSITIONS if p.game == "pavilion"]
    return positions


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--out", default=None)
    args = parser.parse_args()

    load_before = load_average()
    playouts = [
        {"players": p, **row} for p, row in zip((2, 3, 4), playout_rates([opening(p) for p in (2, 3, 4)], args.games))
    ]
    perfts = perft_rates(perft_positions(), PERFT_DEPTH)
    total_nodes = sum(row["nodes"] for row in perfts)
    total_seconds = sum(row["nodes"] / row["nodes_per_s"] for row in perfts)
    report = {
        "command": "python bench/pavilion_speed.py " + " ".join(sys.argv[1:]),
        "timing": "CPU seconds of the process (time.process_time), one thread; medians of 3"
        " interleaved runs, with their range",
        "machine": machine(load_before),
        "playouts_one_core": playouts,
        "perft": perfts,
        "perft_total": {"nodes": total_nodes, "nodes_per_s": round(total_nodes / total_seconds)},
        "bar": playout_bar(playouts[0]["games_per_s"], ISSUE_BAR_GAMES_PER_S),
    }

    for row in playouts:
        print(playout_line(f"{row['players']}p:", row))
    for row in perfts:
        print(perft_line(row, 40))
    print(f"perft total: {total_nodes} nodes, {report['perft_total']['nodes_per_s']} nodes/s")
    print(bar_line(report["bar"]))
    print(f"load average before {load_before}, after {load_average()}")
    write_report(args.out, report)


if __name__ == "__main__":
    main()
