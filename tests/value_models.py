"""Value model files written for tests: weights given directly, in the format of
`tessera train` (tessera.learning.model)."""

import numpy as np

from tessera.kernels.azul.features import FEATURE_NAMES, N_VALUE_FEATURES
from tessera.kernels.azul.policy import N_POLICY_FEATURES, POLICY_FEATURE_NAMES, move_features
from tessera.learning.model import ValueModel


def save_model(path, margin_weights, win_weights):
    """An Azul model of these weights, saved to ``path``; returns the ``ValueModel``."""
    model = ValueModel(
        "azul", np.asarray(margin_weights, np.float64), np.asarray(win_weights, np.float64), FEATURE_NAMES, [2]
    )
    model.save(path)
    return model


def weights(**named):
    """Weights over Azul's features, zero but for ``named`` ({feature name: weight})."""
    out = np.zeros(N_VALUE_FEATURES)
    for name, weight in named.items():
        out[FEATURE_NAMES.index(name)] = weight
    return out


def save_policy_model(path, policy):
    """An Azul model with zero value weights and the policy ``policy``; returns it."""
    model = ValueModel(
        "azul",
        np.zeros(N_VALUE_FEATURES),
        np.zeros(N_VALUE_FEATURES),
        FEATURE_NAMES,
        [2],
        policy_weights=np.asarray(policy, np.float64),
        policy_feature_names=POLICY_FEATURE_NAMES,
        policy={"data": {"positions": 1}},
    )
    model.save(path)
    return model


def policy_priors(state, moves, policy):
    """The priors a policy gives the Azul ``moves`` of ``state``, worked out in numpy: the
    softmax of their move features dotted with ``policy``."""
    moves = np.asarray(moves, np.int64)
    rows = np.zeros((len(moves), N_POLICY_FEATURES))
    move_features(state, moves, np.int64(len(moves)), rows)
    logits = rows @ policy
    return np.exp(logits - logits.max()) / np.exp(logits - logits.max()).sum()
