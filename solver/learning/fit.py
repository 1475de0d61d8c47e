"""Fitting a linear value model, numpy only.

- the final margin: ridge regression (closed form);
- the win share: logistic regression with a ridge penalty, fitted by Newton's method
  (iteratively reweighted least squares), a tie's share taken as a fractional target.

Features are standardised before fitting, so one ridge strength suits features of any
scale, and the weights are turned back to the raw features afterwards: a model is applied
as ``weights @ features`` (the win share as the logistic of that), as the kernels apply it.
The constant feature (all ones) carries the intercept and is never penalised; a feature
that never varies in the training rows gets weight 0.

With hidden units, a one-layer perceptron beside the linear model (``fit_hidden``): each
unit a rectified linear function of the standardised features, its activation weighted
into the margin and into the logit, the two heads sharing the units. It starts from the
linear fits and is fitted to both heads' losses by Adam (Kingma and Ba 2015, "Adam: a
method for stochastic optimization") on minibatches, seeded, keeping the epoch whose loss
on a share of the training games held out for it is lowest (early stopping).

``evaluate`` gives the validation figures of a model beside two baselines fitted on the
same training rows: a constant (the mean margin, the mean win share), and a model of the
current score difference alone.
"""

from dataclasses import dataclass

import numpy as np

NEWTON_STEPS = 25
NEWTON_TOLERANCE = 1e-10
PROBABILITY_FLOOR = 1e-12  # keeps the log-loss finite for a confident miss


@dataclass
class Standardiser:
    """Column means and scales of the training features; ``constant`` the all-ones column's
    index (-1: none) and ``varying`` the columns that vary."""

    mean: np.ndarray
    scale: np.ndarray
    constant: int
    varying: np.ndarray

    @staticmethod
    def of(features):
        mean = features.mean(axis=0)
        scale = features.std(axis=0)
        ones = np.flatnonzero((scale == 0) & (mean == 1.0))
        varying = scale > 0
        return Standardiser(mean, np.where(varying, scale, 1.0), int(ones[0]) if len(ones) else -1, varying)

    def design(self, features):
        """The standardised varying columns, then a column of ones."""
        z = (features[:, self.varying] - self.mean[self.varying]) / self.scale[self.varying]
        return np.hstack([z, np.ones((len(features), 1))])

    def design_weights(self, raw):
        """The weights on ``design``'s columns equal to the raw-feature ``raw``: the inverse
        of ``raw_weights`` (a feature that never varies has no weight but the constant's)."""
        slopes = raw[self.varying] * self.scale[self.varying]
        return np.append(slopes, raw[self.constant] + slopes @ (self.mean[self.varying] / self.scale[self.varying]))

    def raw_weights(self, fitted):
        """Weights on the raw features equal to ``fitted`` on ``design``'s columns."""
        if self.constant < 0:
            raise ValueError("the features have no constant column to carry the intercept")
        slopes = fitted[:-1] / self.scale[self.varying]
        weights = np.zeros(len(self.mean))
        weights[self.varying] = slopes
        weights[self.constant] = fitted[-1] - slopes @ self.mean[self.varying]
        return weights


def _penalty(columns, ridge):
    """The ridge penalty on every column but the last (the intercept)."""
    penalty = np.full(columns, float(ridge))
    penalty[-1] = 0.0
    return np.diag(penalty)


def _solve(matrix, vector):
    """The least-squares solution of ``matrix @ x = vector``, the shortest of them when
    features repeat one another without a ridge to tell them apart (at a round boundary
    the score and the round-end score are the same)."""
    return np.linalg.lstsq(matrix, vector, rcond=None)[0]


def ridge_regression(features, targets, ridge):
    """Raw-feature weights minimising squared error plus ``ridge`` times the squared
    standardised weights (the number of rows scales the error, not the penalty)."""
    standard = Standardiser.of(features)
    x = standard.design(features)
    fitted = _solve(x.T @ x + _penalty(x.shape[1], ridge), x.T @ targets)
    return standard.raw_weights(fitted)


def sigmoid(z):
    return 0.5 * (1.0 + np.tanh(0.5 * z))  # no overflow for large |z|


