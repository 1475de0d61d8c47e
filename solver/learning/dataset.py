"""Self-play runs replayed into training rows for a value model.

Each recorded game is replayed from its seed (``Position.new`` and ``ChanceDraws``, as the
run dealt it). At every round boundary (``features.LEARNABLE``: the positions where chance
acts after a player's move, i.e. after a round's scoring and before the next refill; in
Summer Pavilion only those its kernel's ``is_round_boundary`` accepts; in Azure, whose
rounds are counted in turns, the start of every turn)
each player gets one row: the features of the position from that player's side, the
player's final margin (final score less the best final score of the other players) and
win share (the game's payoff: 1, 0, or a share of a tie).

Games, never rows, are split into training and validation: the rows of one game are alike,
and a game on both sides would flatter the validation figures.

A run that recorded its searches (``--record-search``) also gives a policy's data
(``PolicyDataset``): every position a search chose a move in, the features of each legal
move (the game's move features, ``features.LEARNABLE``) and its share of the visits the
record keeps (the root's most visited moves; a move not recorded: 0).
"""

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from tessera.errors import TesseraError
from tessera.learning.features import features_of
from tessera.position import ChanceDraws, Position
from tessera.search.result import final_margins
from tessera.selfplay.records import read_records
from tessera.selfplay.rundir import load_plan

RECORD_COLUMNS = ["seed", "moves", "scores", "payoffs"]
SEARCH_COLUMNS = ["search_moves", "search_visits"]


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
        return Dataset(
            self.game_name,
            self.features[mask],
            self.margin[mask],
            self.win[mask],
            self.game[mask],
            self.players[mask],
            self.games,
        )

    def split(self, validation, seed):
        """(training, validation): a share ``validation`` of the games, drawn with ``seed``,
        go to validation with all their rows."""
        mask = held_games(self.games, validation, seed)[self.game]
        if mask.all() or not mask.any():
            raise TesseraError(
                f"{self.games} game(s) are too few to keep a validation share "
                f"of {validation} apart (one side has no round boundary)"
            )
        return self.subset(~mask), self.subset(mask)


def held_games(games, validation, seed):
    """[games] bool: the games a share ``validation`` of them, drawn with ``seed``, keeps for
    validation (the same for the value's rows and the policy's)."""
    if not 0 < validation < 1:
        raise TesseraError(f"the validation share is between 0 and 1 (exclusive), not {validation}")
    order = np.random.default_rng(seed).permutation(games)
    held = np.zeros(games, bool)
    held[order[: max(1, round(validation * games))]] = True
    if held.all():
        raise TesseraError(f"{games} game(s) are too few to keep a validation share of {validation} apart")
    return held


def boundary_positions(game_name, options, seed, moves):
    """The round-boundary positions of one recorded game, in order, and its final position:
    where chance acts after a player's move and the feature kernel's ``is_round_boundary``,
    when it has one, accepts the position; in a game that counts its rounds in turns (its
    kernel has ``starts_turn``), the start of every turn."""
    kernel = features_of(game_name).kernel()
    is_boundary = getattr(kernel, "is_round_boundary", None)
    starts_turn = getattr(kernel, "starts_turn", None)
    draws = ChanceDraws(seed)
    position = draws.deal(Position.new(game_name, seed=seed, **options))
    boundaries = []
    for move in moves:
        if starts_turn is not None and starts_turn(position.state):
            boundaries.append(position)
        position = position.play_codes(int(move))
        if starts_turn is None and position.is_chance and (is_boundary is None or is_boundary(position.state)):
            boundaries.append(position)
        position = draws.deal(position)
    return boundaries, position


