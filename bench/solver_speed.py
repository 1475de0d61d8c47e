"""Exact solver speed: the time to prove positions, nodes/s, table hit rate.

    python -m bench.solver_speed [--tiles 8 10 12 14] [--out results/solver-speed.json]
    python -m bench.solver_speed --azure [--seeds 0 1 2 3] [--back 8 10 12 14]
                                 [--time 300] [--out results/azure-solve.json]

Azul (round mode): the positions are written by hand: the same two boards in round
5, where player 1 has a white on pattern line 1 that completes wall row 1, so the
game ends this round; the other pattern lines are empty, so every colour has many
destinations. Only the tiles on the table change with the count. The target:
12 tiles proven in under 10 s.

Azure (game mode: win probabilities to the end of the game, through the Bird's
draws): the position ``back`` decisions before the end of a seeded random game
(``azure_late``), base game. A solve that runs out of ``--time`` is reported
unproven.

CPU seconds are printed beside wall seconds because a busy machine stretches the
wall time.
"""

import argparse
import sys
import time

from tessera.bench import (
    FINAL_ROUND_TABLES,
    final_round,
    load_average,
    machine,
    random_decisions,
    timed,
    write_report,
)
from tessera.games import get_game
from tessera.search.alphabeta import solve

BAR_TILES = 12
BAR_SECONDS = 10.0


def azure_late(seed, back):
    """The position ``back`` decisions before the end of seeded random game ``seed``."""
    return random_decisions("azure", seed)[-back]


def _solved(game, state, time_limit=None):
    result, cpu = timed(time.process_time, solve, state, time_limit=time_limit)
    return {
        "position": game.format_position(state),
        "proven": result.exact is not None,
        "mode": result.mode,
        "win_rate": result.exact.win_rate if result.exact else None,
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


def prove(tiles):
    return {"tiles": tiles, **_solved(get_game("azul"), final_round(tiles))}


def prove_azure(seed, back, time_limit):
    decisions = random_decisions("azure", seed)
    row = {"seed": seed, "back": back, "decisions_made": len(decisions) - back}
    row.update(_solved(get_game("azure"), decisions[-back], time_limit))
    return row


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--tiles", type=int, nargs="+", default=sorted(FINAL_ROUND_TABLES), choices=sorted(FINAL_ROUND_TABLES)
    )
    parser.add_argument(
        "--azure", action="store_true", help="solve late Azure positions (game mode) instead of Azul rounds"
    )
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2, 3])
    parser.add_argument("--back", type=int, nargs="+", default=[8, 10, 12, 14])
    parser.add_argument("--time", type=float, default=300.0, help="Azure: seconds before a solve gives up")
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    if args.azure:
        azure_main(args)
        return

    load_before = load_average()
    _, warm_up = timed(time.perf_counter, solve, final_round(8))  # compile, or load the cache
    rows = [prove(tiles) for tiles in args.tiles]

    report = {
        "command": "python -m bench.solver_speed " + " ".join(sys.argv[1:]),
        "machine": machine(load_before),
        "warm_up_seconds": round(warm_up, 2),
        "final_rounds": rows,
    }
    for row in rows:
        print(
            f"{row['tiles']:>2} tiles: {row['seconds']:7.2f} s ({row['cpu_seconds']:.2f} s CPU)"
            f"  {row['nodes']:>10} nodes  {row['nodes_per_s']:>8} nodes/s"
            f"  TT hits {row['tt_hit_rate']:.2f}  margin {row['margin']} {row['result']}"
            f"  best {row['best']}"
        )
    bar = next((row for row in rows if row["tiles"] == BAR_TILES), None)
    if bar is not None:
        report["bar"] = {
            "tiles": BAR_TILES,
            "seconds": bar["seconds"],
            "target": BAR_SECONDS,
            "met": bar["proven"] and bar["seconds"] < BAR_SECONDS,
        }
        print(f"bar: {BAR_TILES} tiles proven in {bar['seconds']} s (target < {BAR_SECONDS} s)")
    print(f"warm-up (compile or cache load): {warm_up:.1f} s; load {load_average()}")
    write_report(args.out, report)


def azure_main(args):
    load_before = load_average()
    _, warm_up = timed(time.perf_counter, solve, azure_late(0, 4))  # compile, or load the cache
    rows = []
    for seed in args.seeds:
        for back in args.back:
            row = prove_azure(seed, back, args.time)
            rows.append(row)
            value = f"win rate {row['win_rate']:.3f} {row['result'] or ''}" if row["proven"] else "not proven"
            print(
                f"seed {seed} back {back:>2}: {row['seconds']:7.2f} s"
                f" ({row['cpu_seconds']:.2f} s CPU) {row['nodes']:>11} nodes"
                f" {row['nodes_per_s']:>8} nodes/s  TT hits {row['tt_hit_rate']:.2f}"
                f"  {row['root_moves']} moves  {value}  best {row['best']}",
                flush=True,
            )
    report = {
        "command": "python -m bench.solver_speed " + " ".join(sys.argv[1:]),
        "machine": machine(load_before),
        "warm_up_seconds": round(warm_up, 2),
        "time_limit": args.time,
        "positions": "the position BACK decisions before the end of the seeded random game"
        " SEED (bench.solver_speed.azure_late), base game, player to move",
        "late_positions": rows,
    }
    print(f"warm-up (compile or cache load): {warm_up:.1f} s; load {load_average()}")
    write_report(args.out, report)


if __name__ == "__main__":
    main()
