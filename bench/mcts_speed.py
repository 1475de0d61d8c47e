"""MCTS simulations per second from a 2-player opening (Azul's unless ``--game``).

    python bench/mcts_speed.py [--game G] [--iterations N] [--runs R]
                               [--rows all|threads|learned|defaults]
                               [--model builtin|FILE] [--out results/mcts-speed.json]

One simulation is a selection, an expansion and one rollout to the end of the
game. The speed bar (``BAR``) is measured with textbook options (UCT, uniform random
rollouts) on one thread; PUCT with greedy rollouts and two threads are listed
beside it (``--rows threads``: only the 1- and 2-thread rows of
the bar's options, the scaling check). ``--iterations`` counts per thread, so the
2-thread row runs twice as many simulations in all. ``--rows learned`` sets the
full greedy search beside the search with a learned model (``--model``, default the
built-in one): round rollouts scored by its value, and its priors when it has a policy.
``--rows defaults`` sets the game's defaults at this budget (2-player Summer Pavilion and
Azure: round rollouts scored by the built-in model; 2-player Azul: mixed ones, the budget
being long) beside the full greedy rollout without a model, which every game searched with by
default before learned defaults.

Every row is the median of ``--runs`` runs, the rows' runs interleaved (so load on
the machine falls on all rows alike), with the range, and records both CPU seconds
of the process and wall seconds: on one thread the rate is per CPU second (other
load disturbs it less), on two per wall second (CPU time would hide the scaling),
and the load average is recorded. Each run says whether its tree reached its
memory bound (``compactions``: the times it was compacted to keep growing); the
tree keeps expanding either way, where the old fixed cap froze it.
"""

import argparse
import os
import statistics
import sys
import time
from dataclasses import replace

from tessera.bench import interleaved, load_average, machine, write_report
from tessera.games import get_game
from tessera.search.mcts import Mcts, MctsOptions

BAR = 40_000
TEXTBOOK = dict(select="uct", rollout="random", value="win")
ROWS = {
    "all": (
        ("uct, random rollouts, 1 thread (the bar)", dict(TEXTBOOK, threads=1)),
        ("puct, greedy rollouts, no model, 1 thread", dict(threads=1, rollout="greedy", model="none")),
        ("uct, random rollouts, 2 threads", dict(TEXTBOOK, threads=2)),
    ),
    "threads": (
        ("uct, random rollouts, 1 thread (the bar)", dict(TEXTBOOK, threads=1)),
        ("uct, random rollouts, 2 threads", dict(TEXTBOOK, threads=2)),
    ),
    "learned": (
        ("puct, greedy rollouts, no model, 1 thread", dict(threads=1, rollout="greedy", model="none")),
        ("puct, round rollouts, learned model, 1 thread", dict(threads=1, rollout="round", model=None)),
    ),
    "defaults": (
        ("puct, greedy rollouts, no model, 1 thread", dict(threads=1, rollout="greedy", model="none")),
        ("the game's defaults at this budget, 1 thread", dict(threads=1)),
    ),
}
TWO_THREADS = "uct, random rollouts, 2 threads"


def measure(state, iterations, options, found):
    """A run of ``iterations`` simulations per thread with ``options``; appends its figures
    to ``found`` and returns ``(simulations, seconds)`` on the row's clock."""
    # A search's budget is shared by its threads: each thread runs ``iterations`` here.
    measured = MctsOptions(iterations=iterations * options["threads"], seed=1, **options)
    # Load the kernels of what the budget leaves to the game (its rollout may depend on it).
    Mcts(replace(measured.for_position(state), iterations=200, seed=0)).search(state)

    def run():
        searcher = Mcts(measured)
        wall, cpu = time.perf_counter(), time.process_time()
        result = searcher.search(state)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        found.append(
            {
                "simulations": result.visits,
                "wall_seconds": round(wall, 3),
                "cpu_seconds": round(cpu, 3),
                "tree_nodes": result.tree_nodes,
                "compactions": result.compactions,
                "load_average": load_average()[0],
            }
        )
        return result.visits, (wall if options["threads"] > 1 else cpu)

    return run


def summary(runs, threads):
    clock = "wall" if threads > 1 else "cpu"
    rates = sorted(run["simulations"] / run[f"{clock}_seconds"] for run in runs)
    middle = sorted(runs, key=lambda run: run["simulations"] / run[f"{clock}_seconds"])[len(runs) // 2]
    return {
        "simulations": middle["simulations"],
        "simulations_per_s": round(statistics.median(rates)),
        "range": [round(rates[0]), round(rates[-1])],
        "per": f"{clock} second",
        "wall_seconds": middle["wall_seconds"],
        "cpu_seconds": middle["cpu_seconds"],
        "tree_nodes": middle["tree_nodes"],
        "memory_bound_reached": any(run["compactions"] for run in runs),
        "runs": runs,
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="azul", help="the game whose opening is searched")
    parser.add_argument("--iterations", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--rows", choices=sorted(ROWS), default="all")
    parser.add_argument(
        "--model", default="builtin", help="the learned model of --rows learned: builtin or a model file"
    )
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    game = get_game(args.game)
    state = game.new(1, **({"players": 2} if "players" in game.options else {}))
    load_before = load_average()
    rows = [
        (label, {**options, "model": args.model} if options.get("model", "") is None else options)
        for label, options in ROWS[args.rows]
    ]
    found = [[] for _ in rows]
    interleaved([measure(state, args.iterations, options, runs) for (_, options), runs in zip(rows, found)], args.runs)
    table = {label: summary(runs, options["threads"]) for (label, options), runs in zip(rows, found)}
    one = table[rows[0][0]]
    report = {
        "command": "python bench/mcts_speed.py " + " ".join(sys.argv[1:]),
        "position": f"tessera new {args.game} --seed 1 (2 players{', colour wall' if args.game == 'azul' else ''})",
        "machine": machine(load_before),
        "cores_available": len(os.sched_getaffinity(0)),
        "runs": table,
    }
    if TWO_THREADS in table:
        # The scaling: both rates per wall second, from the same interleaved runs.
        two = table[TWO_THREADS]
        one_wall = statistics.median(run["simulations"] / run["wall_seconds"] for run in one["runs"])
        report["two_threads_over_one"] = {
            "wall_simulations_per_s_1": round(one_wall),
            "wall_simulations_per_s_2": two["simulations_per_s"],
            "ratio": round(two["simulations_per_s"] / one_wall, 2),
        }
        report["bar"] = {
            "simulations_per_s": one["simulations_per_s"],
            "target": BAR,
            "ratio": round(one["simulations_per_s"] / BAR, 2),
        }
    for label, row in table.items():
        print(
            f"{label:45} {row['simulations_per_s']:>8} simulations per {row['per']}"
            f"  (range {row['range'][0]}-{row['range'][1]}; wall {row['wall_seconds']} s,"
            f" CPU {row['cpu_seconds']} s; {row['tree_nodes']} nodes,"
            f" memory bound {'reached' if row['memory_bound_reached'] else 'not reached'})"
        )
    if "bar" in report:
        scaling = report["two_threads_over_one"]
        print(
            f"2 threads over 1, per wall second: {scaling['wall_simulations_per_s_2']} / "
            f"{scaling['wall_simulations_per_s_1']} = {scaling['ratio']}x"
        )
        print(f"bar: {one['simulations_per_s']} / {BAR} = {report['bar']['ratio']}x")
    print(f"load average before {load_before}, after {load_average()}")
    write_report(args.out, report)


if __name__ == "__main__":
    main()
