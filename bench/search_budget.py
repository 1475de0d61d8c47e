"""How far MCTS searches overrun their time budgets, by the wall clock.

    python bench/search_budget.py [--times 0.01,0.05,0.2] [--threads 1,2] [--games 1]
                                  [--out results/search-budget.json]

Plays seeded 2-player Azul games between two ``mcts:time=T`` agents (tree reuse on,
as in a match) and times every decision around ``Agent.decide``: the search, its
tree reuse and its result, what a game clock sees. Kernels are compiled before the
first game. Per budget and thread count it records the overrun (wall seconds less T)
in milliseconds: median, 90th percentile, maximum and the share of searches within
T + 10 ms, beside the load average, since other load on the machine delays threads.
"""

import argparse
import statistics
import sys
import time

from tessera.agents import parse_agent, play_game
from tessera.bench import load_average, machine, write_report
from tessera.games import get_game

WITHIN = 0.010  # the promise: a search returns within T + 10 ms


def overruns(time_limit, threads, games):
    """Overruns in seconds of every decision of ``games`` games, and the CPU seconds used."""
    game = get_game("azul")
    spec = f"mcts:time={time_limit},threads={threads}"
    parse_agent(spec).decide(game.new(1, players=2))  # compile: the budget picks the rollout
    found = []
    cpu = time.process_time()
    for seed in range(games):
        agents = [parse_agent(spec, seed=2 * seed + seat) for seat in range(2)]
        play_game(
            game, {"players": 2}, agents, seed, on_move=lambda event: found.append(event.decision.seconds - time_limit)
        )
    return found, time.process_time() - cpu


def summary(found, cpu):
    ms = sorted(1000 * x for x in found)
    return {
        "searches": len(ms),
        "median_ms": round(statistics.median(ms), 2),
        "p90_ms": round(ms[int(0.9 * (len(ms) - 1))], 2),
        "max_ms": round(ms[-1], 2),
        "within_10ms": round(sum(x <= 1000 * WITHIN for x in ms) / len(ms), 3),
        "cpu_seconds": round(cpu, 2),
        "load_average_after": load_average(),
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--times", default="0.01,0.05,0.2")
    parser.add_argument("--threads", default="1,2")
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    load = load_average()
    rows = {}
    for threads in (int(t) for t in args.threads.split(",")):
        for time_limit in (float(t) for t in args.times.split(",")):
            label = f"time={time_limit}, {threads} thread{'s' if threads > 1 else ''}"
            rows[label] = summary(*overruns(time_limit, threads, args.games))
            row = rows[label]
            print(
                f"{label:24} overrun median {row['median_ms']:6.2f} ms  p90 {row['p90_ms']:6.2f}"
                f"  max {row['max_ms']:6.2f}  within 10 ms {row['within_10ms']:.0%}"
                f"  ({row['searches']} searches, load {row['load_average_after'][0]})"
            )
    write_report(
        args.out,
        {
            "command": "python bench/search_budget.py " + " ".join(sys.argv[1:]),
            "what": "wall seconds of Agent.decide less the budget T, for every move of 2-player Azul "
            "games between two mcts:time=T agents (tree reuse on), in milliseconds",
            "machine": machine(load),
            "runs": rows,
        },
    )


if __name__ == "__main__":
    main()
