"""The conformance harness every game's tests run.

A game's test module subclasses ``GameConformance`` and names its configurations
and invariants; the checks themselves are written once here: random games keep
the invariants, every generated move applies, chance is a distribution, the same
seed gives the same game, a player's moves are those of every determinization of its
view, notation and moves round-trip, hashes are stable, perft agrees with itself, a
game that finds its best move by the heuristic without the list finds the list's, and a
game with value features gives every player's at once as it gives each one's.
"""

import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tessera.games import get_game
from tessera.kernels import bind, games
from tessera.kernels.interfaces import interface
from tessera.kernels.rng import make_rng
from tessera.learning.features import LEARNABLE
from tests.tiers import fewer


def random_game(game, options, seed, on_position=None):
    """Play one game with Python's ``random`` choosing moves and chance outcomes.

    Calls ``on_position(state, moves)`` at every position (moves: the legal list).
    Returns the positions and the moves played.
    """
    rng = random.Random(seed)
    state = game.new(seed, **options)
    moves = np.empty(games.MAX_MOVES, np.int64)
    probs = np.empty(games.MAX_MOVES, np.float64)
    history, played = [state.copy()], []
    while games.to_move(state) != games.TERMINAL:
        if games.to_move(state) == games.CHANCE:
            n = games.chance_outcomes(state, moves, probs)
            move = rng.choices(list(moves[:n]), weights=list(probs[:n]))[0]
        else:
            n = games.legal_moves(state, moves)
            move = moves[rng.randrange(n)]
        if on_position is not None:
            on_position(state, moves[:n].copy())
        games.apply_move(state, move)
        history.append(state.copy())
        played.append(int(move))
    if on_position is not None:
        on_position(state, moves[:0].copy())
    return history, played


