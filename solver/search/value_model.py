"""The learned value an MCTS search scores its round rollouts with (``--model``): a model
file of ``tessera train`` (``tessera.learning.model``) as the array the kernels take
(``run_tree``'s ``model``: rows ``MODEL_MARGIN`` and ``MODEL_WIN`` of
``tessera.kernels.search.mcts_layout``), and its hash for the search's settings.

``builtin`` names the game's built-in model: package data of ``tessera.learning``
(``models/<game>.npz``), a model file like any other (docs/learning.md, "The built-in
model"). A file is read once a process while it stays the same (its size and modification
time).
"""
import functools
import os
from importlib import resources

import numpy as np

from tessera.kernels.search.mcts_layout import MODEL_MARGIN, MODEL_ROWS, MODEL_WIN
from tessera.search.options import MODEL_BUILTIN

# What the kernels take for no model: no rows.
NO_MODEL = np.zeros((0, 0), np.float64)


def model_weights(path, game=None):
    """``(weights, hash)`` of the value model in ``path``: ``weights`` the kernels' float64
    array, ``hash`` the model's SHA-256. ``ModelError`` (one line) for a file that is not a
    model, or a model of another game than ``game`` (a name; None: any). ``path``
    ``builtin`` is ``game``'s built-in model; with ``game`` None, any game's (what can be
    checked before the game is known)."""
    if os.fspath(path) == MODEL_BUILTIN:
        path = builtin_model_file(game)
    try:
        found = os.stat(path)
        stamp = (found.st_size, found.st_mtime_ns)
    except OSError:
        stamp = None                # load_model says what is wrong
    return _load(os.fspath(path), os.path.abspath(path), stamp, game)


@functools.lru_cache(maxsize=16)
def _load(path, where, stamp, game):
    """``model_weights`` of ``path`` as given (its errors name it so), cached by where it
    is (``where``, absolute) and ``stamp``."""
    from tessera.learning.model import load_model
    model = load_model(path, game)
    weights = np.zeros((MODEL_ROWS, model.features), np.float64)
    weights[MODEL_MARGIN] = model.margin_weights
    weights[MODEL_WIN] = model.win_weights
    return weights, model.hash


def builtin_model_file(game=None):
    """The file of ``game``'s built-in model (a name); with ``game`` None, the first game's
    that has one. ``ModelError`` (one line) when there is none."""
    from tessera.learning.model import ModelError
    games = builtin_model_games() if game is None else [game]
    for name in games:
        found = _models_folder() / f"{name}.npz"
        if found.is_file():
            return found
    wanted = "" if game is None else f" for {game}"
    raise ModelError(MODEL_BUILTIN, f"no built-in value model{wanted}; give a model file or none")


def builtin_model_games():
    """The names of the games with a built-in model, sorted."""
    folder = _models_folder()
    if not folder.is_dir():
        return []
    return sorted(entry.name.removesuffix(".npz") for entry in folder.iterdir()
                  if entry.name.endswith(".npz"))


def _models_folder():
    """The built-in models' folder: package data, a folder of the installed package."""
    return resources.files("tessera.learning") / "models"
