"""Search statistics of self-play moves (``tessera selfplay --record-search``).

For every player move chosen by an MCTS search (``mcts`` on complete positions,
information-set MCTS on Azure's views) the records keep what the search's root
saw: its most visited moves with their visit counts, its visits, and its value
(win share and score margin) from the point of view of the player who searched,
that is the player who made the move. They are training data: the visits are a
move prior's target, the value a value function's.

Every other move (random, greedy, alpha-beta, an external player) has an empty
entry, so the lists of a game line up with its ``moves``: entry ``i`` is about
``moves[i]``. Alpha-beta's per-move counts are nodes searched below a move, not a
preference among the moves, and its values stop at the end of the round, so its
moves are not recorded. Chance draws are not in ``moves`` and have no entry.

The columns (one list per game, one entry per player move):

- ``search_moves`` list<list<int64>>: the root's most visited moves, at most the
  run's ``record_search`` of them, most visited first (the search's ranking, whose
  first is the move MCTS plays); moves no simulation tried are left out;
- ``search_visits`` list<list<int64>>: their visit counts;
- ``search_root_visits`` list<int64>: the root's visits, those kept from the
  previous move's tree included (the counts above are shares of these);
- ``search_win_rate`` list<float64>: the root's mean payoff, 0..1, for the mover;
- ``search_margin`` list<float64>: the root's mean score margin for the mover.

The last three are null for a move that was not searched.
"""

from dataclasses import dataclass

import numpy as np

from tessera.errors import require_extra

DEFAULT_TOP = 16  # root moves recorded per searched move
RECORDED_ALGOS = ("mcts", "ismcts")
COLUMNS = ["search_moves", "search_visits", "search_root_visits", "search_win_rate", "search_margin"]


def _pyarrow():
    """pyarrow, the ``selfplay`` extra's (the records' columns are its arrays)."""
    return require_extra("pyarrow", "selfplay", "recording search statistics")


def fields():
    """The columns' (name, pyarrow type), in ``COLUMNS``' order."""
    pa = _pyarrow()
    types = [
        pa.list_(pa.list_(pa.int64())),
        pa.list_(pa.list_(pa.int64())),
        pa.list_(pa.int64()),
        pa.list_(pa.float64()),
        pa.list_(pa.float64()),
    ]
    return list(zip(COLUMNS, types))


@dataclass
class SearchStats:
    """The search statistics of player moves, one entry per move, flat in the order of
    ``records.ChunkGames.moves``: ``counts`` [plies] the root moves recorded for each
    (0 when it was not searched), ``moves`` and ``visits`` those root moves one ply after
    another; ``searched`` [plies] whether the move was searched, and for those the root's
    ``root_visits``, ``win_rate`` and ``margin`` (the mover's)."""

    counts: np.ndarray
    moves: np.ndarray
    visits: np.ndarray
    searched: np.ndarray
    root_visits: np.ndarray
    win_rate: np.ndarray
    margin: np.ndarray

    @staticmethod
    def unsearched(plies):
        """The entries of ``plies`` moves none of which was searched."""
        return SearchStats(
            np.zeros(plies, np.int64),
            np.zeros(0, np.int64),
            np.zeros(0, np.int64),
            np.zeros(plies, bool),
            np.zeros(plies, np.int64),
            np.zeros(plies, np.float64),
            np.zeros(plies, np.float64),
        )

    @staticmethod
    def of_results(results, top):
        """The entries of moves whose search results are ``results`` (None for a move
        chosen without a search), at most ``top`` root moves each."""
        plies = len(results)
        stats = SearchStats.unsearched(plies)
        moves, visits = [], []
        for ply, result in enumerate(results):
            if result is None or result.algo not in RECORDED_ALGOS:
                continue
            lines = [line for line in result.moves[:top] if line.visits > 0]
            stats.counts[ply] = len(lines)
            moves += [line.move for line in lines]
            visits += [line.visits for line in lines]
            stats.searched[ply] = True
            stats.root_visits[ply] = result.visits + result.reused_visits
            stats.win_rate[ply] = result.value
            stats.margin[ply] = result.margin
        stats.moves = np.array(moves, np.int64)
        stats.visits = np.array(visits, np.int64)
        return stats

    @staticmethod
    def concatenate(parts):
        return SearchStats(
            *(np.concatenate([getattr(part, name) for part in parts]) for name in SearchStats.__dataclass_fields__)
        )

    def columns(self, game_offsets):
        """{column: pyarrow array} of these entries, cut into games at ``game_offsets``
        ([games + 1] ply offsets)."""
        pa = _pyarrow()
        ply_offsets = np.zeros(len(self.counts) + 1, np.int64)
        np.cumsum(self.counts, out=ply_offsets[1:])
        games = pa.array(np.asarray(game_offsets).astype(np.int32))
        plies = pa.array(ply_offsets.astype(np.int32))
        missing = ~self.searched

        def per_ply(values):
            return pa.ListArray.from_arrays(games, values)

        return {
            "search_moves": per_ply(pa.ListArray.from_arrays(plies, pa.array(self.moves))),
            "search_visits": per_ply(pa.ListArray.from_arrays(plies, pa.array(self.visits))),
            "search_root_visits": per_ply(pa.array(self.root_visits, mask=missing)),
            "search_win_rate": per_ply(pa.array(self.win_rate, mask=missing)),
            "search_margin": per_ply(pa.array(self.margin, mask=missing)),
        }