class GameConformance:
    """Checks shared by all games. Subclasses set these three."""

    game_name = ""
    configurations = [{}]  # option dicts for ``Game.new``

    def check_invariants(self, state):
        """Game-specific invariants (conservation of pieces, score consistency)."""
        raise NotImplementedError

    @property
    def game(self):
        return get_game(self.game_name)

    # ---- random games ---------------------------------------------------------------

    def test_random_games_keep_invariants_and_moves_apply(self):
        for i, options in enumerate(self.configurations):
            for seed in range(fewer(20, 3)):
                random_game(self.game, options, 1000 * i + seed, self._check_position)

    def _check_position(self, state, moves):
        self.check_invariants(state)
        who = games.to_move(state)
        if who == games.TERMINAL:
            assert len(moves) == 0
            return
        assert len(moves) > 0, "a non-terminal position has no move"
        assert len(set(moves.tolist())) == len(moves), "duplicate moves"
        if who == games.CHANCE:
            buf = np.empty(games.MAX_MOVES, np.int64)
            probs = np.empty(games.MAX_MOVES, np.float64)
            n = games.chance_outcomes(state, buf, probs)
            assert sorted(buf[:n].tolist()) == sorted(moves.tolist())
            assert np.all(probs[:n] > 0) and abs(probs[:n].sum() - 1.0) < 1e-12
            assert games.sample_chance(state, make_rng(len(moves))) in set(moves.tolist())
        else:
            assert 0 <= who < games.players(state)
            rng = make_rng(int(moves.sum()))
            scratch = np.empty(games.MAX_MOVES, np.int64)
            for _ in range(5):
                assert games.random_move(state, rng, scratch) in set(moves.tolist())

    # Every game's subclass runs this one method: hypothesis must not object to that.
    @settings(max_examples=fewer(25, 5), deadline=None, suppress_health_check=[HealthCheck.differing_executors])
    @given(seed=st.integers(0, 2**32 - 1), which=st.integers(0, 99))
    def test_property_random_games(self, seed, which):
        options = self.configurations[which % len(self.configurations)]
        random_game(self.game, options, seed, self._check_position)

    def test_random_move_is_uniform(self):
        """Frequencies of ``random_move`` over one position match 1/n (chi-square, loose)."""
        state = self.game.new(3, **self.configurations[0])
        moves = np.empty(games.MAX_MOVES, np.int64)
        n = games.legal_moves(state, moves)
        draws = 400 * n
        rng = make_rng(11)
        counts = {int(m): 0 for m in moves[:n]}
        for _ in range(draws):
            counts[int(games.random_move(state, rng, moves))] += 1
        expected = draws / n
        chi2 = sum((c - expected) ** 2 / expected for c in counts.values())
        assert chi2 < n + 6 * np.sqrt(2 * n)

    # ---- determinism ------------------------------------------------------------------

    def test_same_seed_same_game(self):
        for options in self.configurations:
            first = self.game.new(42, **options)
            assert np.array_equal(first, self.game.new(42, **options))
            assert any(not np.array_equal(first, self.game.new(s, **options)) for s in range(43, 53))
            a, b = np.zeros((4, 4), np.int64), np.zeros((4, 4), np.int64)
            playout = bind.instance(first[0], "playout")
            made_a = playout.playouts(first, 5, 4, a)
            made_b = playout.playouts(first, 5, 4, b)
            assert made_a == made_b and np.array_equal(a, b)

    @pytest.mark.long  # compiles the parallel playouts, which the package does not ship compiled
    def test_parallel_playouts_match_serial(self):
        start = self.game.new(1, **self.configurations[0])
        serial = np.zeros((16, 4), np.int64)
        parallel = np.zeros((16, 4), np.int64)
        made = np.zeros(16, np.int64)
        playout = bind.instance(start[0], "playout")
        total = playout.playouts(start, 9, 16, serial)
        playout.playouts_parallel(start, 9, 16, parallel, made)
        assert np.array_equal(serial, parallel) and made.sum() == total

    # ---- views ------------------------------------------------------------------------

    def test_a_players_moves_are_the_same_in_every_determinization_of_its_view(self):
        """What a player may play it knows: the moves of its view are the moves of every
        complete state ``determinize`` makes of it (IS-MCTS lists its root's moves once)."""
        moves = np.empty(games.MAX_MOVES, np.int64)
        compared = []

        def compare(state, legal):
            who = games.to_move(state)
            if who in (games.CHANCE, games.TERMINAL):
                return
            view = self.game.view(state, who)
            expected = sorted(moves[: games.legal_moves(view, moves)].tolist())
            assert expected == sorted(legal.tolist())
            complete = np.empty_like(view)
            for seed in range(3):
                games.determinize(view, who, make_rng(seed), complete)
                assert sorted(moves[: games.legal_moves(complete, moves)].tolist()) == expected
            compared.append(who)

        for i, options in enumerate(self.configurations):
            random_game(self.game, options, 300 + i, compare)
        assert len(compared) > 20 * len(self.configurations)

    # ---- notation ---------------------------------------------------------------------

    def test_notation_round_trips(self):
        game = self.game

        def round_trip(state, moves):
            text = game.format_position(state)
            assert np.array_equal(game.parse_position(text), state), text
            one_line = " ; ".join(text.splitlines())
            assert np.array_equal(game.parse_position(one_line), state)
            assert np.array_equal(game.position_from_json(game.position_to_json(state)), state)
            for move in moves:
                assert game.parse_move(state, game.format_move(state, move)) == move

        for i, options in enumerate(self.configurations[: fewer(len(self.configurations), 2)]):
            random_game(game, options, 77 + i, round_trip)

    # ---- hashing ----------------------------------------------------------------------

    def test_hash_is_stable_and_tells_positions_apart(self):
        history, _ = random_game(self.game, self.configurations[0], 5)
        hashes = [games.position_hash(s) for s in history]
        assert hashes == [games.position_hash(s.copy()) for s in history]
        distinct = {s.tobytes() for s in history}
        assert len(set(hashes)) == len(distinct)

    # ---- perft ------------------------------------------------------------------------

    def test_perft_divide_sums_to_perft(self):
        state = self.game.new(8, **self.configurations[0])
        counts = np.zeros(games.MAX_MOVES, np.int64)
        perft = bind.instance(state[0], "perft")
        n = perft.perft_divide(state, 2, counts)
        moves = np.empty(games.MAX_MOVES, np.int64)
        assert n == games.legal_moves(state, moves)
        assert counts[:n].sum() == perft.perft(state, 2)
        assert perft.perft(state, 1) == n

    # ---- move heuristic ---------------------------------------------------------------

    def test_best_heuristic_move_is_the_lists_first_best(self):
        """A game's ``best_heuristic_move`` (a greedy rollout's move, found without listing
        the moves) is the move the list gives: the first of the highest ``move_heuristic``
        in ``legal_moves``' order, ties included."""
        kernels = interface(self.game_name)
        if not hasattr(kernels, "best_heuristic_move"):
            pytest.skip(f"{self.game_name} lists and scores its moves")
        scratch = np.empty(games.MAX_MOVES, np.float64)
        compared, tied = [], []

        def compare(state, moves):
            if games.to_move(state) in (games.CHANCE, games.TERMINAL):
                return
            heuristics = np.array([kernels.move_heuristic(state, move) for move in moves])
            expected = moves[int(np.argmax(heuristics))]  # argmax: the first of equals
            assert kernels.best_heuristic_move(state, scratch) == expected
            compared.append(expected)
            if (heuristics == heuristics.max()).sum() > 1:
                tied.append(expected)

        for i, options in enumerate(self.configurations):
            for seed in range(3):
                random_game(self.game, options, 900 + 10 * i + seed, compare)
        assert len(compared) > 60 * len(self.configurations) and len(tied) > 10

    # ---- value features ---------------------------------------------------------------

    def test_every_players_value_features_at_once_match_each_ones(self):
        """``players_value_features`` (what the search scores a cut with) gives, row by row,
        ``value_features`` of each player (what the docs define), bit for bit."""
        if self.game_name not in LEARNABLE:
            pytest.skip(f"{self.game_name} has no value features")
        kernel = LEARNABLE[self.game_name].kernel()
        compared = []

        def compare(state, moves):
            players = games.players(state)
            rows = np.full((players, kernel.N_VALUE_FEATURES), np.nan)
            kernel.players_value_features(state, rows)
            each = np.full_like(rows, np.nan)
            for p in range(players):
                kernel.value_features(state, p, each[p])
            assert np.array_equal(rows, each), kernel.FEATURE_NAMES
            compared.append(players)

        for i, options in enumerate(self.configurations):
            random_game(self.game, options, 500 + i, compare)
        assert len(compared) > 20 * len(self.configurations)
