"""Playouts and MCTS simulations per second, this tree against an earlier one, interleaved.

    python bench/experiments/speed_before_after.py --before TREE [--rounds 3] [--out results/start.json]

Each round measures the source tree ``TREE`` (e.g. ``git archive`` output of the
commit before a change) and then this tree, each in a fresh process with a warm cache
of its own, with the functions of bench/azul_speed.py (2-player random playouts on one
core) and the first two rows of bench/mcts_speed.py (the bar's textbook options and the
defaults, one thread), CPU seconds. The figures are the medians of the rounds, with their ranges, so
that both trees see the same machine load. The result goes under ``kernel_speed``.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

MEASURE = """
import json, sys, time
sys.path.insert(0, sys.argv[1])
from bench.azul_speed import opening
from bench.mcts_speed import ROWS
from tessera.bench import playout_rate
from tessera.search.mcts import Mcts, MctsOptions
state = opening(2)
figures = {"playouts_2p_games_per_s": playout_rate(state, int(sys.argv[2]), time.process_time)["games_per_s"]}
for label, options in ROWS["all"][:2]:           # the bar's options and the defaults, one thread
    Mcts(MctsOptions(iterations=200, seed=0, **options)).search(state)      # load the kernels
    searcher = Mcts(MctsOptions(iterations=int(sys.argv[3]), seed=1, **options))
    cpu = time.process_time()
    visits = searcher.search(state).visits
    figures["mcts " + label] = round(visits / (time.process_time() - cpu))
print(json.dumps(figures))
"""


def measure(tree, cache, games, iterations):
    """One process's figures for the sources of ``tree`` (None: this tree)."""
    env = dict(os.environ, NUMBA_CACHE_DIR=cache)
    here = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    if tree is not None:
        env["PYTHONPATH"] = tree
    # From the cache's folder: ``python -c`` puts the working directory before PYTHONPATH.
    done = subprocess.run(
        [sys.executable, "-c", MEASURE, tree or here, str(games), str(iterations)],
        check=True,
        env=env,
        capture_output=True,
        text=True,
        cwd=cache,
    )
    return json.loads(done.stdout.splitlines()[-1])


def summary(rounds):
    return {
        key: {
            "median": statistics.median(r[key] for r in rounds),
            "range": [min(r[key] for r in rounds), max(r[key] for r in rounds)],
        }
        for key in rounds[0]
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", required=True)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--iterations", type=int, default=50_000)
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    before, after = [], []
    with tempfile.TemporaryDirectory() as old_cache, tempfile.TemporaryDirectory() as new_cache:
        measure(os.path.abspath(args.before), old_cache, 1000, 500)  # compile both first
        measure(None, new_cache, 1000, 500)
        for i in range(args.rounds):
            before.append(measure(os.path.abspath(args.before), old_cache, args.games, args.iterations))
            after.append(measure(None, new_cache, args.games, args.iterations))
            print(f"round {i + 1}: before {before[-1]}, after {after[-1]}", file=sys.stderr)
    report = {
        "command": "python bench/experiments/speed_before_after.py " + " ".join(sys.argv[1:]),
        "load_average": list(os.getloadavg()),
        "before": summary(before),
        "after": summary(after),
    }
    report["after_over_before"] = {
        key: round(report["after"][key]["median"] / report["before"][key]["median"], 3) for key in report["after"]
    }
    print(json.dumps(report, indent=2))
    if args.out:
        existing = {}
        if os.path.exists(args.out):
            with open(args.out) as f:
                existing = json.load(f)
        existing["kernel_speed"] = report
        with open(args.out, "w") as f:
            json.dump(existing, f, indent=2)
            f.write("\n")


if __name__ == "__main__":
    main()
