"""MCTS simulations per second from the 2-player Azul opening.

    python bench/mcts_speed.py [--iterations N] [--out results/mcts-speed.json]

One simulation is a selection, an expansion and one rollout to the end of the
game. The issue's bar is measured with textbook options (UCT, uniform random
rollouts) on one thread; the default options (PUCT, greedy rollouts) and two
threads are listed beside it. Times are CPU seconds of this process (wall time
for threads), so other load on the machine disturbs them less.
"""
import argparse
import sys
import time


from solver.bench import machine, timed, write_report
from solver.games import get_game
from solver.search.mcts import Mcts, MctsOptions

BAR = 40_000
CONFIGS = (
    ("uct, random rollouts, 1 thread (the bar)", dict(select="uct", rollout="random", value="win")),
    ("puct, greedy rollouts, 1 thread (defaults)", dict()),
    ("uct, random rollouts, 2 threads", dict(select="uct", rollout="random", value="win", threads=2)),
)


def rate(state, iterations, options):
    Mcts(MctsOptions(iterations=200, seed=0, **options)).search(state)       # load the kernels
    threads = options.get("threads", 1)
    clock = time.perf_counter if threads > 1 else time.process_time
    searcher = Mcts(MctsOptions(iterations=iterations, seed=1, **options))
    result, seconds = timed(clock, searcher.search, state)
    return {"simulations": result.visits, "seconds": round(seconds, 3),
            "simulations_per_s": round(result.visits / seconds), "tree_nodes": result.tree_nodes}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=100_000)
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    state = get_game("azul").new(1, players=2)
    rows = {label: rate(state, args.iterations, options) for label, options in CONFIGS}
    bar = rows[CONFIGS[0][0]]["simulations_per_s"]
    report = {
        "command": "python bench/mcts_speed.py " + " ".join(sys.argv[1:]),
        "position": "tessera new azul --seed 1 (2 players, colour wall)",
        "machine": machine(),
        "runs": rows,
        "bar": {"simulations_per_s": bar, "target": BAR, "ratio": round(bar / BAR, 2)},
    }
    for label, row in rows.items():
        print(f"{label:45} {row['simulations_per_s']:>8} simulations/s  ({row['tree_nodes']} nodes)")
    print(f"bar: {bar} / {BAR} = {report['bar']['ratio']}x")
    write_report(args.out, report)


if __name__ == "__main__":
    main()
