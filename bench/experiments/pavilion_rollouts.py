"""Summer Pavilion playouts before and after a change: random and greedy, one core.

    python bench/experiments/pavilion_rollouts.py [--games N] [--simulations N] [--label TEXT]
    PYTHONPATH=<another tree> python bench/experiments/pavilion_rollouts.py ...   # the same for that tree
    python bench/experiments/pavilion_rollouts.py --against COMMIT [COMMIT ...] [--rounds N] [--simulations N]
                                      [--game azure]

Prints one JSON line: random playouts a second from the 2-player opening (what
bench/pavilion_speed.py measures: the rules alone), and MCTS simulations a second
with the default options (PUCT priors and greedy rollouts on ``move_heuristic``:
the rules plus the heuristic). Uses only the public API, so it runs against an
exported commit too (bench/versus.py exports them; its worker,
tessera/strength/worker.py, serves them). CPU seconds of this process.

On a shared machine the speed of one process drifts by tens of percent within a
minute. ``--against`` keeps one warm worker process per tree (this checkout and each
commit, exported as bench/versus.py does) and measures them in turn, ``--rounds``
times, the order reversed every other round; it prints each tree's median MCTS
simulations a second with their range, and the median and quartiles of its ratio to
the first commit's figure of the same round. With ``--game azure`` the position is the
first player's view of a 2-player Azure deal, searched by IS-MCTS (as an agent does).
"""

import argparse
import json
import statistics
from pathlib import Path

from tessera.bench import playout_rate
from tessera.games import get_game

REPO = Path(__file__).resolve().parents[2]


def alternate(commits, rounds, simulations, game_name):
    """Each tree's MCTS rates, round after round, in warm worker processes of its own."""
    from tessera.kernels import games
    from tessera.strength import Baseline

    game = get_game(game_name)
    state = game.new(1, players=2) if game_name == "pavilion" else game.new(1)
    position = game.format_position(game.view(state, games.to_move(state)))
    workers = {commit: Baseline.of_commit(REPO, commit) for commit in commits}
    workers["this checkout"] = Baseline(REPO, label="this checkout")
    rates = {label: [] for label in workers}
    try:
        for r in range(rounds):
            order = list(workers) if r % 2 == 0 else list(workers)[::-1]
            for label in order:
                reply = workers[label].ask(
                    {"op": "rate", "position": position, "simulations": simulations, "seed": r + 1}
                )
                rates[label].append(reply["simulations_per_s"])
    finally:
        for worker in workers.values():
            worker.close()
    first = rates[commits[0]]
    report = {
        "command": "python bench/experiments/pavilion_rollouts.py --against "
        + " ".join(commits)
        + f" --rounds {rounds} --simulations {simulations} --game {game_name}",
        "solver": str(REPO / "solver"),
    }
    for label, figures in rates.items():
        ratios = [a / b for a, b in zip(figures, first)]
        report[label] = {
            "mcts_greedy_simulations_per_s": {
                "median": round(statistics.median(figures)),
                "range": [round(min(figures)), round(max(figures))],
            },
            f"ratio_to_{commits[0]}": {
                "median": round(statistics.median(ratios), 3),
                "quartiles": [round(q, 3) for q in statistics.quantiles(ratios, n=4)],
            },
        }
    return report


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--simulations", type=int, default=3_000)
    parser.add_argument("--label", default="")
    parser.add_argument("--against", nargs="+", metavar="COMMIT")
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--game", choices=("pavilion", "azure"), default="pavilion")
    args = parser.parse_args()
    if args.against:
        print(json.dumps(alternate(args.against, args.rounds, args.simulations, args.game)))
        return
    import tessera
    from tessera.strength.worker import simulations_per_s

    game = get_game("pavilion")
    state = game.new(1, players=2)
    rate = simulations_per_s({"position": game.format_position(state), "simulations": args.simulations, "seed": 1})
    print(
        json.dumps(
            {
                "label": args.label,
                "solver": tessera.__file__,
                "random_games_per_s": playout_rate(state, args.games)["games_per_s"],
                "mcts_greedy_simulations_per_s": round(rate),
            }
        )
    )


if __name__ == "__main__":
    main()
