"""train: a value model fitted to self-play runs (docs/learning.md)."""
import json
import math
import shlex

import click

from tessera.cli.progress import progress_bar, progress_wanted
from tessera.errors import TesseraError

FIGURES = (("margin_mse", "margin MSE"), ("margin_mae", "margin MAE"),
           ("win_log_loss", "win log-loss"), ("win_brier", "win Brier"))
SHOWN = (("model", "model"), ("score_difference", "score difference only"),
         ("constant", "constant"))


@click.command()
@click.argument("game_name", metavar="GAME")
@click.argument("run_dirs", metavar="RUN_DIR...", nargs=-1, required=True)
@click.option("--out", "-o", required=True, help="the model file to write (.npz)")
@click.option("--seed", type=int, default=0, show_default=True,
              help="seed of the split of the games into training and validation")
@click.option("--validation", type=float, default=0.2, show_default=True,
              help="share of the games kept apart to validate the model")
@click.option("--ridge", type=float, default=1.0, show_default=True,
              help="ridge penalty on the standardised weights")
@click.option("--json", "as_json", is_flag=True, help="print the figures as JSON")
@click.option("--progress/--no-progress", default=None,
              help="a progress bar on stderr [default: when stderr is a terminal]")
def train(game_name, run_dirs, out, seed, validation, ridge, as_json, progress):
    """Fit a value model of GAME's round boundaries to the self-play runs RUN_DIR... and
    write it to --out: its final margin and win share for each player, linear in the
    game's hand features. Prints the data's size and the validation figures of the model
    beside a constant and a model of the score difference alone."""
    from tessera.learning import dataset, fit
    from tessera.learning.features import features_of
    from tessera.learning.model import ValueModel

    kernel = features_of(game_name).kernel()
    if not 0 <= ridge < math.inf:
        raise TesseraError(f"--ridge is 0 or more (and finite), not {ridge}")
    if not 0 < validation < 1:
        raise TesseraError(f"--validation is a share between 0 and 1 (exclusive), not {validation}")
    runs = dataset.read_runs(game_name, run_dirs)
    total = sum(len(records["seed"]) for _, records in runs)
    with progress_bar(progress_wanted(progress), True) as show:
        done = [0]

        def on_game():
            done[0] += 1
            if show is not None and (done[0] % 50 == 0 or done[0] == total):
                show(f"replaying {done[0]}/{total} games", done[0] / total)
        data = dataset.replay_runs(game_name, runs, on_game)
    training, held = data.split(validation, seed)
    model = fit.fit(training.features, training.margin, training.win, ridge)
    names = list(kernel.FEATURE_NAMES)
    baselines = fit.baselines(training, (names.index("constant"), names.index("score_diff")),
                              ridge)
    figures = fit.evaluate(model, baselines, held)
    sizes = {"games": data.games, "rows": data.rows, "training_games": int(len(set(training.game))),
             "training_rows": training.rows, "validation_games": int(len(set(held.game))),
             "validation_rows": held.rows}
    command = ["tessera", "train", game_name, *run_dirs, "--out", str(out), "--seed", str(seed),
               "--validation", str(validation), "--ridge", str(ridge)]
    settings = {"command": shlex.join(command), "runs": list(run_dirs), "seed": seed,
                "validation": validation, "ridge": ridge}
    value = ValueModel(game_name, model.margin, model.win, tuple(names),
                       sorted(int(n) for n in set(data.players)), settings, sizes, figures)
    value.save(out)
    if as_json:
        click.echo(json.dumps({"model": str(out), "hash": value.hash, "data": sizes,
                               "validation": figures}, indent=2))
        return
    click.echo(f"data: {data.games} games, {data.rows} rows (one per player at each round "
               f"boundary); training {sizes['training_games']} games, {training.rows} rows; "
               f"validation {sizes['validation_games']} games, {held.rows} rows")
    click.echo(f"{'validation':<24}" + "".join(f"{label:>14}" for _, label in FIGURES))
    for key, label in SHOWN:
        click.echo(f"{label:<24}" + "".join(f"{figures[key][name]:>14.4f}" for name, _ in FIGURES))
    click.echo(f"model: {out} (sha256 {value.hash})")
