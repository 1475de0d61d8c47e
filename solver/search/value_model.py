"""The learned value an MCTS search scores its round rollouts with (``--model``): a model
file of ``tessera train`` (``tessera.learning.model``) as the array the kernels take
(``run_tree``'s ``model``: rows ``MODEL_MARGIN`` and ``MODEL_WIN`` of
``tessera.kernels.search.mcts_layout``), and its hash for the search's settings.

A file is read once a process while it stays the same (its size and modification time).
"""
import functools
import os

import numpy as np

from tessera.kernels.search.mcts_layout import MODEL_MARGIN, MODEL_ROWS, MODEL_WIN

# What the kernels take for no model: no rows.
NO_MODEL = np.zeros((0, 0), np.float64)


def model_weights(path, game=None):
    """``(weights, hash)`` of the value model in ``path``: ``weights`` the kernels' float64
    array, ``hash`` the model's SHA-256. ``ModelError`` (one line) for a file that is not a
    model, or a model of another game than ``game`` (a name; None: any)."""
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