def game_rows(game_name, options, seed, moves, scores, payoffs, kernel):
    """(features, margins, wins) of one recorded game's boundaries; TesseraError when its
    replay does not end as the record says."""
    boundaries, final = boundary_positions(game_name, options, seed, moves)
    if not final.is_over or final.scores != [int(s) for s in scores]:
        raise TesseraError(
            f"game with seed {seed} does not replay to its recorded scores (a run of another version of the rules?)"
        )
    players = len(scores)
    features = np.empty((len(boundaries) * players, kernel.N_VALUE_FEATURES), np.float64)
    for i, position in enumerate(boundaries):
        kernel.players_value_features(position.state, features[i * players : (i + 1) * players])
    margins = np.tile(final_margins(scores), len(boundaries))
    wins = np.tile(np.asarray(payoffs, np.float64), len(boundaries))
    return features, margins, wins


def read_runs(game_name, run_dirs):
    """[(plan, records)] of the self-play runs ``run_dirs``, every one a run of ``game_name``
    (TesseraError naming the first that is not, or is no run); the records of a run that
    recorded its searches have ``SEARCH_COLUMNS`` too."""
    features_of(game_name)
    runs = []
    for run_dir in run_dirs:
        plan = load_plan(Path(run_dir))
        if plan.game != game_name:
            raise TesseraError(f"{run_dir} is a run of {plan.game}, not {game_name}")
        columns = RECORD_COLUMNS + (SEARCH_COLUMNS if plan.record_search else [])
        runs.append((plan, read_records(run_dir, columns).to_pydict()))
    if not any(records["seed"] for _, records in runs):
        raise TesseraError("the runs hold no finished games")
    return runs


def replay_runs(game_name, runs, on_game=None):
    """The ``Dataset`` of every game of ``runs`` (``read_runs``); ``on_game()``, when given,
    is called after each game is replayed."""
    kernel = features_of(game_name).kernel()
    parts = []
    for plan, records in runs:
        for seed, moves, scores, payoffs in zip(
            records["seed"], records["moves"], records["scores"], records["payoffs"]
        ):
            features, margins, wins = game_rows(game_name, plan.options, seed, moves, scores, payoffs, kernel)
            parts.append(
                (features, margins, wins, np.full(len(margins), len(parts)), np.full(len(margins), len(scores)))
            )
            if on_game is not None:
                on_game()
    if not any(len(part[1]) for part in parts):
        raise TesseraError(f"the {len(parts)} game(s) of the runs never reached a round boundary")
    features, margins, wins, game, players = (np.concatenate(column) for column in zip(*parts))
    return Dataset(game_name, features, margins, wins, game.astype(np.int64), players.astype(np.int64), len(parts))


def load_runs(game_name, run_dirs):
    """The ``Dataset`` of every game in the self-play runs ``run_dirs``."""
    return replay_runs(game_name, read_runs(game_name, run_dirs))


def runs_have_searches(runs):
    """True when every run of ``runs`` (``read_runs``) recorded its searches."""
    return all(SEARCH_COLUMNS[0] in records for _, records in runs)


@dataclass
class PolicyDataset:
    """The searched positions of the replayed games. ``features`` [moves, N_POLICY_FEATURES]:
    every legal move of every position, the positions one after another, ``start``
    [positions + 1] the row of each one's first move; ``target`` [moves]: each move's share
    of its position's recorded visits (0 for a move the record does not keep); ``best``
    [positions]: the row of the most visited move; ``game`` [positions]: the index of the
    position's game among all replayed games (as ``Dataset.game``); ``games``: how many."""

    game_name: str
    features: np.ndarray
    start: np.ndarray
    target: np.ndarray
    best: np.ndarray
    game: np.ndarray
    games: int

    @property
    def positions(self):
        return len(self.best)

    @property
    def counts(self):
        """[positions]: each position's legal moves."""
        return np.diff(self.start)

    def subset(self, mask):
        """The positions of ``mask`` ([positions] bool), their moves with them."""
        rows = np.repeat(mask, self.counts)
        counts = self.counts[mask]
        start = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
        best = start[:-1] + (self.best - self.start[:-1])[mask]
        return PolicyDataset(
            self.game_name, self.features[rows], start, self.target[rows], best, self.game[mask], self.games
        )

    def split(self, validation, seed):
        """(training, validation): the games of ``Dataset.split`` with the same share and
        seed, each with all its positions."""
        mask = held_games(self.games, validation, seed)[self.game]
        if mask.all() or not mask.any():
            raise TesseraError(
                f"{self.games} game(s) are too few to keep a validation share "
                f"of {validation} apart (one side has no searched position)"
            )
        return self.subset(~mask), self.subset(mask)


