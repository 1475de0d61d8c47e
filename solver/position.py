"""Positions for people who write code: start or read one, list and play moves by their
text, draw it, search it, take a view (docs/api.md).

A ``Position`` never changes: ``play`` returns a new one. Everything is in the games'
notation; errors are ``tessera.errors`` types (``MoveError``, ``PositionError``,
``OptionError``, all ``TesseraError``).
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np

from tessera.errors import MoveError, OptionError, TesseraError
from tessera.games import Game, game_of_position, game_with_id, get_game
from tessera.kernels import games
from tessera.search.options import aliases
from tessera.search.request import SearchRequest

API_KEYWORDS = aliases("api")  # keyword: the search option it sets
MCTS_EXTRAS = set(API_KEYWORDS) - {"algo", "visits", "time", "depth", "threads", "seed"}  # **mcts


class Position:
    """A position of Azul, Summer Pavilion or Azure, complete or a player's view."""

    def __init__(self, game: Game, state: np.ndarray) -> None:
        self._game = game
        self._state = state

    # ---- making one -------------------------------------------------------------------

    @classmethod
    def new(cls, game: str, seed: int = 0, **options: Any) -> Position:
        """A start position of ``game`` (its name), as ``tessera new GAME --seed SEED``."""
        chosen = get_game(game)
        return cls(chosen, chosen.new(seed, **options))

    @classmethod
    def parse(cls, text: str | dict[str, Any]) -> Position:
        """A position from its text, its JSON text, or its JSON object (a dict)."""
        return cls(*game_of_position(json.dumps(text) if isinstance(text, dict) else text))

    @classmethod
    def from_state(cls, state: np.ndarray) -> Position:
        """The position of a state array, its game found from the array."""
        return cls(game_of_state(state), state.copy())

    # ---- what it is -------------------------------------------------------------------

    @property
    def game(self) -> str:
        return self._game.name

    @property
    def players(self) -> int:
        return int(games.players(self._state))

    @property
    def to_move(self) -> int | None:
        """The player to move, from 1; None when chance acts or the game is over."""
        who = games.to_move(self._state)
        return int(who) + 1 if who >= 0 else None

    @property
    def is_chance(self) -> bool:
        return bool(games.to_move(self._state) == games.CHANCE)

    @property
    def is_over(self) -> bool:
        return bool(games.to_move(self._state) == games.TERMINAL)

    @property
    def is_view(self) -> bool:
        return not games.is_complete(self._state)

    @property
    def scores(self) -> list[int]:
        out = np.zeros(self.players, np.int64)
        games.scores(self._state, out)
        scores: list[int] = out.tolist()
        return scores

    @property
    def hash(self) -> str:
        """The 64-bit position hash, hexadecimal (``position_hash`` in search results)."""
        return f"{int(games.position_hash(self._state)) & (2**64 - 1):016x}"

    @property
    def state(self) -> np.ndarray:
        """A copy of the engine's array, for code that calls the kernels itself."""
        copy: np.ndarray = self._state.copy()  # numpy types copy() by typing.Self, Any to mypy at Python 3.10
        return copy

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Position) and np.array_equal(self._state, other._state)

    def __hash__(self) -> int:
        return hash(self._state.tobytes())

    # ---- moves ------------------------------------------------------------------------

    @property
    def legal_moves(self) -> list[str]:
        """The moves of whoever acts, in notation; at chance, the outcomes."""
        return [text for text, _ in self._listing()]

    def chance_outcomes(self) -> list[tuple[str, float]]:
        """[(outcome, probability)] when chance acts, else []."""
        return [(text, p) for text, p in self._listing() if p is not None]

    def _listing(self) -> list[tuple[str, float | None]]:
        codes = np.empty(games.max_moves(self._state), np.int64)
        who = games.to_move(self._state)
        if who == games.TERMINAL:
            return []
        if who == games.CHANCE:
            probabilities = np.empty(games.max_moves(self._state), np.float64)
            count = games.chance_outcomes(self._state, codes, probabilities)
            return [
                (self._game.format_move(self._state, c), float(p)) for c, p in zip(codes[:count], probabilities[:count])
            ]
        count = games.legal_moves(self._state, codes)
        return [(self._game.format_move(self._state, c), None) for c in codes[:count]]

    def parse_move(self, text: str) -> int:
        """The engine's code of the move ``text``; MoveError when it is not legal here."""
        return int(self._game.parse_move(self._state, text))

    def move_text(self, code: int) -> str:
        """The notation of the move (or chance outcome) ``code`` here: ``parse_move``'s inverse."""
        return self._game.format_move(self._state, code)

    def play_codes(self, *codes: int) -> Position:
        """The position after the moves (or chance outcomes) ``codes``, by their engine codes,
        as a game record lists them; unchecked, like the kernels."""
        self._check_complete("play_codes")
        state = self._state.copy()
        for code in codes:
            games.apply_move(state, code)
        return Position(self._game, state)

    def play(self, *moves: str) -> Position:
        """The position after ``moves`` (texts), played in order."""
        self._check_complete("play")
        state = self._state.copy()
        for i, text in enumerate(moves, 1):
            try:
                move = self._game.parse_move(state, text)
            except MoveError as err:
                raise MoveError(text, f"move {i} of {len(moves)}: {str(err).split(': ', 1)[-1]}") from None
            games.apply_move(state, move)
        return Position(self._game, state)

    def draw_chance(self, seed: int) -> Position:
        """The position after chance acts, drawn with ``seed`` (itself when a player acts)."""
        from tessera.kernels.rng import make_rng

        self._check_complete("draw_chance")
        state = self._state.copy()
        if games.to_move(state) == games.CHANCE:
            games.resolve_chance(state, make_rng(seed))
        return Position(self._game, state)

    def view(self, player: int) -> Position:
        """What ``player`` (from 1) knows of this complete position."""
        self._check_complete("view")
        if not 1 <= player <= self.players:
            raise TesseraError(f"player must be 1 to {self.players}, not {player}")
        return Position(self._game, self._game.view(self._state, player - 1))

    def _check_complete(self, what: str) -> None:
        if self.is_view:
            raise TesseraError(f"{what} needs a complete position; this is a player's view")

    # ---- text and drawing -------------------------------------------------------------

    def text(self) -> str:
        return self._game.format_position(self._state)

    __str__ = text

    def __repr__(self) -> str:
        return f"Position.parse({self.text()!r})"

    def to_json(self) -> dict[str, Any]:
        return self._game.position_to_json(self._state)

    def render(self) -> Any:
        """A rich renderable drawing the position (``rich.print(position.render())``)."""
        return self._game.render(self._state)

    # ---- search -----------------------------------------------------------------------

    def best(
        self,
        visits: int | None = None,
        time: float | None = None,
        algo: str = "mcts",
        depth: int | None = None,
        threads: int = 1,
        seed: int = 0,
        **mcts: Any,
    ) -> dict[str, Any]:
        """Rank the moves by a search: the document of `tessera best --json` as a dict.

        ``visits`` (MCTS simulations, all threads together) and/or ``time`` (seconds); neither:
        10,000 visits. ``algo`` ``"mcts"`` (information-set MCTS on a view),
        ``"alphabeta"`` (``depth`` plies and/or ``time``) or ``"solve"``; ``mcts``:
        ``value``, ``select``, ``rollout``, ``exploration``, ``memory`` (MB), ``fpu``,
        ``width`` (the chance width), ``model`` (a model file, ``"builtin"`` or ``"none"``),
        ``policy_temperature`` (of the model's policy priors) as in docs/search.md; what is
        left out, the game and its player count decide.
        """
        unknown = sorted(set(mcts) - MCTS_EXTRAS)
        if unknown:
            raise OptionError(
                f"unknown search option '{unknown[0]}' (known: algo, visits, time, "
                f"depth, threads, seed, {', '.join(sorted(MCTS_EXTRAS))})"
            )
        request = SearchRequest(
            algo=algo,
            visits=visits,
            time=time,
            depth=depth,
            threads=threads,
            seed=seed,
            **{API_KEYWORDS[name].name: value for name, value in mcts.items()},
        )
        return self._search("best", request)

    def solve(self, time: float | None = None) -> dict[str, Any]:
        """The exact value and best moves: the document of `tessera solve --json` as a dict."""
        return self._search("solve", SearchRequest(algo="solve", time=time))

    def _search(self, command: str, request: SearchRequest) -> dict[str, Any]:
        from tessera.search.report import search_report
        from tessera.search.request import run_search

        result, settings = run_search(self._state, request)
        return search_report(command, self._game, self._state, result, settings, result.interrupted)


