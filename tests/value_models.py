"""Value model files written for tests: weights given directly, in the format of
`tessera train` (tessera.learning.model)."""
import numpy as np

from tessera.kernels.azul.features import FEATURE_NAMES, N_VALUE_FEATURES
from tessera.learning.model import ValueModel


def save_model(path, margin_weights, win_weights):
    """An Azul model of these weights, saved to ``path``; returns the ``ValueModel``."""
    model = ValueModel("azul", np.asarray(margin_weights, np.float64),
                       np.asarray(win_weights, np.float64), FEATURE_NAMES, [2])
    model.save(path)
    return model


def weights(**named):
    """Weights over Azul's features, zero but for ``named`` ({feature name: weight})."""
    out = np.zeros(N_VALUE_FEATURES)
    for name, weight in named.items():
        out[FEATURE_NAMES.index(name)] = weight
    return out
