"""Exact solver speed: the time to prove 2-player final rounds, nodes/s, table hit rate.

    python -m bench.solver_speed [--tiles 8 10 12 14] [--out results/solver-speed.json]

The positions are written by hand: the same two boards in round 5, where player 1
has a white on pattern line 1 that completes wall row 1, so the game ends this
round; the other pattern lines are empty, so every colour has many destinations.
Only the tiles on the table change with the count. The issue's bar: 12 tiles
proven in under 10 s. CPU seconds are printed beside wall seconds because a busy
machine stretches the wall time.
"""
import argparse
import json
import os
import platform
import sys
import time

import numba
import numpy as np

from solver.games import get_game
from solver.search.alphabeta import solve

BAR_TILES = 12
BAR_SECONDS = 10.0
COLOURS = "BYRKW"

BOARDS = (
    "player 1 score 30 wall BYRK./.BY../..BY./...B./..... lines W/../.../..../..... floor -",
    "player 2 score 28 wall BYR.W/WB.../.W.../..W../..... lines ./../.../..../..... floor -",
)
# Tiles on the table -> (factories, centre). Five factories in a 2-player game.
TABLES = {
    8: ("BYRK YRKW - - -", "1"),
    10: ("BYRK YRKW - - -", "1BW"),
    12: ("BYRK YRKW BBWK - -", "1"),
    14: ("BYRK YRKW BBWK - -", "1YR"),
}


def final_round(tiles):
    """The hand-written final-round position with ``tiles`` on the table."""
    factories, centre = TABLES[tiles]
    shown = " ".join([factories, centre, *BOARDS])
    # The bag holds whatever is not shown, so every colour has its 20 tiles.
    bag = "/".join(str(20 - _count(shown, c)) for c in COLOURS)
    text = "; ".join([
        "azul players 2 wall colour round 5 phase draft turn 1 starter 1",
        f"factories {factories}", f"centre {centre}", f"bag {bag}", "lid 0/0/0/0/0", *BOARDS])
    return get_game("azul").parse_position(text)


def _count(text, colour):
    """Tiles of a colour in board and table text (walls are written with letters)."""
    tokens = text.replace("/", " ").split()
    return sum(token.count(colour) for token in tokens if set(token) <= set(COLOURS + ".-1"))


def prove(tiles):
    state = final_round(tiles)
    cpu = time.process_time()
    result = solve(state)
    cpu = time.process_time() - cpu
    game = get_game("azul")
    return {
        "tiles": tiles,
        "position": game.format_position(state),
        "proven": result.exact is not None,
        "margin": result.exact.margin if result.exact else None,
        "horizon": result.exact.horizon if result.exact else None,
        "result": result.exact.result if result.exact else None,
        "best": game.format_move(state, result.best.move),
        "root_moves": len(result.moves),
        "seconds": round(result.seconds, 3),
        "cpu_seconds": round(cpu, 3),
        "nodes": result.visits,
        "nodes_per_s": round(result.nodes_per_second),
        "tt_hit_rate": round(result.tt_hit_rate, 3),
        "deepest_ply": result.depth,
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tiles", type=int, nargs="+", default=sorted(TABLES),
                        choices=sorted(TABLES))
    parser.add_argument("--out", default=None)
    args = parser.parse_args()

    started = time.perf_counter()
    solve(final_round(8))                    # compile, or load from numba's cache
    warm_up = time.perf_counter() - started
    rows = [prove(tiles) for tiles in args.tiles]

    report = {
        "command": "python -m bench.solver_speed " + " ".join(sys.argv[1:]),
        "machine": {"cpu_count": os.cpu_count(), "python": platform.python_version(),
                    "numba": numba.__version__, "numpy": np.__version__,
                    "processor": platform.processor() or platform.machine(),
                    "loadavg": os.getloadavg()},
        "warm_up_seconds": round(warm_up, 2),
        "final_rounds": rows,
    }
    for row in rows:
        print(f"{row['tiles']:>2} tiles: {row['seconds']:7.2f} s ({row['cpu_seconds']:.2f} s CPU)"
              f"  {row['nodes']:>10} nodes  {row['nodes_per_s']:>8} nodes/s"
              f"  TT hits {row['tt_hit_rate']:.2f}  margin {row['margin']} {row['result']}"
              f"  best {row['best']}")
    bar = next((row for row in rows if row["tiles"] == BAR_TILES), None)
    if bar is not None:
        report["bar"] = {"tiles": BAR_TILES, "seconds": bar["seconds"], "target": BAR_SECONDS,
                         "met": bar["proven"] and bar["seconds"] < BAR_SECONDS}
        print(f"bar: {BAR_TILES} tiles proven in {bar['seconds']} s (target < {BAR_SECONDS} s)")
    print(f"warm-up (compile or cache load): {warm_up:.1f} s; load {os.getloadavg()}")
    if args.out:
        with open(args.out, "w") as f:
            json.dump(report, f, indent=2)
            f.write("\n")


if __name__ == "__main__":
    main()
