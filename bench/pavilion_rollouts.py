"""Summer Pavilion playouts before and after a change: random and greedy, one core.

    python bench/pavilion_rollouts.py [--games N] [--simulations N] [--label TEXT]
    PYTHONPATH=<another tree> python bench/pavilion_rollouts.py ...   # the same for that tree

Prints one JSON line: random playouts a second from the 2-player opening (what
bench/pavilion_speed.py measures: the rules alone), and MCTS simulations a second
with the default options (PUCT priors and greedy rollouts on ``move_heuristic``:
the rules plus the heuristic). Uses only the public API, so it runs against an
exported commit too (bench/versus.py exports them); interleave runs of the two
trees on a shared machine and compare medians. CPU seconds of this process.
"""
import argparse
import json
import time

from solver.bench import playout_rate, timed
from solver.games import get_game
from solver.search.mcts import Mcts, MctsOptions


def simulations_per_s(state, simulations):
    Mcts(MctsOptions(iterations=64, seed=0)).search(state)         # load the kernels
    searcher = Mcts(MctsOptions(iterations=simulations, seed=1))
    result, seconds = timed(time.process_time, searcher.search, state)
    return round(result.visits / seconds)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--simulations", type=int, default=3_000)
    parser.add_argument("--label", default="")
    args = parser.parse_args()
    import solver
    state = get_game("pavilion").new(1, players=2)
    print(json.dumps({"label": args.label, "solver": solver.__file__,
                      "random_games_per_s": playout_rate(state, args.games)["games_per_s"],
                      "mcts_greedy_simulations_per_s": simulations_per_s(state, args.simulations)}))


if __name__ == "__main__":
    main()