def searched_positions(game_name, options, seed, moves, search_moves, search_visits):
    """(state, recorded moves, their visits) before each move of one recorded game that a
    search chose with visits recorded, in order."""
    position = Position.new(game_name, seed=seed, **options)
    draws = ChanceDraws(seed)
    for move, recorded, visits in zip(moves, search_moves, search_visits):
        if recorded and sum(visits) > 0:
            yield position.state, recorded, visits
        position = draws.deal(position.play_codes(int(move)))


def policy_rows(game_name, options, seed, record, rules, kernel, buffers):
    """(features, targets, best rows) of one recorded game's searched positions with more
    than one legal move, concatenated (``record``: its moves and search columns; ``rules``:
    the game's interface; ``kernel``: its move features; ``buffers``: room for a position's
    moves and their features). TesseraError when a recorded move is not legal."""
    moves, rows = buffers
    features, targets, best = [], [], []
    for state, recorded, visits in searched_positions(game_name, options, seed, record[0], record[1], record[2]):
        n = rules.legal_moves(state, moves)
        if n < 2:
            continue
        index = {int(m): i for i, m in enumerate(moves[:n])}
        target = np.zeros(n)
        for move, count in zip(recorded, visits):
            if int(move) not in index:
                raise TesseraError(
                    f"game with seed {seed}: a recorded search move is not legal "
                    f"where it was searched (a run of another version of the "
                    f"rules?)"
                )
            target[index[int(move)]] = count
        kernel.move_features(state, moves, np.int64(n), rows)
        features.append(rows[:n].copy())
        targets.append(target / target.sum())
        best.append(index[int(recorded[0])])
    return features, targets, best


def replay_policy_runs(game_name, runs, on_game=None):
    """The ``PolicyDataset`` of every game of ``runs`` (``read_runs``, runs that recorded
    their searches: ``runs_have_searches``); ``on_game()``, when given, is called after each
    game is replayed."""
    from tessera.kernels.interfaces import interface

    kernel = features_of(game_name).policy_kernel()
    if kernel is None:
        raise TesseraError(f"no move features for {game_name!r} yet: its models have no policy")
    if not runs_have_searches(runs):
        raise TesseraError("a policy needs runs that recorded their searches (tessera selfplay --record-search)")
    rules = interface(game_name)
    buffers = (np.zeros(rules.MAX_MOVES, np.int64), np.zeros((rules.MAX_MOVES, kernel.N_POLICY_FEATURES), np.float64))
    features, targets, best, game = [], [], [], []
    games = 0
    for plan, records in runs:
        for seed, moves, search_moves, search_visits in zip(
            records["seed"], records["moves"], records["search_moves"], records["search_visits"]
        ):
            rows = policy_rows(
                game_name, plan.options, seed, (moves, search_moves, search_visits), rules, kernel, buffers
            )
            features += rows[0]
            targets += rows[1]
            best += rows[2]
            game += [games] * len(rows[2])
            games += 1
            if on_game is not None:
                on_game()
    if not best:
        raise TesseraError(f"the {games} game(s) of the runs have no searched position with a choice of moves")
    counts = np.array([len(t) for t in targets], np.int64)
    start = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
    return PolicyDataset(
        game_name,
        np.concatenate(features),
        start,
        np.concatenate(targets),
        start[:-1] + np.array(best, np.int64),
        np.array(game, np.int64),
        games,
    )