def logistic_regression(features, targets, ridge):
    """Raw-feature weights of P(win) = sigmoid(weights @ features), minimising the
    cross-entropy with the targets (in [0, 1]) plus ``ridge`` / 2 times the squared
    standardised weights, by Newton steps."""
    standard = Standardiser.of(features)
    x = standard.design(features)
    penalty = _penalty(x.shape[1], ridge)
    fitted = np.zeros(x.shape[1])
    for _ in range(NEWTON_STEPS):
        p = sigmoid(x @ fitted)
        gradient = x.T @ (p - targets) + penalty @ fitted
        hessian = (x * (p * (1 - p))[:, None]).T @ x + penalty
        step = _solve(hessian, gradient)
        fitted -= step
        if np.abs(step).max() < NEWTON_TOLERANCE:
            break
    return standard.raw_weights(fitted)


def log_loss(probabilities, targets):
    p = np.clip(probabilities, PROBABILITY_FLOOR, 1 - PROBABILITY_FLOOR)
    return float(-np.mean(targets * np.log(p) + (1 - targets) * np.log(1 - p)))


def figures(margin_predicted, win_predicted, margin, win):
    """Validation figures of predictions against the labels."""
    return {
        "margin_mse": float(np.mean((margin_predicted - margin) ** 2)),
        "margin_mae": float(np.mean(np.abs(margin_predicted - margin))),
        "win_log_loss": log_loss(win_predicted, win),
        "win_brier": float(np.mean((win_predicted - win) ** 2)),
    }


@dataclass
class Fitted:
    """A fitted model's raw-feature weights: ``margin`` (points) and ``win`` (logit); with
    hidden units, ``hidden`` [units, features] and each unit's weight in the margin
    (``hidden_margin``) and in the logit (``hidden_win``)."""

    margin: np.ndarray
    win: np.ndarray
    hidden: np.ndarray | None = None
    hidden_margin: np.ndarray | None = None
    hidden_win: np.ndarray | None = None

    def predict(self, features):
        margin, logit = features @ self.margin, features @ self.win
        if self.hidden is not None:
            activation = np.maximum(features @ self.hidden.T, 0.0)
            margin = margin + activation @ self.hidden_margin
            logit = logit + activation @ self.hidden_win
        return margin, sigmoid(logit)


def fit(features, margin, win, ridge):
    return Fitted(ridge_regression(features, margin, ridge), logistic_regression(features, win, ridge))


# Training a value with hidden units (``fit_hidden``).
EPOCHS = 60
BATCH_ROWS = 256
LEARNING_RATE = 3e-3  # Adam's step, cosine-annealed to 0 over the epochs
WEIGHT_DECAY = 1e-4  # on the hidden units' weights
STOPPING_SHARE = 0.1  # of the training games, held out to pick the epoch
ADAM_BETAS = (0.9, 0.999)
ADAM_EPSILON = 1e-8


