"""Tune Summer Pavilion's evaluation weights by self-play: a coordinate search.

    python bench/experiments/pavilion_tune.py [--games N] [--passes P] [--seed S] [--out FILE]

A player here moves to the legal move of highest ``move_heuristic_with(state, move, w)``
(the greedy rollout of MCTS without its random moves; the first best move on a tie).
Starting from ``WEIGHTS``, each weight in turn is tried at x0.5 and x1.5 (FADE, a share,
at -0.2 and +0.2, kept in 0..1): the candidate plays N 2-player games against the current
weights, each deal twice with the seats swapped, and replaces them when it wins more
than 53% of those games. P passes over the weights; the games of each trial are dealt
from seeds S, S+1, ... so every trial meets the same deals. The report lists every
trial and the weights found.
"""

import argparse
import sys
import time

from tessera.bench import machine, write_report
from tessera.kernels.pavilion.evaluate import FADE, N_WEIGHTS, WEIGHTS
from tessera.strength.pavilion_duel import duel

NAMES = ("TILE", "WILD", "KEPT", "STAR", "NUMBER", "REGION", "TOKEN", "FADE")
ACCEPT = 0.53


def candidates(weights, k):
    if k == FADE:
        values = (max(0.0, weights[k] - 0.2), min(1.0, weights[k] + 0.2))
    else:
        values = (weights[k] * 0.5, weights[k] * 1.5)
    for value in values:
        trial = weights.copy()
        trial[k] = value
        yield trial


def tune(games, passes, seed):
    weights = WEIGHTS.copy()
    trials = []
    for p in range(passes):
        for k in range(N_WEIGHTS):
            for trial in candidates(weights, k):
                won, margin = duel(trial, weights, games, seed)
                rate = won / (2 * games)
                accepted = rate > ACCEPT
                trials.append(
                    {
                        "pass": p + 1,
                        "weight": NAMES[k],
                        "value": round(float(trial[k]), 4),
                        "win_rate": round(rate, 4),
                        "mean_margin": round(margin / (2 * games), 2),
                        "accepted": accepted,
                    }
                )
                print(
                    f"pass {p + 1} {NAMES[k]}={trial[k]:.3f}: {rate:.3f}, margin {margin / (2 * games):+.2f}"
                    + ("  accepted" if accepted else ""),
                    flush=True,
                )
                if accepted:
                    weights = trial
                    break
    return weights, trials


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500, help="deals per trial (each played twice)")
    parser.add_argument("--passes", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    started = time.perf_counter()
    weights, trials = tune(args.games, args.passes, args.seed)
    report = {
        "command": "python bench/experiments/pavilion_tune.py " + " ".join(sys.argv[1:]),
        "start": dict(zip(NAMES, WEIGHTS.round(4).tolist())),
        "found": dict(zip(NAMES, weights.round(4).tolist())),
        "trials": trials,
        "seconds": round(time.perf_counter() - started, 1),
        "machine": machine(),
    }
    print("found:", report["found"])
    write_report(args.out, report)


if __name__ == "__main__":
    main()
