"""The default search's simulations a CPU second, this checkout against other commits.

    python bench/speed_versus.py GAME COMMIT [COMMIT ...] [--players N] [--simulations N]
                                 [--rounds R] [--position TEXT] [--out results/FILE.json]

The strength counterpart is bench/versus.py. Each tree (this checkout and every commit,
exported as bench/versus.py exports them) runs in a warm worker process of its own
(``tessera.strength.Baseline``), which times one search with its own defaults for the
budget of ``--simulations`` from ``tessera new GAME --seed 1`` (the first player's view
in a game of hidden hands, searched by IS-MCTS as an agent does), or from ``--position``
(a position's text, as ``tessera best`` takes it): the ``rate`` request of
``tessera/strength/worker.py``. The budget picks the rollout where a game's defaults
depend on it (2-player Azul: round rollouts below 4,700 simulations, mixed ones from
there), so a speed-up of one rollout's kernels is measured at a budget that uses them.

The trees take turns, ``--rounds`` times, the order reversed every other round, so a
change of load on the machine falls on all of them alike. Each tree's figure is its
median with its range, and its ratio to the first commit's figure of the same round
(median and quartiles).
"""

import argparse
import json
import statistics
import sys
from pathlib import Path

from tessera.bench import load_average, machine, write_report
from tessera.games import get_game
from tessera.kernels import games
from tessera.strength import Baseline

REPO = Path(__file__).resolve().parents[1]
THIS = "this checkout"


def start_position(game_name, players):
    """The searched position, in notation: the opening of seed 1, seen by its first player
    when the game hides hands."""
    game = get_game(game_name)
    state = game.new(1, **({"players": players} if "players" in game.options else {}))
    return game.format_position(game.view(state, games.to_move(state)))


def alternate(workers, position, simulations, rounds):
    """Each worker's rates (simulations a CPU second), round after round."""
    rates = {label: [] for label in workers}
    for r in range(rounds):
        order = list(workers) if r % 2 == 0 else list(workers)[::-1]
        for label in order:
            reply = workers[label].ask({"op": "rate", "position": position, "simulations": simulations, "seed": r + 1})
            rates[label].append(reply["simulations_per_s"])
    return rates


def summary(rates, first):
    report = {}
    for label, figures in rates.items():
        ratios = [a / b for a, b in zip(figures, rates[first])]
        report[label] = {
            "simulations_per_cpu_s": {
                "median": round(statistics.median(figures)),
                "range": [round(min(figures)), round(max(figures))],
            },
            f"ratio_to_{first}": {
                "median": round(statistics.median(ratios), 3),
                "quartiles": [round(q, 3) for q in statistics.quantiles(ratios, n=4)],
            },
        }
    return report


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=("azul", "pavilion", "azure"))
    parser.add_argument("commits", nargs="+", metavar="COMMIT")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--simulations", type=int, default=3_000)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--position", default=None, help="a position's text [default: the opening of seed 1]")
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    position = args.position or start_position(args.game, args.players)
    load_before = load_average()
    workers = {commit: Baseline.of_commit(REPO, commit) for commit in args.commits}
    workers[THIS] = Baseline(REPO, label=THIS)
    try:
        rates = alternate(workers, position, args.simulations, args.rounds)
    finally:
        for worker in workers.values():
            worker.close()
    report = {
        "command": "python bench/speed_versus.py " + " ".join(sys.argv[1:]),
        "position": args.position or f"tessera new {args.game} --seed 1 ({args.players} players)",
        "search": f"the defaults at {args.simulations} simulations, one thread",
        "machine": machine(load_before),
        "rounds": args.rounds,
        "trees": summary(rates, args.commits[0]),
    }
    print(json.dumps(report["trees"], indent=2))
    write_report(args.out, report)


if __name__ == "__main__":
    main()