def fit_hidden(features, margin, win, games, units, ridge, seed):
    """A ``Fitted`` value with ``units`` hidden units beside its linear weights, fitted to
    the training rows (``games``: each row's game, to hold whole games out for early
    stopping). The loss is the margin's squared error over its variance plus the win
    share's cross-entropy, so neither head's scale rules; the linear weights start from
    ``fit``'s (``ridge``), the units from a seeded draw."""
    rng = np.random.default_rng(seed)
    standard = Standardiser.of(features)
    x = standard.design(features)
    linear = fit(features, margin, win, ridge)
    columns = x.shape[1]
    params = {
        "hidden": rng.normal(0.0, np.sqrt(2.0 / columns), (units, columns)),
        "hidden_margin": rng.normal(0.0, 0.01, units),
        "hidden_win": rng.normal(0.0, 0.01, units),
        "margin": standard.design_weights(linear.margin),
        "win": standard.design_weights(linear.win),
    }
    spread = max(float(margin.std()), 1e-9)
    every_game = np.unique(games)
    held = np.isin(games, rng.choice(every_game, max(1, int(len(every_game) * STOPPING_SHARE)), replace=False))
    training, stopping = np.flatnonzero(~held), np.flatnonzero(held)
    if len(training) == 0:
        training = stopping

    def forward(rows):
        pre = x[rows] @ params["hidden"].T
        activation = np.maximum(pre, 0.0)
        return (
            pre,
            activation,
            x[rows] @ params["margin"] + activation @ params["hidden_margin"],
            x[rows] @ params["win"] + activation @ params["hidden_win"],
        )

    def loss(rows):
        _, _, predicted, logit = forward(rows)
        return np.mean((predicted - margin[rows]) ** 2) / spread**2 + log_loss(sigmoid(logit), win[rows])

    first, second = ({name: np.zeros_like(value) for name, value in params.items()} for _ in range(2))
    best_loss, best = loss(stopping), {name: value.copy() for name, value in params.items()}
    step = 0
    for epoch in range(EPOCHS):
        rate = LEARNING_RATE * 0.5 * (1.0 + np.cos(np.pi * epoch / EPOCHS))
        order = rng.permutation(training)
        for start in range(0, len(order), BATCH_ROWS):
            rows = order[start : start + BATCH_ROWS]
            pre, activation, predicted, logit = forward(rows)
            d_margin = 2.0 * (predicted - margin[rows]) / (spread**2 * len(rows))
            d_logit = (sigmoid(logit) - win[rows]) / len(rows)
            d_pre = (np.outer(d_margin, params["hidden_margin"]) + np.outer(d_logit, params["hidden_win"])) * (
                pre > 0.0
            )
            gradients = {
                "hidden": d_pre.T @ x[rows] + WEIGHT_DECAY * params["hidden"],
                "hidden_margin": activation.T @ d_margin + WEIGHT_DECAY * params["hidden_margin"],
                "hidden_win": activation.T @ d_logit + WEIGHT_DECAY * params["hidden_win"],
                "margin": x[rows].T @ d_margin,
                "win": x[rows].T @ d_logit,
            }
            step += 1
            for name, gradient in gradients.items():
                first[name] = ADAM_BETAS[0] * first[name] + (1 - ADAM_BETAS[0]) * gradient
                second[name] = ADAM_BETAS[1] * second[name] + (1 - ADAM_BETAS[1]) * gradient**2
                params[name] -= (
                    rate
                    * (first[name] / (1 - ADAM_BETAS[0] ** step))
                    / (np.sqrt(second[name] / (1 - ADAM_BETAS[1] ** step)) + ADAM_EPSILON)
                )
        epoch_loss = loss(stopping)
        if epoch_loss < best_loss:
            best_loss, best = epoch_loss, {name: value.copy() for name, value in params.items()}
    return Fitted(
        standard.raw_weights(best["margin"]),
        standard.raw_weights(best["win"]),
        np.array([standard.raw_weights(row) for row in best["hidden"]]),
        best["hidden_margin"],
        best["hidden_win"],
    )


def baselines(train, columns, ridge):
    """The baseline models on the training rows: ``constant`` (the mean margin and win
    share) and ``score_difference`` (the same fits on the constant and the score
    difference alone). ``columns``: the feature indices of the constant and the score
    difference."""
    constant_column, score_column = columns
    keep = np.zeros(train.features.shape[1], bool)
    keep[[constant_column, score_column]] = True
    mean_win = np.clip(train.win.mean(), PROBABILITY_FLOOR, 1 - PROBABILITY_FLOOR)
    constant = Fitted(np.zeros(len(keep)), np.zeros(len(keep)))
    constant.margin[constant_column] = train.margin.mean()
    constant.win[constant_column] = np.log(mean_win / (1 - mean_win))
    masked = np.where(keep, train.features, 0.0)
    score = fit(masked, train.margin, train.win, ridge)
    return {"constant": constant, "score_difference": score}


def evaluate(model, baseline_models, validation):
    """{name: figures} on the validation rows for the model and each baseline."""
    report = {"model": figures(*model.predict(validation.features), validation.margin, validation.win)}
    for name, baseline in baseline_models.items():
        report[name] = figures(*baseline.predict(validation.features), validation.margin, validation.win)
    return report


# ---- the policy: a softmax over each position's moves ------------------------------------


def group_softmax(logits, start):
    """The softmax of ``logits`` within each position (rows ``start[k]`` to ``start[k + 1]``)."""
    counts = np.diff(start)
    top = np.maximum.reduceat(logits, start[:-1])
    weights = np.exp(logits - np.repeat(top, counts))
    return weights / np.repeat(np.add.reduceat(weights, start[:-1]), counts)


