"""The statistics of a batch of games: pure functions of the outcomes, checked by hand.

Definitions (docs/selfplay.md, "Statistics"):

- An agent's result in a game: its share of the payoff (summed over its seats,
  winners share 1) is 1: a win; 0: a loss; between: a draw. Only games with at
  least two different agents count.
- Pairwise results, for Elo: every two seats held by different agents are one
  game between those agents. The seat with the higher payoff wins; two seats that
  share the win draw; between two seats without a win, the higher score wins and
  equal scores draw. A two-player game is one pairwise result.
- Elo: the Bradley–Terry model, P(i beats j) = g_i / (g_i + g_j), a draw counting
  half a win to each side, fitted by maximum likelihood (Newton's method on the
  concave log-likelihood). Elo = 400 log10 g, centred so the agents average 0.
  The 95% intervals come from the observed Fisher information (its
  pseudo-inverse, as the ratings are fixed only up to a common shift). When some
  group of agents scored nothing against the rest, the likelihood has no maximum
  (a rating runs off to infinity); then one virtual draw is added to every
  pairing that met, and the report says so.
- Score margin: the agent's best seat score less the best score of any seat held
  by another agent; mean ± 1.96 standard errors.
- Seats: a seat's win share is the mean payoff of whoever sat there (a shared win
  counts its share); its advantage is that less the fair share 1/seats.
"""

import math
from dataclasses import dataclass

import numpy as np

Z95 = 1.959963984540054
ELO_PER_NATURAL_UNIT = 400 / math.log(10)
TOLERANCE = 1e-9
NEWTON_TOLERANCE = 1e-12
NEWTON_MAX_STEPS = 200
LENGTH_QUANTILES = {"p10": 0.10, "p25": 0.25, "median": 0.50, "p75": 0.75, "p90": 0.90}


@dataclass
class Outcomes:
    """One row per game: ``seats`` (agent index per seat), ``scores``, ``payoffs``
    [games, seats], and ``lengths`` (player moves) [games]."""

    seats: np.ndarray
    scores: np.ndarray
    payoffs: np.ndarray
    lengths: np.ndarray

    @staticmethod
    def concatenate(parts, seats):
        """The outcomes of ``parts`` one after another (none: no games of ``seats`` seats)."""
        if not parts:
            return Outcomes(
                np.zeros((0, seats), np.int64),
                np.zeros((0, seats), np.int64),
                np.zeros((0, seats), np.float64),
                np.zeros(0, np.int64),
            )
        return Outcomes(
            *(
                np.concatenate([getattr(part, name) for part in parts])
                for name in ("seats", "scores", "payoffs", "lengths")
            )
        )

    @property
    def games(self):
        return len(self.lengths)


# ---- intervals ----------------------------------------------------------------------


def wilson(successes, trials, z=Z95):
    """The Wilson score interval (lo, hi) of a proportion; None without trials."""
    if trials == 0:
        return None
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z / denominator * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials))
    return max(0.0, centre - half), min(1.0, centre + half)


def mean_interval(values, z=Z95):
    """(mean, half-width of its normal 95% interval); the half-width is None below 2 values."""
    values = np.asarray(values, np.float64)
    if len(values) == 0:
        return None, None
    mean = float(values.mean())
    if len(values) < 2:
        return mean, None
    return mean, float(z * values.std(ddof=1) / math.sqrt(len(values)))


# ---- results per agent ---------------------------------------------------------------


def _agent_masks(outcomes, agents):
    """present [games, agents]: the agent holds a seat; contested [games]: two agents or more."""
    present = np.stack([(outcomes.seats == a).any(axis=1) for a in range(agents)], axis=1)
    return present, present.sum(axis=1) >= 2


def agent_results(outcomes, agents):
    """(wins, draws, losses): arrays over agents, from the contested games."""
    present, contested = _agent_masks(outcomes, agents)
    wins, draws, losses = (np.zeros(agents, np.int64) for _ in range(3))
    for a in range(agents):
        share = np.where(outcomes.seats == a, outcomes.payoffs, 0.0).sum(axis=1)
        played = present[:, a] & contested
        won = np.abs(share - 1) <= TOLERANCE
        lost = np.abs(share) <= TOLERANCE
        wins[a] = np.sum(played & won)
        losses[a] = np.sum(played & lost)
        draws[a] = np.sum(played & ~won & ~lost)
    return wins, draws, losses


def margins(outcomes, agents):
    """Per agent, the margins of its contested games (see the module docstring)."""
    present, contested = _agent_masks(outcomes, agents)
    result = []
    for a in range(agents):
        mine = outcomes.seats == a
        best_own = np.where(mine, outcomes.scores, np.iinfo(np.int64).min).max(axis=1)
        best_other = np.where(mine, np.iinfo(np.int64).min, outcomes.scores).max(axis=1)
        played = present[:, a] & contested
        result.append((best_own - best_other)[played])
    return result


