"""Self-play runs replayed into training rows for a value model.

Each recorded game is replayed from its seed (``Position.new`` and ``ChanceDraws``, as the
run dealt it). At every round boundary (``features.LEARNABLE``: Azul's positions where
chance acts after a player's move, i.e. after a round's scoring and before the next refill)
each player gets one row: the features of the position from that player's side, the
player's final margin (final score less the best final score of the other players) and
win share (the game's payoff: 1, 0, or a share of a tie).

Games, never rows, are split into training and validation: the rows of one game are alike,
and a game on both sides would flatter the validation figures.
"""
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from tessera.errors import TesseraError
from tessera.learning.features import features_of
from tessera.position import ChanceDraws, Position
from tessera.selfplay.records import read_records
from tessera.selfplay.rundir import load_plan

RECORD_COLUMNS = ["seed", "moves", "scores", "payoffs"]


@dataclass
class Dataset:
    """Rows of one game: ``features`` [rows, N_VALUE_FEATURES]; ``margin`` and ``win`` [rows]
    the labels; ``game`` [rows] the index of the row's game among all replayed games;
    ``players`` [rows] that game's player count; ``games``: how many games were replayed."""
    game_name: str
    features: np.ndarray
    margin: np.ndarray
    win: np.ndarray
    game: np.ndarray
    players: np.ndarray
    games: int

    @property
    def rows(self):
        return len(self.margin)

    def subset(self, mask):
        return Dataset(self.game_name, self.features[mask], self.margin[mask], self.win[mask],
                       self.game[mask], self.players[mask], self.games)

    def split(self, validation, seed):
        """(training, validation): a share ``validation`` of the games, drawn with ``seed``,
        go to validation with all their rows."""
        if not 0 < validation < 1:
            raise TesseraError(f"the validation share is between 0 and 1 (exclusive), "
                               f"not {validation}")
        order = np.random.default_rng(seed).permutation(self.games)
        held = np.zeros(self.games, bool)
        held[order[:max(1, round(validation * self.games))]] = True
        if held.all():
            raise TesseraError(f"{self.games} game(s) are too few to keep a validation share "
                               f"of {validation} apart")
        mask = held[self.game]
        if mask.all() or not mask.any():
            raise TesseraError(f"{self.games} game(s) are too few to keep a validation share "
                               f"of {validation} apart (one side has no round boundary)")
        return self.subset(~mask), self.subset(mask)


def final_margins(scores):
    """Each player's final score less the best final score of the others."""
    scores = np.asarray(scores, np.float64)
    margins = np.empty_like(scores)
    for p in range(len(scores)):
        margins[p] = scores[p] - np.delete(scores, p).max()
    return margins


def boundary_positions(game_name, options, seed, moves):
    """The round-boundary positions of one recorded game, in order, and its final position."""
    position = Position.new(game_name, seed=seed, **options)
    draws = ChanceDraws(seed)
    boundaries = []
    for move in moves:
        position = position.play_codes(int(move))
        if position.is_chance:
            boundaries.append(position)
        position = draws.deal(position)
    return boundaries, position


def game_rows(game_name, options, seed, moves, scores, payoffs, kernel):
    """(features, margins, wins) of one recorded game's boundaries; TesseraError when its
    replay does not end as the record says."""
    boundaries, final = boundary_positions(game_name, options, seed, moves)
    if not final.is_over or final.scores != [int(s) for s in scores]:
        raise TesseraError(f"game with seed {seed} does not replay to its recorded scores "
                           f"(a run of another version of the rules?)")
    players = len(scores)
    features = np.empty((len(boundaries) * players, kernel.N_VALUE_FEATURES), np.float64)
    for i, position in enumerate(boundaries):
        for p in range(players):
            kernel.value_features(position.state, p, features[i * players + p])
    margins = np.tile(final_margins(scores), len(boundaries))
    wins = np.tile(np.asarray(payoffs, np.float64), len(boundaries))
    return features, margins, wins


def read_runs(game_name, run_dirs):
    """[(plan, records)] of the self-play runs ``run_dirs``, every one a run of ``game_name``
    (TesseraError naming the first that is not, or is no run)."""
    features_of(game_name)
    runs = []
    for run_dir in run_dirs:
        plan = load_plan(Path(run_dir))
        if plan.game != game_name:
            raise TesseraError(f"{run_dir} is a run of {plan.game}, not {game_name}")
        runs.append((plan, read_records(run_dir, RECORD_COLUMNS).to_pydict()))
    if not any(records["seed"] for _, records in runs):
        raise TesseraError("the runs hold no finished games")
    return runs


def replay_runs(game_name, runs, on_game=None):
    """The ``Dataset`` of every game of ``runs`` (``read_runs``); ``on_game()``, when given,
    is called after each game is replayed."""
    kernel = features_of(game_name).kernel()
    parts = []
    for plan, records in runs:
        for seed, moves, scores, payoffs in zip(records["seed"], records["moves"],
                                                records["scores"], records["payoffs"]):
            features, margins, wins = game_rows(game_name, plan.options, seed, moves, scores,
                                                payoffs, kernel)
            parts.append((features, margins, wins, np.full(len(margins), len(parts)),
                          np.full(len(margins), len(scores))))
            if on_game is not None:
                on_game()
    if not any(len(part[1]) for part in parts):
        raise TesseraError(f"the {len(parts)} game(s) of the runs never reached a round "
                           f"boundary")
    features, margins, wins, game, players = (np.concatenate(column) for column in zip(*parts))
    return Dataset(game_name, features, margins, wins, game.astype(np.int64),
                   players.astype(np.int64), len(parts))


def load_runs(game_name, run_dirs):
    """The ``Dataset`` of every game in the self-play runs ``run_dirs``."""
    return replay_runs(game_name, read_runs(game_name, run_dirs))