@dataclass
class PolicyStandardiser:
    """Column means and scales of the training moves' features; ``varying`` the columns
    that vary (the others get weight 0). No intercept: a softmax ignores what all the
    moves of a position share."""

    mean: np.ndarray
    scale: np.ndarray
    varying: np.ndarray

    @staticmethod
    def of(features):
        scale = features.std(axis=0)
        varying = scale > 0
        return PolicyStandardiser(features.mean(axis=0), np.where(varying, scale, 1.0), varying)

    def design(self, features):
        return (features[:, self.varying] - self.mean[self.varying]) / self.scale[self.varying]

    def raw_weights(self, fitted):
        """Weights on the raw features giving every position the same softmax as ``fitted``
        on ``design``'s columns (the means shift all of a position's logits alike)."""
        weights = np.zeros(len(self.mean))
        weights[self.varying] = fitted / self.scale[self.varying]
        return weights


def policy_loss(x, start, target, fitted, ridge):
    """The soft-target cross-entropy summed over the positions, plus ``ridge`` / 2 times the
    squared weights, and the probabilities."""
    p = group_softmax(x @ fitted, start)
    loss = -np.sum(target * np.log(np.maximum(p, PROBABILITY_FLOOR)))
    return loss + 0.5 * ridge * fitted @ fitted, p


def policy_regression(features, start, target, ridge):
    """Raw-feature weights of the policy softmax(weights @ features) over each position's
    moves, minimising the cross-entropy with the visit shares ``target`` plus ``ridge`` / 2
    times the squared standardised weights, by Newton steps with a backtracking line
    search (the loss is convex: the steps go to its one minimum)."""
    standard = PolicyStandardiser.of(features)
    x = standard.design(features)
    columns = x.shape[1]
    fitted = np.zeros(columns)
    if columns == 0:
        return standard.raw_weights(fitted)
    loss, p = policy_loss(x, start, target, fitted, ridge)
    for _ in range(NEWTON_STEPS):
        gradient = x.T @ (p - target) + ridge * fitted
        weighted = x * p[:, None]
        mean_rows = np.add.reduceat(weighted, start[:-1], axis=0)  # per position: sum p x
        hessian = x.T @ weighted - mean_rows.T @ mean_rows + ridge * np.eye(columns)
        step = _solve(hessian, gradient)
        size = 1.0
        while True:
            trial = fitted - size * step
            trial_loss, trial_p = policy_loss(x, start, target, trial, ridge)
            if trial_loss <= loss or size < 1e-6:
                break
            size *= 0.5
        fitted, loss, p = trial, trial_loss, trial_p
        if np.abs(size * step).max() < NEWTON_TOLERANCE:
            break
    return standard.raw_weights(fitted)


def policy_figures(probabilities, data):
    """Validation figures of a policy's ``probabilities`` over the moves of ``data`` (a
    ``dataset.PolicyDataset``): ``cross_entropy`` (mean over the positions, in nats, against
    the visit shares) and ``top1`` (the share of the positions whose most visited move the
    policy ranks first; a tie for first counts its share)."""
    start, counts = data.start, data.counts
    cross = -np.add.reduceat(data.target * np.log(np.maximum(probabilities, PROBABILITY_FLOOR)), start[:-1])
    top = np.repeat(np.maximum.reduceat(probabilities, start[:-1]), counts)
    first = probabilities >= top
    tied = np.add.reduceat(first.astype(np.float64), start[:-1])
    agree = first[data.best] / tied
    return {"cross_entropy": float(cross.mean()), "top1": float(agree.mean())}


def heuristic_policy(names, temperature):
    """The policy equal to MCTS's heuristic priors: weight 1 / ``temperature`` on the
    ``heuristic`` feature, 0 elsewhere (``names``: the move features' names)."""
    weights = np.zeros(len(names))
    weights[list(names).index("heuristic")] = 1.0 / temperature
    return weights


def evaluate_policy(weights, baselines, validation):
    """{name: figures} on the validation positions for the policy ``weights`` and each
    baseline's ({name: weights})."""
    report = {}
    for name, w in {"model": weights, **baselines}.items():
        report[name] = policy_figures(group_softmax(validation.features @ w, validation.start), validation)
    return report
