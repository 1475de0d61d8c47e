"""A long analysis of one position: does the tree keep growing, and what does it say?

    python bench/analysis_growth.py [--checkpoints 10,60,600] [--memory MB] [--threads T]
                                    [--out results/analysis-growth.json]

Searches ``tessera new azul --seed 1`` with the default MCTS options, one search
continued to each checkpoint (seconds in all: the searcher keeps its tree between the
calls, as ``tessera analyze`` does between its partial answers), and records at each:
the root's visits, the nodes in the tree, how often it was compacted to stay within
``--memory``, the best move with its win rate and margin, and the CPU and wall seconds.
"""

import argparse
import sys
import time

from tessera.bench import load_average, machine, write_report
from tessera.games import get_game
from tessera.search.mcts import MB, Mcts, MctsOptions


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checkpoints", default="10,60,600")
    parser.add_argument("--memory", type=float, default=1024)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    game = get_game("azul")
    state = game.new(1, players=2)
    searcher = Mcts(MctsOptions(time_limit=1, threads=args.threads, seed=args.seed, memory=int(args.memory * MB)))
    load_before = load_average()
    rows, spent = [], 0.0
    wall, cpu = time.perf_counter(), time.process_time()
    for checkpoint in (float(t) for t in args.checkpoints.split(",")):
        searcher.options.time_limit = checkpoint - spent
        result = searcher.search(state)
        spent = time.perf_counter() - wall
        best = result.best
        rows.append(
            {
                "seconds": checkpoint,
                "wall_seconds": round(spent, 1),
                "cpu_seconds": round(time.process_time() - cpu, 1),
                "root_visits": result.visits + result.reused_visits,
                "tree_nodes": result.tree_nodes,
                "tree_bytes": result.tree_bytes,
                "compactions": result.compactions,
                "best": game.format_move(state, best.move),
                "best_visits": best.visits,
                "best_win_rate": round(best.win_rate, 4),
                "best_margin": round(best.margin, 2),
                "load_average": load_average()[0],
            }
        )
        row = rows[-1]
        print(
            f"{checkpoint:>6g} s: {row['root_visits']:>10,} visits, {row['tree_nodes']:>10,} nodes,"
            f" {row['compactions']} compactions; best {row['best']} ({row['best_visits']:,} visits,"
            f" win {row['best_win_rate']:.1%}, margin {row['best_margin']:+.2f});"
            f" CPU {row['cpu_seconds']} s, load {row['load_average']}",
            flush=True,
        )
    write_report(
        args.out,
        {
            "command": "python bench/analysis_growth.py " + " ".join(sys.argv[1:]),
            "position": "tessera new azul --seed 1 (2 players, colour wall); default MCTS options",
            "memory_mb": args.memory,
            "threads": args.threads,
            "machine": machine(load_before),
            "checkpoints": rows,
        },
    )


if __name__ == "__main__":
    main()
