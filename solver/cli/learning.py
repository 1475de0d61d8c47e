"""train: a value model, and move priors (a policy) when the runs recorded their searches,
fitted to self-play runs (docs/learning.md)."""

import json
import math
import shlex

import click

from tessera.cli.progress import progress_bar, progress_wanted
from tessera.errors import TesseraError, require_extra

FIGURES = (
    ("margin_mse", "margin MSE"),
    ("margin_mae", "margin MAE"),
    ("win_log_loss", "win log-loss"),
    ("win_brier", "win Brier"),
)
SHOWN = (("model", "model"), ("score_difference", "score difference only"), ("constant", "constant"))
POLICY_FIGURES = (("cross_entropy", "cross-entropy"), ("top1", "top-1 agreement"))
POLICY_SHOWN = (("model", "policy"), ("heuristic", "heuristic priors"))
MAX_HIDDEN = 256  # a value a search evaluates at every cut: more would cost its speed


@click.command()
@click.argument("game_name", metavar="GAME")
@click.argument("run_dirs", metavar="RUN_DIR...", nargs=-1, required=True)
@click.option("--out", "-o", required=True, help="the model file to write (.npz)")
@click.option(
    "--seed", type=int, default=0, show_default=True, help="seed of the split of the games into training and validation"
)
@click.option(
    "--validation",
    type=float,
    default=0.2,
    show_default=True,
    help="share of the games kept apart to validate the model",
)
@click.option("--ridge", type=float, default=1.0, show_default=True, help="ridge penalty on the standardised weights")
@click.option(
    "--hidden",
    type=int,
    default=0,
    show_default=True,
    help="hidden units of a one-layer perceptron beside the linear value (0: linear)",
)
@click.option(
    "--policy/--no-policy",
    default=None,
    help="fit move priors (a policy) to the searches' visits too [default: when every run recorded its searches]",
)
@click.option(
    "--policy-runs",
    "policy_dirs",
    multiple=True,
    metavar="RUN_DIR",
    help="fit the policy to these runs' searches instead of RUN_DIR...'s, e.g. "
    "of a stronger search (repeatable; implies --policy)",
)
@click.option(
    "--value-from",
    "value_from",
    metavar="MODEL",
    help="keep the value of the model file MODEL as it is and fit only the policy, to RUN_DIR...'s searches",
)
@click.option("--json", "as_json", is_flag=True, help="print the figures as JSON")
@click.option(
    "--progress/--no-progress", default=None, help="a progress bar on stderr [default: when stderr is a terminal]"
)
def train(
    game_name, run_dirs, out, seed, validation, ridge, hidden, policy, policy_dirs, value_from, as_json, progress
):
    """Fit a value model of GAME's round boundaries to the self-play runs RUN_DIR... and
    write it to --out: its final margin and win share for each player, linear in the
    game's hand features (with --hidden, plus a small perceptron over them). Prints the
    data's size and the validation figures of the model beside a constant and a model of
    the score difference alone. With --policy (the default
    for runs that recorded their searches), the model also gets move priors for MCTS: a
    softmax over the moves, linear in the game's move features, fitted to the searches'
    visit shares, with its figures beside the heuristic's priors. --policy-runs fits the
    policy to other runs than the value, e.g. of a search that ran many more simulations
    a move: its visits then say more than its priors did."""
    require_extra("pyarrow", "train", "tessera train")  # the runs' records are Parquet
    from tessera.learning import dataset, fit
    from tessera.learning.features import features_of
    from tessera.learning.model import ValueModel

    game_features = features_of(game_name)
    kernel = game_features.kernel()
    if not 0 <= ridge < math.inf:
        raise TesseraError(f"--ridge is 0 or more (and finite), not {ridge}")
    if not 0 < validation < 1:
        raise TesseraError(f"--validation is a share between 0 and 1 (exclusive), not {validation}")
    if not 0 <= hidden <= MAX_HIDDEN:
        raise TesseraError(f"--hidden is a count of units from 0 to {MAX_HIDDEN}, not {hidden}")
    if policy_dirs and policy is False:
        raise TesseraError("--policy-runs fits a policy: it cannot go with --no-policy")
    if value_from is not None:
        if policy is False or policy_dirs or hidden:
            raise TesseraError(
                "--value-from keeps the value of its model and fits only the "
                "policy: it cannot go with --no-policy, --policy-runs or --hidden"
            )
        return train_policy(game_name, run_dirs, value_from, out, seed, validation, ridge, as_json, progress)
    runs = dataset.read_runs(game_name, run_dirs)
    policy_runs = dataset.read_runs(game_name, policy_dirs) if policy_dirs else runs
    if policy is None:
        policy = bool(policy_dirs) or (dataset.runs_have_searches(runs) and game_features.policy is not None)
    option = "--policy-runs" if policy_dirs else "--policy"
    if policy and game_features.policy is None:
        raise TesseraError(f"{option}: {game_name} has no move features yet")
    if policy:
        require_searches(policy_runs, option)
    total = games_in(runs) + (games_in(policy_runs) if policy else 0)
    data, moves = replay_with_progress(
        progress,
        total,
        lambda on_game: (
            dataset.replay_runs(game_name, runs, on_game),
            dataset.replay_policy_runs(game_name, policy_runs, on_game) if policy else None,
        ),
    )
    training, held = data.split(validation, seed)
    if hidden:
        model = fit.fit_hidden(training.features, training.margin, training.win, training.game, hidden, ridge, seed)
    else:
        model = fit.fit(training.features, training.margin, training.win, ridge)
    names = list(kernel.FEATURE_NAMES)
    baselines = fit.baselines(training, (names.index("constant"), names.index("score_diff")), ridge)
    figures = fit.evaluate(model, baselines, held)
    sizes = {
        "games": data.games,
        "rows": data.rows,
        "training_games": int(len(set(training.game))),
        "training_rows": training.rows,
        "validation_games": int(len(set(held.game))),
        "validation_rows": held.rows,
    }
    command = (
        [
            "tessera",
            "train",
            game_name,
            *run_dirs,
            "--out",
            str(out),
            "--seed",
            str(seed),
            "--validation",
            str(validation),
            "--ridge",
            str(ridge),
        ]
        + (["--hidden", str(hidden)] if hidden else [])
        + [word for run_dir in policy_dirs for word in ("--policy-runs", str(run_dir))]
    )
    settings = {
        "command": shlex.join(command),
        "runs": list(run_dirs),
        "seed": seed,
        "validation": validation,
        "ridge": ridge,
        "hidden": hidden,
    }
    if policy_dirs:
        settings["policy_runs"] = list(policy_dirs)
    value = ValueModel(
        game_name,
        model.margin,
        model.win,
        tuple(names),
        sorted(int(n) for n in set(data.players)),
        settings,
        sizes,
        figures,
        hidden_weights=model.hidden,
        hidden_margin=model.hidden_margin,
        hidden_win=model.hidden_win,
    )
    if policy:
        value.policy_weights, value.policy_feature_names, value.policy = fit_policy(
            moves, game_features.policy_kernel(), validation, seed, ridge
        )
    value.save(out)
    if as_json:
        report = {"model": str(out), "hash": value.hash, "data": sizes, "validation": figures}
        if policy:
            report["policy"] = value.policy
        click.echo(json.dumps(report, indent=2))
        return
    click.echo(
        f"data: {data.games} games, {data.rows} rows (one per player at each round "
        f"boundary); training {sizes['training_games']} games, {training.rows} rows; "
        f"validation {sizes['validation_games']} games, {held.rows} rows"
    )
    click.echo(f"{'validation':<24}" + "".join(f"{label:>14}" for _, label in FIGURES))
    for key, label in SHOWN:
        click.echo(f"{label:<24}" + "".join(f"{figures[key][name]:>14.4f}" for name, _ in FIGURES))
    if policy:
        echo_policy(value.policy)
    click.echo(f"model: {out} (sha256 {value.hash})")


