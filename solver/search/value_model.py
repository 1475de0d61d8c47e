"""The learned model an MCTS search uses (``--model``): its value scores the round rollouts,
its policy, when it has one, gives PUCT's priors. A model file of ``tessera train``
(``tessera.learning.model``) as the array the kernels take (``run_tree``'s ``model``: the
rows of ``tessera.kernels.search.mcts_layout``), and its hash for the search's settings.

``builtin`` names the game's built-in model: package data of ``tessera.learning``,
``models/<game>-<N>p.npz`` for a search of N players where one was fitted to N players,
else ``models/<game>.npz``; a model file like any other (docs/learning.md, "The built-in
models"). A file is read once a process while it stays the same (its size and modification
time).
"""

import functools
import os
from importlib import resources

import numpy as np

from tessera.kernels.search.mcts_layout import (
    HIDDEN_INPUT,
    HIDDEN_MARGIN,
    HIDDEN_WIN,
    MODEL_HIDDEN,
    MODEL_MARGIN,
    MODEL_POLICY,
    MODEL_SHAPE,
    MODEL_WIN,
    SHAPE_HIDDEN,
    SHAPE_POLICY,
)
from tessera.search.options import MODEL_BUILTIN

# What the kernels take for no model: no rows.
NO_MODEL = np.zeros((0, 0), np.float64)


def model_weights(path, game=None, players=None):
    """``(weights, hash)`` of the value model in ``path``: ``weights`` the kernels' float64
    array, ``hash`` the model's SHA-256. ``ModelError`` (one line) for a file that is not a
    model, or a model of another game than ``game`` (a name; None: any). ``path``
    ``builtin`` is ``game``'s built-in model for ``players`` (None: its general one); with
    ``game`` None, any game's (what can be checked before the game is known)."""
    if os.fspath(path) == MODEL_BUILTIN:
        path = builtin_model_file(game, players)
    try:
        found = os.stat(path)
        stamp = (found.st_size, found.st_mtime_ns)
    except OSError:
        stamp = None  # load_model says what is wrong
    return _load(os.fspath(path), os.path.abspath(path), stamp, game)


@functools.lru_cache(maxsize=16)
def _load(path, where, stamp, game):
    """``model_weights`` of ``path`` as given (its errors name it so), cached by where it
    is (``where``, absolute) and ``stamp``."""
    from tessera.learning.model import load_model

    model = load_model(path, game)
    return kernel_array(model), model.hash


def kernel_array(model):
    """The kernels' array of the ``ValueModel`` ``model``."""
    features = model.features
    policy = 0 if not model.has_policy else len(model.policy_weights)
    weights = np.zeros((MODEL_HIDDEN + model.hidden, max(policy, HIDDEN_INPUT + features)), np.float64)
    weights[MODEL_MARGIN, :features] = model.margin_weights
    weights[MODEL_WIN, :features] = model.win_weights
    weights[MODEL_SHAPE, SHAPE_HIDDEN] = model.hidden
    if model.has_policy:
        weights[MODEL_POLICY, :policy] = model.policy_weights
        weights[MODEL_SHAPE, SHAPE_POLICY] = 1.0
    for unit in range(model.hidden):
        row = weights[MODEL_HIDDEN + unit]
        row[HIDDEN_MARGIN] = model.hidden_margin[unit]
        row[HIDDEN_WIN] = model.hidden_win[unit]
        row[HIDDEN_INPUT : HIDDEN_INPUT + features] = model.hidden_weights[unit]
    return weights


def model_for_position(path: str, state: np.ndarray) -> tuple[np.ndarray, str]:
    """``model_weights`` of ``path`` for a search of ``state``: a model of its game, and for
    ``builtin`` the one for its player count."""
    from tessera.kernels import bind, games

    return model_weights(path, bind.game_name(state[0]), games.players(state))


def has_policy(weights):
    """True when the kernels' model array ``weights`` (``model_weights``) carries a policy."""
    return weights.shape[0] > 0 and weights[MODEL_SHAPE, SHAPE_POLICY] != 0


def builtin_model_file(game=None, players=None):
    """The file of ``game``'s built-in model (a name) for a game of ``players``: the one
    fitted to that many players if there is one, else the game's general one; with
    ``game`` None, the first game's that has one. ``ModelError`` (one line) when there is
    none."""
    from tessera.learning.model import ModelError

    games = builtin_model_games() if game is None else [game]
    for name in games:
        names = [f"{name}.npz"] if players is None else [f"{name}-{players}p.npz", f"{name}.npz"]
        for file_name in names:
            found = _models_folder() / file_name
            if found.is_file():
                return found
    wanted = "" if game is None else f" for {game}"
    raise ModelError(MODEL_BUILTIN, f"no built-in value model{wanted}; give a model file or none")


def builtin_model_games():
    """The names of the games with a built-in general model, sorted."""
    folder = _models_folder()
    if not folder.is_dir():
        return []
    return sorted(
        entry.name.removesuffix(".npz")
        for entry in folder.iterdir()
        if entry.name.endswith(".npz") and "-" not in entry.name
    )


def _models_folder():
    """The built-in models' folder: package data, a folder of the installed package."""
    return resources.files("tessera.learning") / "models"