class ChanceDraws:
    """The chance of one game, drawn from one seeded generator step after step, as
    ``tessera new``, ``tessera selfplay`` and the analysis engine draw it: a position dealt
    with ``ChanceDraws(seed)`` after each move is the same game the seed gives everywhere.

    ``state`` is the generator's state, a whole number: ``ChanceDraws.resume(state)`` goes
    on drawing where it was (the web board keeps it in the page between requests)."""

    def __init__(self, seed: int = 0) -> None:
        from tessera.kernels.rng import chance_rng

        self._rng = chance_rng(seed)

    @classmethod
    def resume(cls, state: int) -> ChanceDraws:
        """The generator whose ``state`` this was; ValueError unless a 64-bit whole number."""
        if isinstance(state, bool) or not isinstance(state, int) or not 0 <= state < 2**64:
            raise ValueError(f"a generator state is a whole number from 0 to 2**64 - 1, not {state!r}")
        draws = cls.__new__(cls)
        draws._rng = np.array([state], np.uint64)
        return draws

    @property
    def state(self) -> int:
        return int(self._rng[0])

    def deal(self, position: Position) -> Position:
        """``position`` with the chance that acts in it drawn (itself when a player acts or
        the game is over); the generator moves on."""
        if not position.is_chance:
            return position
        position._check_complete("deal")
        state = position._state.copy()
        games.resolve_chance(state, self._rng)
        return Position(position._game, state)


def game_of_state(state: np.ndarray) -> Game:
    """The ``Game`` whose kernels a state array belongs to (the id in its word 0)."""
    game = game_with_id(int(state[0]))
    if game is None:
        raise TesseraError(f"no game has the id {int(state[0])}")
    return game
