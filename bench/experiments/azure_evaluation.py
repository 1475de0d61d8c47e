"""How well Azure's evaluation predicts the winner of self-play games, against a model
fitted to the same games.

    python bench/experiments/azure_evaluation.py [--games N] [--agent SPEC] [--seed S] [--out FILE]

Plays ``--games`` seeded games of the agent against itself (default ``mcts:iters=64``)
and keeps every position where a player places a stone. Each position is described
from player 1's side by the differences (player 1 less player 2) of:

- ``score``: the scores (the beasts' points are in them);
- ``cards``: the cards in hand;
- ``dragon``: the Yellow Dragon's steps toward player 1 (Cosmos only, else 0);
- ``beasts``: each beast's worth (``BEAST_WORTH`` of kernels/azure/heuristic.py) times
  the guard lead on its mountain, capped at two stones each way;
- ``bonds``: bonds toward the empty spaces, summed (what the stones already on the
  realm save on the spaces still open);
- ``stones``: the stones in supply;
- ``to_move``: +1 when player 1 places next, -1 when player 2 does.

Games with even seeds train, odd seeds test. Three predictors of "player 1 wins" are
fitted on the training positions (logistic regression, Newton's method) and scored on
the test positions, beside a bias alone (the first seat's share of wins): the score
difference alone; the engine's ``evaluate`` (kernels/azure/evaluate.py), its
difference with one weight and a bias; and every feature above. The report gives each one's accuracy (the sign of its
prediction against the winner) and log-loss, overall and by thirds of the game, and
the fitted model's weights in points of evaluation per unit.
"""

import argparse
import json

import numpy as np

from tessera.agents import parse_agent
from tessera.bench import machine, write_report
from tessera.games import get_game
from tessera.kernels import bind, games
from tessera.kernels.azure.beasts import guard_mask
from tessera.kernels.azure.bits import count
from tessera.kernels.azure.heuristic import BEAST_WORTH
from tessera.kernels.azure.layout import (
    CELLS,
    NCOLOURS,
    P_HAND_SIZE,
    P_SCORE,
    P_STONES,
    P_SUPPLY,
    PHASE_PLACE,
    S_COSMOS,
    S_GIFTED,
    W_DRAGON,
    W_PHASE,
    W_TURN,
    W_WINNER,
)
from tessera.kernels.azure.moves import bonds, empty_spaces
from tessera.kernels.azure.state import player_base
from tessera.kernels.rng import chance_rng

FEATURES = ("score", "cards", "dragon", "beasts", "bonds", "stones", "to_move")
STAGES = ("first third", "second third", "last third")


def self_play_positions(games_count, spec, seed):
    """(features, evaluate's difference, stage, player 1 won, game seed) of every placing
    position of the games."""
    game = get_game("azure")
    rows = []
    for i in range(games_count):
        game_seed = seed + i
        state = game.new(game_seed)
        rules = bind.interface(state[0])
        agents = [parse_agent(spec, seed=2 * game_seed + k) for k in range(2)]
        chance = chance_rng(game_seed)
        positions = []
        values = np.zeros(2)
        while (who := rules.to_move(state)) != games.TERMINAL:
            if who == games.CHANCE:
                rules.resolve_chance(state, chance)
                continue
            if state[W_PHASE] == PHASE_PLACE:
                rules.evaluate(state, values)
                positions.append((features(state), values[0] - values[1]))
            move = agents[who].choose(game.view(state, who))
            rules.apply_move(state, move)
            for agent in agents:
                agent.observe(move)
        won = float(state[W_WINNER] == 0)
        for k, (row, evaluation) in enumerate(positions):
            rows.append((row, evaluation, min(2, 3 * k // len(positions)), won, game_seed))
    return rows


def features(state):
    """The differences of FEATURES, player 1 less player 2."""
    one, two = player_base(0), player_base(1)
    beasts = 0.0
    for colour in range(NCOLOURS):
        mask = guard_mask(state, colour)
        lead = count(state[one + P_STONES] & mask) - count(state[two + P_STONES] & mask)
        beasts += BEAST_WORTH[colour] * max(-2, min(2, lead)) / 2
    empty = empty_spaces(state)
    card = state[S_GIFTED]
    reach = [sum(bonds(state, base, cell, card) for cell in range(CELLS) if (empty >> cell) & 1) for base in (one, two)]
    return [
        state[one + P_SCORE] - state[two + P_SCORE],
        state[one + P_HAND_SIZE] - state[two + P_HAND_SIZE],
        state[W_DRAGON] if state[S_COSMOS] else 0,
        beasts,
        reach[0] - reach[1],
        state[one + P_SUPPLY] - state[two + P_SUPPLY],
        1 if state[W_TURN] == 0 else -1,
    ]


def fit_logistic(x, y, ridge=1e-3, steps=50):
    """Weights (bias last) of a logistic regression of ``y`` on ``x``, by Newton's method."""
    x = np.hstack([x, np.ones((len(x), 1))])
    w = np.zeros(x.shape[1])
    for _ in range(steps):
        p = 1 / (1 + np.exp(-x @ w))
        gradient = x.T @ (p - y) + ridge * w
        hessian = (x * (p * (1 - p))[:, None]).T @ x + ridge * np.eye(len(w))
        w -= np.linalg.solve(hessian, gradient)
    return w


def scores(x, y, w):
    """Accuracy and log-loss of the logistic weights ``w`` on ``x``, ``y``."""
    p = 1 / (1 + np.exp(-(np.hstack([x, np.ones((len(x), 1))]) @ w)))
    p = np.clip(p, 1e-9, 1 - 1e-9)
    return {
        "accuracy": round(float(np.mean((p > 0.5) == (y > 0.5))), 3),
        "log_loss": round(float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p))), 3),
    }


def report(rows):
    x = np.array([r[0] for r in rows], np.float64)
    evaluation = np.array([[r[1]] for r in rows], np.float64)
    stage = np.array([r[2] for r in rows])
    y = np.array([r[3] for r in rows])
    train = np.array([r[4] % 2 == 0 for r in rows])
    predictors = {
        "the first seat alone": np.zeros((len(x), 0)),
        "score alone": x[:, :1],
        "evaluate": evaluation,
        "all features": x,
    }
    out = {
        "positions": {"train": int(train.sum()), "test": int((~train).sum())},
        "player_1_wins": round(float(y.mean()), 3),
        "predictors": {},
    }
    for name, inputs in predictors.items():
        w = fit_logistic(inputs[train], y[train])
        entry = {
            "test": scores(inputs[~train], y[~train], w),
            "by_stage": {
                STAGES[s]: scores(inputs[~train & (stage == s)], y[~train & (stage == s)], w) for s in range(3)
            },
        }
        if name == "all features":
            # In points of evaluation: each weight over the score's weight.
            entry["points_per_unit"] = {f: round(float(w[k] / w[0]), 3) for k, f in enumerate(FEATURES)}
        out["predictors"][name] = entry
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--agent", default="mcts:iters=64")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    rows = self_play_positions(args.games, args.agent, args.seed)
    result = {
        "command": "python bench/experiments/azure_evaluation.py "
        + " ".join(f"--{k} {v}" for k, v in (("games", args.games), ("agent", args.agent), ("seed", args.seed))),
        "machine": machine(),
        **report(rows),
    }
    print(json.dumps(result, indent=2))
    if args.out:
        write_report(args.out, result)


if __name__ == "__main__":
    main()
