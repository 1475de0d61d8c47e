"""What a warm search costs beyond its simulations: the floor of every short search.

    python bench/search_overhead.py [--repeats 200] [--out results/search-overhead.json]

Per game (the 2-player Azul and Summer Pavilion openings with MCTS, an Azure opening
view with IS-MCTS), on one thread and on two, with every kernel already loaded, wall
milliseconds of:

- ``one_simulation``: a whole search of one simulation (``iterations=1``), its tree, the
  result and the kernels' lookup included, what a search pays whatever its budget;
- ``lookup_again``: ``load_kernels`` called as it was before ``once_per_process``, once
  per search (``load_kernels.__wrapped__``: the compile helper's lock folder, every
  argument typed again), the cost that decorator saves each search after the first.

Each figure is the median of ``--repeats`` calls with its 10th and 90th percentiles,
after one call that loads the kernels. Short calls on a shared machine vary: read the
median.
"""

import argparse
import statistics
import sys
import time

from tessera.bench import load_average, machine, timed, write_report
from tessera.games import get_game
from tessera.search import ismcts, mcts
from tessera.search.mcts import Mcts, MctsOptions

AZURE = get_game("azure")
POSITIONS = (
    ("azul", "mcts", lambda: get_game("azul").new(1, players=2)),
    ("pavilion", "mcts", lambda: get_game("pavilion").new(1, players=2)),
    ("azure view", "ismcts", lambda: AZURE.view(AZURE.new(5), 0)),
)


def milliseconds(call, repeats):
    """Median, 10th and 90th percentile wall milliseconds of ``repeats`` calls of ``call``."""
    call()  # loads the kernels
    times = [1000 * timed(time.perf_counter, call)[1] for _ in range(repeats)]
    deciles = statistics.quantiles(times, n=10)
    return {
        "median_ms": round(statistics.median(times), 3),
        "p10_ms": round(deciles[0], 3),
        "p90_ms": round(deciles[-1], 3),
    }


def measure(kind, state, threads, repeats):
    options = MctsOptions(iterations=1, threads=threads, seed=1)
    rollout = options.for_position(state).rollout  # outside the timed lookup
    if kind == "mcts":
        searcher = Mcts(options)

        def lookup():
            return mcts.load_kernels.__wrapped__(state, rollout, False)
    else:
        searcher = ismcts.Ismcts(options)

        def lookup():
            return ismcts.load_kernels.__wrapped__(state, rollout)

    return {
        "one_simulation": milliseconds(lambda: searcher.search(state), repeats),
        "lookup_again": milliseconds(lookup, repeats),
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=200)
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    load = load_average()
    rows = {}
    for label, kind, position in POSITIONS:
        for threads in (1, 2):
            key = f"{label}, {threads} thread{'s' if threads > 1 else ''}"
            rows[key] = row = measure(kind, position(), threads, args.repeats)
            print(
                f"{key:22} one simulation {row['one_simulation']['median_ms']:6.2f} ms"
                f"  (p10-p90 {row['one_simulation']['p10_ms']:.2f}-{row['one_simulation']['p90_ms']:.2f})"
                f"   kernels looked up again {row['lookup_again']['median_ms']:6.2f} ms"
            )
    write_report(
        args.out,
        {
            "command": "python bench/search_overhead.py " + " ".join(sys.argv[1:]),
            "what": "wall milliseconds of a warm search of one simulation, and of looking its kernels "
            "up again (what once_per_process saves each search); medians of --repeats calls",
            "machine": machine(load),
            "runs": rows,
        },
    )


if __name__ == "__main__":
    main()