# ---- pairwise results and Elo --------------------------------------------------------


def pairwise_results(outcomes, agents):
    """(wins, draws) [agents, agents]: ``wins[i, j]`` games i won against j; ``draws`` is
    symmetric. Every two seats held by different agents count once."""
    wins = np.zeros((agents, agents), np.int64)
    draws = np.zeros((agents, agents), np.int64)
    seats = outcomes.seats.shape[1]
    for s in range(seats):
        for t in range(s + 1, seats):
            a, b = outcomes.seats[:, s], outcomes.seats[:, t]
            first = _finishes_ahead(outcomes, s, t)
            second = _finishes_ahead(outcomes, t, s)
            met = a != b
            np.add.at(wins, (a[met & first], b[met & first]), 1)
            np.add.at(wins, (b[met & second], a[met & second]), 1)
            tied = met & ~first & ~second
            np.add.at(draws, (a[tied], b[tied]), 1)
            np.add.at(draws, (b[tied], a[tied]), 1)
    return wins, draws


def _finishes_ahead(outcomes, s, t):
    """Games where seat ``s`` finished ahead of seat ``t``: a higher payoff, or neither won
    and ``s`` scored more."""
    ps, pt = outcomes.payoffs[:, s], outcomes.payoffs[:, t]
    neither_won = (np.abs(ps) <= TOLERANCE) & (np.abs(pt) <= TOLERANCE)
    return (ps > pt + TOLERANCE) | (neither_won & (outcomes.scores[:, s] > outcomes.scores[:, t]))


@dataclass
class RatingFit:
    """Bradley–Terry strengths on the natural-log scale, centred; None for agents that
    played no pairwise game. ``covariance`` is that of ``theta``."""

    theta: list
    covariance: np.ndarray
    prior_draws: float

    def elo(self, i):
        return None if self.theta[i] is None else ELO_PER_NATURAL_UNIT * self.theta[i]

    def elo_interval(self, i):
        """Half-width of the 95% interval of agent ``i``'s Elo."""
        if self.theta[i] is None:
            return None
        return Z95 * ELO_PER_NATURAL_UNIT * math.sqrt(max(self.covariance[i, i], 0.0))

    def difference(self, i, j):
        """(Elo of i less Elo of j, half-width of its 95% interval)."""
        if self.theta[i] is None or self.theta[j] is None:
            return None, None
        c = self.covariance
        variance = max(c[i, i] + c[j, j] - 2 * c[i, j], 0.0)
        return (
            ELO_PER_NATURAL_UNIT * (self.theta[i] - self.theta[j]),
            Z95 * ELO_PER_NATURAL_UNIT * math.sqrt(variance),
        )


def bradley_terry(wins, draws, prior_draws=None):
    """The maximum-likelihood fit of ``wins`` and ``draws`` (from ``pairwise_results``).

    ``prior_draws`` virtual draws are added to each pairing that met; by default
    none when the maximum exists and one when it does not (module docstring).
    """
    wins = np.asarray(wins, np.float64)
    draws = np.asarray(draws, np.float64)
    met = (wins + wins.T + draws) > 0
    if prior_draws is None:
        prior_draws = 0.0 if _has_maximum(wins + draws, met) else 1.0
    score = wins + (draws + prior_draws * met) / 2  # i's points against j
    played = score + score.T
    rated = played.sum(axis=1) > 0
    index = np.flatnonzero(rated)
    covariance = np.zeros_like(played)
    full = [None] * len(rated)
    if len(index) == 0:
        return RatingFit(full, covariance, float(prior_draws))
    theta = _fit(score[np.ix_(index, index)], played[np.ix_(index, index)])
    information = _information(theta, played[np.ix_(index, index)])
    covariance[np.ix_(index, index)] = np.linalg.pinv(information)
    for position, agent in enumerate(index):
        full[agent] = float(theta[position])
    return RatingFit(full, covariance, float(prior_draws))


def _has_maximum(points, met):
    """True when every agent can reach every other through 'scored against' links among
    the agents that met anyone: no group scored nothing against the rest."""
    active = np.flatnonzero(met.any(axis=1))
    reach = (points[np.ix_(active, active)] > 0) | np.eye(len(active), dtype=bool)
    for middle in range(len(active)):
        reach |= reach[:, [middle]] & reach[[middle], :]
    return bool(reach.all())


def _fit(score, played):
    """Newton's method on the log-likelihood (concave), halving a step that does not climb."""
    theta = np.zeros(len(score))
    likelihood = _log_likelihood(theta, score)
    for _ in range(NEWTON_MAX_STEPS):
        p = 1 / (1 + np.exp(theta[None, :] - theta[:, None]))
        gradient = (score - played * p).sum(axis=1)
        step = np.linalg.pinv(_information(theta, played)) @ gradient
        while True:
            trial = theta + step
            trial_likelihood = _log_likelihood(trial, score)
            if trial_likelihood >= likelihood or np.max(np.abs(step)) < NEWTON_TOLERANCE:
                break
            step /= 2
        theta, likelihood = trial - trial.mean(), trial_likelihood
        if np.max(np.abs(step)) < NEWTON_TOLERANCE:
            break
    return theta


