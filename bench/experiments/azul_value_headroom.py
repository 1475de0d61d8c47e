"""How much better a value of Azul's round boundary could predict the game than the built-in
linear one, on the built-in model's own training data.

    pip install scikit-learn        # this study only; the package does not need it
    python bench/experiments/azul_value_headroom.py RUN_DIR... [--out FILE]

RUN_DIR... are the self-play runs the built-in model was fitted to (docs/learning.md,
"Azul": ``runs/mcts200 runs/gen2``), with their searches recorded. On the same split of
games as ``tessera train --seed 1`` (a fifth kept for validation), with the final margin
as the label, it fits:

- the linear model of ``tessera train`` (its ``ridge_regression``);
- small multi-layer perceptrons and gradient-boosted trees over the same features: does a
  model family that sees interactions predict better?
- the linear model on a target that mixes the final margin with the root margin of the
  search that played the first move after the boundary (a bootstrapped target, less
  noisy than the game's end): does the label's noise hold the fit back?

and reports each one's validation mean squared error against the final margins, beside
the error of that next search's root margin itself (which has seen the deal).
"""

import argparse
import glob
import json
import sys

import numpy as np
import pyarrow.parquet as pq

from tessera.learning.dataset import held_games
from tessera.learning.features import features_of
from tessera.learning.fit import ridge_regression
from tessera.position import ChanceDraws, Position
from tessera.search.result import final_margins

VALIDATION, SPLIT_SEED, RIDGE = 0.2, 1, 1.0  # as `tessera train --seed 1`


def rows(run_dirs):
    """Features, final margin, next search's root margin and game index of every player at
    every round boundary (before the last move) of the 2-player runs."""
    kernel = features_of("azul").kernel()
    features, final, searched, games = [], [], [], []
    game = 0
    for run_dir in run_dirs:
        for chunk in sorted(glob.glob(f"{run_dir}/chunks/*.parquet")):
            columns = ["seed", "moves", "movers", "scores", "search_margin"]
            for record in pq.read_table(chunk, columns=columns).to_pylist():
                position = Position.new("azul", seed=record["seed"], players=2)
                draws = ChanceDraws(record["seed"])
                margins = final_margins(record["scores"])
                for ply, move in enumerate(record["moves"]):
                    position = position.play_codes(int(move))
                    if position.is_chance and ply + 1 < len(record["moves"]):
                        next_margin, mover = record["search_margin"][ply + 1], record["movers"][ply + 1]
                        for player in range(2):
                            row = np.empty(kernel.N_VALUE_FEATURES)
                            kernel.value_features(position.state, player, row)
                            features.append(row)
                            final.append(margins[player])
                            searched.append(next_margin if player == mover else -next_margin)
                            games.append(game)
                    position = draws.deal(position)
                game += 1
    return (np.asarray(features), np.asarray(final), np.asarray(searched), np.asarray(games), game)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", nargs="+")
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    from sklearn.ensemble import HistGradientBoostingRegressor
    from sklearn.neural_network import MLPRegressor

    features, final, searched, games, count = rows(args.runs)
    held = held_games(count, VALIDATION, SPLIT_SEED)[games]
    mean, spread = features[~held].mean(0), features[~held].std(0) + 1e-12
    z = (features - mean) / spread  # the perceptrons' inputs
    train, valid = ~held, held

    def error(predicted):
        return round(float(np.mean((predicted - final[valid]) ** 2)), 2)

    report = {
        "command": "python bench/experiments/azul_value_headroom.py " + " ".join(sys.argv[1:]),
        "rows": {"training": int(train.sum()), "validation": int(valid.sum()), "games": count},
        "validation_margin_mse": {},
    }
    found = report["validation_margin_mse"]
    found["constant"] = error(np.full(valid.sum(), final[train].mean()))
    found["linear (tessera train)"] = error(features[valid] @ ridge_regression(features[train], final[train], RIDGE))
    for hidden in ((16,), (32,), (64, 32)):
        for alpha in (1e-3, 1.0):
            mlp = MLPRegressor(
                hidden_layer_sizes=hidden, alpha=alpha, max_iter=600, early_stopping=True, random_state=0
            ).fit(z[train], final[train])
            found[f"mlp {hidden} alpha {alpha:g}"] = error(mlp.predict(z[valid]))
    trees = HistGradientBoostingRegressor(max_iter=300, random_state=0).fit(features[train], final[train])
    found["gradient-boosted trees"] = error(trees.predict(features[valid]))
    for share in (0.25, 0.5, 1.0):
        target = (1 - share) * final + share * searched
        found[f"linear on {share:g} next search + {1 - share:g} final"] = error(
            features[valid] @ ridge_regression(features[train], target[train], RIDGE)
        )
    found["the next search's root margin itself (after the deal)"] = error(searched[valid])
    for name, value in found.items():
        print(f"{name:55} {value}")
    if args.out:
        with open(args.out, "w") as out:
            json.dump(report, out, indent=1)
            out.write("\n")


if __name__ == "__main__":
    main()
