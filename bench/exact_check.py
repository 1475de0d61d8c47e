"""MCTS against exact play: how often the default MCTS's move is optimal in Azul's last round.

    python bench/exact_check.py --iterations N [--positions 200] [--seed 0]
                                [--max-tiles 16] [--calibrate K]
                                [--out results/strength/exact-check.json]

The positions (games from ``--seed`` on, at most ``--max-tiles`` tiles on the table) and
the check of each are tessera.strength.exact's. The solve's cost grows steeply with the
tiles: with 16 a solve took at most about a second here, with 19 ten seconds. MCTS runs
a fixed number of simulations (``--iterations``, one thread, seeded with the game seed),
so the run is reproducible and does not depend on the machine's load; ``--calibrate K``
first measures how many simulations one thread runs in 1 s on K positions spread over
the list (the figure that picks ``--iterations``).
"""

import argparse
import sys
import time

from tessera.bench import load_average, machine, write_report
from tessera.games import get_game
from tessera.strength.exact import OPTIONS, calibrate, check, mcts_options, select_positions, summarise


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0, help="the first game seed")
    parser.add_argument("--iterations", type=int, required=True, help="MCTS simulations a position (one thread)")
    parser.add_argument("--max-tiles", type=int, default=16, help="tiles on the table at most")
    parser.add_argument(
        "--calibrate",
        type=int,
        default=0,
        metavar="K",
        help="first time 1-s searches on K of the positions (recorded, not used)",
    )
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    for name in ("positions", "iterations", "max_tiles"):
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} must be at least 1")
    if not 0 <= args.calibrate <= args.positions:
        parser.error("--calibrate must be from 0 to --positions")
    load_before = load_average()
    started = time.perf_counter()

    positions, skipped = select_positions(args.positions, args.seed, args.max_tiles)
    print(
        f"{len(positions)} positions from {len(positions) + len(skipped)} games "
        f"({time.perf_counter() - started:.0f} s)",
        file=sys.stderr,
    )
    calibration = None
    if args.calibrate:
        # Every n-th position, so both kinds of game are measured.
        calibration = calibrate(positions[:: len(positions) // args.calibrate][: args.calibrate])
        print(
            f"1 s, one thread: median {calibration['median']} simulations "
            f"({calibration['min']}-{calibration['max']}), "
            f"median {calibration['median_per_cpu_second']} per CPU second, "
            f"load {load_average()}",
            file=sys.stderr,
        )
    rows = []
    for number, position in enumerate(positions, 1):
        row = check(position, args.iterations)
        rows.append(row)
        print(
            f"[{number}/{len(positions)}] {row['kind']} game {row['game_seed']} ply {row['ply']}: "
            f"{row['chosen']} {row['chosen_margin']:+g}, best {row['best_margin']:+g} "
            f"loss {row['loss']:g}",
            file=sys.stderr,
        )

    summary = summarise(rows)
    searched = mcts_options().for_position(get_game("azul").new(0, **OPTIONS))  # what every check searched with
    report = {
        "command": "python bench/exact_check.py " + " ".join(sys.argv[1:]),
        "machine": machine(load_before),
        "seconds": round(time.perf_counter() - started),
        "settings": {
            "iterations": args.iterations,
            "threads": 1,
            "max_tiles": args.max_tiles,
            "seed": args.seed,
            "game_options": OPTIONS,
            "mcts": {
                name: getattr(searched, name)
                for name in ("value", "select", "rollout", "exploration", "fpu", "chance_width", "model")
            },
        },
        "calibration": calibration,
        "summary": summary,
        "skipped_games": skipped,
        "positions": rows,
    }
    print(
        f"optimal in {summary['optimal']}/{summary['positions']} = {summary['rate']:.1%}; "
        f"with a choice {summary['with_a_choice']['optimal']}/{summary['with_a_choice']['positions']};"
        f" losses {summary['losses']}",
        file=sys.stderr,
    )
    write_report(args.out, report)


if __name__ == "__main__":
    main()