def train_policy(game_name, run_dirs, value_from, out, seed, validation, ridge, as_json, progress):
    """``train --value-from``: the model ``value_from`` with the policy fitted to the
    searches of ``run_dirs`` in place of any it had, written to ``out``; its settings keep
    the value's fit and add the policy's runs and command."""
    from dataclasses import replace

    from tessera.learning import dataset
    from tessera.learning.features import features_of
    from tessera.learning.model import load_model

    game_features = features_of(game_name)
    if game_features.policy is None:
        raise TesseraError(f"--value-from: {game_name} has no move features yet")
    value = load_model(value_from, game_name)
    runs = dataset.read_runs(game_name, run_dirs)
    require_searches(runs, "--value-from")
    moves = replay_with_progress(
        progress, games_in(runs), lambda on_game: dataset.replay_policy_runs(game_name, runs, on_game)
    )
    weights, names, meta = fit_policy(moves, game_features.policy_kernel(), validation, seed, ridge)
    command = [
        "tessera",
        "train",
        game_name,
        *run_dirs,
        "--value-from",
        str(value_from),
        "--out",
        str(out),
        "--seed",
        str(seed),
        "--validation",
        str(validation),
        "--ridge",
        str(ridge),
    ]
    settings = {**value.settings, "policy_runs": list(run_dirs), "policy_command": shlex.join(command)}
    model = replace(value, settings=settings, policy_weights=weights, policy_feature_names=names, policy=meta)
    model.save(out)
    if as_json:
        click.echo(
            json.dumps({"model": str(out), "hash": model.hash, "value_from": str(value_from), "policy": meta}, indent=2)
        )
        return
    click.echo(f"value: kept as it is from {value_from} (sha256 {value.hash})")
    echo_policy(meta)
    click.echo(f"model: {out} (sha256 {model.hash})")


