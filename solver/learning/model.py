"""The value model file: a ``.npz`` of plain arrays (no pickles).

- ``margin_weights`` and ``win_weights``: float64 [N_VALUE_FEATURES], the raw-feature
  weights of the final margin (points) and of the win share's logit;
- ``feature_names``: the names of the features the weights go with, in order;
- ``meta``: one JSON text: ``format``, ``game``, ``features`` (their count),
  ``players`` (the player counts of the training games), ``settings`` (the training
  command's), ``data`` (games and rows) and ``validation`` (the figures of ``fit.evaluate``);
- ``hash``: the SHA-256 of the weights (``weights_hash``), checked on loading, so a model
  is named by its hash wherever it is used.

A model with a policy (move priors for MCTS's PUCT) has two more arrays:
``policy_weights`` (float64 [N_POLICY_FEATURES], a move's logit) and
``policy_feature_names``; its ``meta`` has ``policy`` (the features' count, the data's
size and the validation figures of ``fit.evaluate_policy``) and its hash covers the
policy's weights too. A model without them (every file before policies) has no policy.

A value with hidden units (``tessera train --hidden N``) adds a one-layer perceptron
beside the linear weights: ``hidden_weights`` (float64 [N, N_VALUE_FEATURES], each
unit's raw-feature weights, the constant feature carrying its bias), ``hidden_margin``
and ``hidden_win`` (float64 [N], each unit's weight in the margin and in the logit). The
margin is then ``margin_weights @ f + hidden_margin @ relu(hidden_weights @ f)``, the
logit likewise; its ``meta`` has ``hidden`` (N) and its hash covers the three arrays,
after the policy's weights. A model without them is linear.
"""

import hashlib
import json
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from tessera.errors import TesseraError
from tessera.learning.features import features_of
from tessera.learning.fit import Fitted

FORMAT = 1
ARRAYS = ("margin_weights", "win_weights", "feature_names", "meta", "hash")
POLICY_ARRAYS = ("policy_weights", "policy_feature_names")
HIDDEN_ARRAYS = ("hidden_weights", "hidden_margin", "hidden_win")


class ModelError(TesseraError):
    """A model file that is missing, damaged or not for what it is asked for."""

    def __init__(self, path, message):
        super().__init__(f"model {path}: {message}")


def weights_hash(margin_weights, win_weights, policy_weights=None, hidden=None):
    """The SHA-256 (hex) of the weights as little-endian float64: margin, win, then the
    policy's when there is one, then the hidden units' (``hidden``: the arrays
    ``hidden_weights``, ``hidden_margin`` and ``hidden_win``, row by row) when there are."""
    digest = hashlib.sha256()
    vectors = (
        (margin_weights, win_weights)
        + (() if policy_weights is None else (policy_weights,))
        + (() if hidden is None else tuple(hidden))
    )
    for weights in vectors:
        digest.update(np.ascontiguousarray(weights, dtype="<f8").tobytes())
    return digest.hexdigest()


@dataclass
class ValueModel:
    game: str
    margin_weights: np.ndarray
    win_weights: np.ndarray
    feature_names: tuple
    players: list
    settings: dict = field(default_factory=dict)
    data: dict = field(default_factory=dict)
    validation: dict = field(default_factory=dict)
    policy_weights: np.ndarray | None = None  # None: no policy
    policy_feature_names: tuple = ()
    policy: dict = field(default_factory=dict)  # the policy's data and validation figures
    hidden_weights: np.ndarray | None = None  # None: a linear value
    hidden_margin: np.ndarray | None = None
    hidden_win: np.ndarray | None = None

    @property
    def hash(self):
        return weights_hash(self.margin_weights, self.win_weights, self.policy_weights, self._hidden_arrays())

    @property
    def hidden(self):
        """The value's hidden units (0: linear)."""
        return 0 if self.hidden_weights is None else len(self.hidden_weights)

    def _hidden_arrays(self):
        if self.hidden_weights is None:
            return None
        return (self.hidden_weights, self.hidden_margin, self.hidden_win)

    def predict(self, features):
        """(margins, win chances) of the rows of raw ``features``, as the kernels compute
        them (before a search divides the chances by their sum)."""
        return Fitted(
            self.margin_weights, self.win_weights, self.hidden_weights, self.hidden_margin, self.hidden_win
        ).predict(features)

    @property
    def features(self):
        return len(self.margin_weights)

    @property
    def has_policy(self):
        return self.policy_weights is not None

    def meta(self):
        meta = {
            "format": FORMAT,
            "game": self.game,
            "features": self.features,
            "players": list(self.players),
            "settings": self.settings,
            "data": self.data,
            "validation": self.validation,
        }
        if self.has_policy:
            meta["policy"] = {"features": len(self.policy_weights), **self.policy}
        if self.hidden:
            meta["hidden"] = self.hidden
        return meta

    def save(self, path):
        """Write the model to ``path`` (``.npz``), whole: a temporary file renamed."""
        path = Path(path)
        partial = path.with_name(path.name + ".partial")
        try:
            with open(partial, "wb") as out:
                extra = (
                    {}
                    if not self.has_policy
                    else {
                        "policy_weights": np.asarray(self.policy_weights, np.float64),
                        "policy_feature_names": np.array(self.policy_feature_names, dtype=str),
                    }
                )
                if self.hidden:
                    extra.update(
                        {
                            name: np.asarray(array, np.float64)
                            for name, array in zip(HIDDEN_ARRAYS, self._hidden_arrays())
                        }
                    )
                np.savez(
                    out,
                    margin_weights=np.asarray(self.margin_weights, np.float64),
                    win_weights=np.asarray(self.win_weights, np.float64),
                    feature_names=np.array(self.feature_names, dtype=str),
                    meta=np.array(json.dumps(self.meta())),
                    hash=np.array(self.hash),
                    **extra,
                )
            partial.replace(path)
        except OSError as err:
            partial.unlink(missing_ok=True)
            raise TesseraError(f"cannot write the model to {path}: {err.strerror}") from None


