"""Agent strength: MCTS against greedy and greedy against random, in 2-player games.

    python bench/agent_strength.py [--games N] [--seed S] [--out results/agents-strength.json]

Each pairing plays N games with the seats alternating; game i is dealt with seed
S + i and the two agents are seeded from it too, so a run is reproducible.
The pairings are ``tessera.strength.head_to_head``'s; tests/test_agents.py asserts that
the first two win by clear margins.
"""

import argparse
import sys

from tessera.bench import machine, write_report
from tessera.strength import head_to_head

MCTS_SPEC = "mcts:iters=300,select=puct,rollout=greedy,value=margin"
# The last pairing is for reference: the default MCTS options on the same budget.
PAIRINGS = ((MCTS_SPEC, "greedy"), ("greedy", "random"), ("mcts:iters=300", "greedy"))
GAME = "azul"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=24)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    report = {
        "command": "python bench/agent_strength.py " + " ".join(sys.argv[1:]),
        "machine": machine(),
        "game": GAME,
        "pairings": [head_to_head(spec, opponent, args.games, args.seed, GAME) for spec, opponent in PAIRINGS],
    }
    for row in report["pairings"]:
        print(
            f"{row['agent']} vs {row['opponent']}: {row['wins']:g}/{row['games']} wins, "
            f"mean margin {row['mean_margin']:+}, {row['seconds']} s"
        )
    write_report(args.out, report)


if __name__ == "__main__":
    main()