def games_in(runs):
    """The games of ``runs`` (``dataset.read_runs``'s)."""
    return sum(len(records["seed"]) for _, records in runs)


def require_searches(runs, option):
    """TesseraError, naming ``option``, unless ``runs`` recorded their searches (the
    policy's data)."""
    from tessera.learning import dataset

    if not dataset.runs_have_searches(runs):
        raise TesseraError(f"{option} needs runs that recorded their searches (tessera selfplay --record-search)")


def replay_with_progress(progress, total, replay):
    """``replay(on_game)``'s result, a progress bar on stderr (``--progress``) counting the
    calls of ``on_game()``, one per game replayed, of ``total``."""
    with progress_bar(progress_wanted(progress), True) as show:
        done = [0]

        def on_game():
            done[0] += 1
            if show is not None and (done[0] % 50 == 0 or done[0] == total):
                show(f"replaying {done[0]}/{total} games", done[0] / total)

        return replay(on_game)


def echo_policy(meta):
    """The policy's data and validation figures beside the heuristic's priors (``meta``:
    ``fit_policy``'s)."""
    shape = meta["data"]
    click.echo(
        f"policy data: {shape['positions']} searched positions, {shape['moves']} "
        f"moves; training {shape['training_positions']} positions; validation "
        f"{shape['validation_positions']} positions"
    )
    click.echo(f"{'policy validation':<24}" + "".join(f"{label:>16}" for _, label in POLICY_FIGURES))
    for key, label in POLICY_SHOWN:
        row = meta["validation"][key]
        click.echo(f"{label:<24}" + "".join(f"{row[name]:>16.4f}" for name, _ in POLICY_FIGURES))


def fit_policy(moves, kernel, validation, seed, ridge):
    """(weights, feature names, meta) of the policy fitted to the searched positions
    ``moves`` (a ``dataset.PolicyDataset``), its games split as the value's are (the same
    share and seed: the same games when the runs are the value's); the meta holds the
    data's size and the validation figures beside the move heuristic's priors (at MCTS's
    temperature)."""
    from tessera.learning import fit
    from tessera.search.mcts import PRIOR_TEMPERATURE

    training, held = moves.split(validation, seed)
    weights = fit.policy_regression(training.features, training.start, training.target, ridge)
    names = tuple(kernel.POLICY_FEATURE_NAMES)
    baseline = {"heuristic": fit.heuristic_policy(names, PRIOR_TEMPERATURE)}
    figures = fit.evaluate_policy(weights, baseline, held)
    sizes = {
        "positions": moves.positions,
        "moves": int(len(moves.target)),
        "training_positions": training.positions,
        "validation_positions": held.positions,
    }
    return weights, names, {"data": sizes, "validation": figures, "baseline_temperature": PRIOR_TEMPERATURE}