def load_model(path, game=None):
    """The ``ValueModel`` in ``path``; ``ModelError`` (one line) when the file is missing,
    is not a model file, is damaged (its weights do not match their hash), is for another
    game than ``game`` (when given) or for other features (value or move features) than
    the game's kernels have."""
    path = Path(path)
    if not path.is_file():
        raise ModelError(path, "no such file")
    try:
        with np.load(path, allow_pickle=False) as arrays:
            missing = [name for name in ARRAYS if name not in arrays.files]
            if missing:
                raise ModelError(path, "not a value model file (no " + ", ".join(missing) + ")")
            margin = np.asarray(arrays["margin_weights"], np.float64)
            win = np.asarray(arrays["win_weights"], np.float64)
            names = tuple(str(name) for name in arrays["feature_names"])
            meta = json.loads(str(arrays["meta"]))
            stored_hash = str(arrays["hash"])
            policy, policy_names = None, ()
            if any(name in arrays.files for name in POLICY_ARRAYS):
                missing = [name for name in POLICY_ARRAYS if name not in arrays.files]
                if missing:
                    raise ModelError(path, "not a value model file (a policy without " + ", ".join(missing) + ")")
                policy = np.asarray(arrays["policy_weights"], np.float64)
                policy_names = tuple(str(name) for name in arrays["policy_feature_names"])
            hidden = None
            if any(name in arrays.files for name in HIDDEN_ARRAYS):
                missing = [name for name in HIDDEN_ARRAYS if name not in arrays.files]
                if missing:
                    raise ModelError(path, "not a value model file (hidden units without " + ", ".join(missing) + ")")
                hidden = tuple(np.asarray(arrays[name], np.float64) for name in HIDDEN_ARRAYS)
    except ModelError:
        raise
    except (OSError, ValueError, zipfile.BadZipFile, EOFError, KeyError) as err:
        raise ModelError(path, f"not a value model file ({' '.join(str(err).split())})") from None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT or not isinstance(meta.get("game"), str):
        raise ModelError(path, f"not a value model file of format {FORMAT}")
    if weights_hash(margin, win, policy, hidden) != stored_hash:
        raise ModelError(path, "damaged: its weights do not match their SHA-256")
    if game is not None and meta.get("game") != game:
        raise ModelError(path, f"a model of {meta.get('game')}, not {game}")
    try:
        game_features = features_of(meta.get("game"))
        kernel = game_features.kernel()
    except TesseraError as err:
        raise ModelError(path, str(err)) from None
    expected = tuple(kernel.FEATURE_NAMES)
    if margin.shape != (len(expected),) or win.shape != margin.shape or names != expected:
        raise ModelError(path, f"made for other features than {meta['game']}'s {len(expected)} (retrain it)")
    if hidden is not None:
        units = len(hidden[0])
        if hidden[0].shape != (units, len(expected)) or hidden[1].shape != (units,) or hidden[2].shape != (units,):
            raise ModelError(path, f"hidden units of other shapes than {units} x {len(expected)} features (retrain it)")
    if policy is not None:
        moves = game_features.policy_kernel()
        if moves is None:
            raise ModelError(path, f"has a policy, but {meta['game']} has no move features")
        expected = tuple(moves.POLICY_FEATURE_NAMES)
        if policy.shape != (len(expected),) or policy_names != expected:
            raise ModelError(path, f"made for other move features than {meta['game']}'s {len(expected)} (retrain it)")
    policy_meta = {key: value for key, value in meta.get("policy", {}).items() if key != "features"}
    return ValueModel(
        meta["game"],
        margin,
        win,
        names,
        meta.get("players", []),
        meta.get("settings", {}),
        meta.get("data", {}),
        meta.get("validation", {}),
        policy,
        policy_names,
        policy_meta,
        *(hidden or (None, None, None)),
    )