def _log_likelihood(theta, score):
    return float(-(score * np.log1p(np.exp(theta[None, :] - theta[:, None]))).sum())


def _information(theta, played):
    """The observed Fisher information of the log-strengths (minus the Hessian)."""
    p = 1 / (1 + np.exp(theta[None, :] - theta[:, None]))  # P(i beats j)
    weight = played * p * p.T
    np.fill_diagonal(weight, 0.0)
    return np.diag(weight.sum(axis=1)) - weight


# ---- seats and lengths ---------------------------------------------------------------


def seat_results(outcomes):
    """Per seat: games, win share, its Wilson interval, advantage over 1/seats, mean score."""
    games, seats = outcomes.payoffs.shape
    rows = []
    for s in range(seats):
        share_sum = float(outcomes.payoffs[:, s].sum())
        rows.append(
            {
                "seat": s + 1,
                "games": games,
                "win_share": share_sum / games if games else None,
                "interval": wilson(share_sum, games),
                "advantage": share_sum / games - 1 / seats if games else None,
                "mean_score": float(outcomes.scores[:, s].mean()) if games else None,
            }
        )
    return rows


def seat_agent_shares(outcomes, agents):
    """[agents][seats]: the mean payoff of the agent at that seat (None where it never sat)."""
    table = []
    for a in range(agents):
        row = []
        for s in range(outcomes.seats.shape[1]):
            sat = outcomes.seats[:, s] == a
            row.append(float(outcomes.payoffs[sat, s].mean()) if sat.any() else None)
        table.append(row)
    return table


def length_summary(lengths):
    lengths = np.asarray(lengths)
    if len(lengths) == 0:
        return None
    summary = {"mean": float(lengths.mean()), "min": int(lengths.min())}
    summary.update({name: float(np.quantile(lengths, q)) for name, q in LENGTH_QUANTILES.items()})
    summary["max"] = int(lengths.max())
    return summary


def pairings(wins, draws, labels):
    """The pairwise results of each two agents that met, first-listed agent first."""
    rows = []
    for i in range(len(labels)):
        for j in range(i + 1, len(labels)):
            games = int(wins[i, j] + wins[j, i] + draws[i, j])
            if games:
                rows.append(
                    {
                        "agent": labels[i],
                        "opponent": labels[j],
                        "wins": int(wins[i, j]),
                        "losses": int(wins[j, i]),
                        "draws": int(draws[i, j]),
                        "games": games,
                        "score": (wins[i, j] + draws[i, j] / 2) / games,
                    }
                )
    return rows


# ---- everything ----------------------------------------------------------------------


def summarize(outcomes, labels):
    """The statistics of ``outcomes`` as a JSON-ready dict (the report and summary.json)."""
    agents = len(labels)
    wins, draws, losses = agent_results(outcomes, agents)
    pair_wins, pair_draws = pairwise_results(outcomes, agents)
    fit = bradley_terry(pair_wins, pair_draws)
    margin_lists = margins(outcomes, agents)
    table = []
    for a, label in enumerate(labels):
        played = int(wins[a] + draws[a] + losses[a])
        margin, margin_half = mean_interval(margin_lists[a])
        table.append(
            {
                "agent": label,
                "games": played,
                "wins": int(wins[a]),
                "draws": int(draws[a]),
                "losses": int(losses[a]),
                "win_interval": wilson(int(wins[a]), played),
                "draw_interval": wilson(int(draws[a]), played),
                "loss_interval": wilson(int(losses[a]), played),
                "score": (wins[a] + draws[a] / 2) / played if played else None,
                "elo": fit.elo(a),
                "elo_interval": fit.elo_interval(a),
                "margin": margin,
                "margin_interval": margin_half,
            }
        )
    report = {
        "games": outcomes.games,
        "seats": outcomes.seats.shape[1],
        "agents": list(labels),
        "agent_results": table,
        "elo_prior_draws": fit.prior_draws,
        "pairings": pairings(pair_wins, pair_draws, labels),
        "seat_results": seat_results(outcomes),
        "seat_agent_shares": seat_agent_shares(outcomes, agents),
        "lengths": length_summary(outcomes.lengths),
        "head_to_head": None,
    }
    if agents == 2 and table[0]["games"]:
        difference, half = fit.difference(0, 1)
        report["head_to_head"] = {
            "agent": labels[0],
            "opponent": labels[1],
            "wins": int(wins[0]),
            "losses": int(losses[0]),
            "draws": int(draws[0]),
            "games": table[0]["games"],
            "score": table[0]["score"],
            "elo_difference": difference,
            "elo_interval": half,
        }
    return report
