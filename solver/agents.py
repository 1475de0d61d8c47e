"""Players for self-play, each built from a short spec string, and one game between them.

Specs (docs/search.md, "Agents"):

- ``random``: a uniformly random legal move;
- ``greedy``: the best move by a one-ply look at the game's evaluation;
- ``mcts:iters=N`` or ``mcts:time=S``, with optional ``threads``, ``c``, ``select``,
  ``rollout``, ``value``, ``width``, ``memory`` (in MB), ``fpu``, ``model``,
  ``policy_temperature`` (the keys of the search options in ``tessera.search.options``);
- ``alphabeta:depth=D`` and/or ``alphabeta:time=S``.

- ``python:module=M,function=F`` (or ``file=PATH.py`` for ``module``): an external
  player, the function ``F(position)`` returning a move (``tessera.external``).

Every agent takes a seed, so a game between seeded agents is reproducible.
``Agent.decide`` returns the move with the search result that chose it and the time
taken; ``play_game`` calls ``on_move`` after every player move.

In a game with hidden information (Azure) an agent is given the view of the player
to move, never the complete position: MCTS then runs information-set MCTS; greedy
and alpha-beta decide on one determinization of the view drawn with their seed
(alpha-beta on a sample is "perfect-information Monte Carlo" with one sample: it
plays as if the sampled cards were the true ones).
"""

from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from tessera.errors import OptionError
from tessera.kernels import bind
from tessera.kernels.constants import CHANCE, TERMINAL
from tessera.kernels.rng import SAMPLE_SALT, below, chance_rng, make_rng
from tessera.players import Agent as Agent  # given out here too ("X as X")
from tessera.players import Decision as Decision
from tessera.search.mcts import Mcts
from tessera.search.options import ALPHABETA, MCTS, OPTIONS, SearchOption, aliases
from tessera.search.request import SearchRequest, for_position, searcher_class
from tessera.search.result import SearchResult

if TYPE_CHECKING:
    from tessera.games import Game
    from tessera.search.ismcts import Ismcts


class RandomAgent(Agent):
    name = "random"

    def __init__(self, spec: str, seed: int) -> None:
        super().__init__(spec)
        self.rng = make_rng(seed)

    def choose(self, state: np.ndarray) -> int:
        rules = bind.interface(state[0])
        return int(rules.random_move(state, self.rng, np.empty(rules.MAX_MOVES, np.int64)))


class GreedyAgent(Agent):
    """The move whose result the game's evaluation rates best for the mover.

    Moves are ranked by the mover's ``evaluate`` after the move (for Azul: the
    score if the round ended now), then by that value less the best other player's;
    a seeded random choice settles what is still equal.
    """

    name = "greedy"

    def __init__(self, spec: str, seed: int) -> None:
        super().__init__(spec)
        self.rng = make_rng(seed)
        self.sample_rng = make_rng(seed ^ SAMPLE_SALT)

    def choose(self, state: np.ndarray) -> int:
        rules = bind.interface(state[0])
        mover = rules.to_move(state)
        state = sampled_if_hidden(state, mover, self.sample_rng)
        moves = np.empty(rules.MAX_MOVES, np.int64)
        count = rules.legal_moves(state, moves)
        values = np.zeros(rules.players(state), np.float64)
        best_key: tuple[Any, Any] | None = None
        best_moves: list[int] = []
        for move in moves[:count]:
            child = state.copy()
            rules.apply_move(child, move)
            rules.evaluate(child, values)
            own = values[mover]
            key = (own, own - max(np.delete(values, mover), default=own))
            if best_key is None or key > best_key:
                best_key, best_moves = key, [int(move)]
            elif key == best_key:
                best_moves.append(int(move))
        pick: int = below(self.rng, len(best_moves))
        return best_moves[pick]


# What an MCTS agent's search leaves to the game and resolves by its position (``search_settings``).
RESOLVED_SETTINGS = ("rollout", "exploration", "value", "model", "model_hash")


class MctsAgent(Agent):
    """MCTS on complete positions; on a player's view, information-set MCTS."""

    name = "mcts"

    def __init__(self, spec: str, request: SearchRequest) -> None:
        super().__init__(spec)
        self.request = request
        self.options = request.mcts_options()
        self.mcts = Mcts(self.options)  # checks the options at once
        self.ismcts: Mcts | Ismcts | None = None  # made at the first view

    def choose(self, state: np.ndarray) -> int:
        kind = searcher_class(state)
        searcher: Mcts | Ismcts
        if kind is Mcts:
            searcher = self.mcts
        else:
            self.ismcts = self.ismcts or kind(self.options)
            searcher = self.ismcts
        self.last_result = result = searcher.search(state)
        return _best_move(result)

    def observe(self, move: int) -> None:
        # Keeps the subtree below the move; a move after a refill finds no tree to follow.
        self.mcts.play(move)

    def search_settings(self, state: np.ndarray) -> dict[str, Any]:
        """The rollout, exploration, value and model (with its hash) this agent's searches of
        ``state``'s game, player count and options take, those its spec names and the game's
        defaults for the rest: those of a search's settings (``request.for_position``)."""
        resolved = for_position(self.request.settings(), MCTS, state)
        return {key: resolved[key] for key in RESOLVED_SETTINGS if key in resolved}


class AlphaBetaAgent(Agent):
    """Alpha-beta to ``depth`` plies and/or for ``time`` seconds (randomness only for views)."""

    name = "alphabeta"

    def __init__(self, spec: str, depth: int | None, time_limit: float | None, seed: int) -> None:
        super().__init__(spec)
        self.rng = make_rng(seed)
        self.depth = depth
        self.time_limit = time_limit

    def choose(self, state: np.ndarray) -> int:
        from tessera.search.alphabeta import search_alphabeta

        state = sampled_if_hidden(state, bind.interface(state[0]).to_move(state), self.rng)
        self.last_result = result = search_alphabeta(state, depth=self.depth, time_limit=self.time_limit)
        return _best_move(result)


def _best_move(result: SearchResult) -> int:
    """The move ``result`` ranks first: a searched position has a player to move, and so a
    move (a search of any other raises first)."""
    best = result.best
    assert best is not None, "a search without a move"
    return best.move


def sampled_if_hidden(state: np.ndarray, observer: int, rng: np.ndarray) -> np.ndarray:
    """``state`` itself when complete, else one determinization of the view drawn with ``rng``."""
    rules = bind.interface(state[0])
    if rules.is_complete(state):
        return state
    sample = np.empty_like(state)
    rules.determinize(state, observer, rng, sample)
    return sample


# ---- specs ---------------------------------------------------------------------------

# key: the search option it sets (tessera.search.options), for each searching agent
MCTS_KEYS = aliases("agent", [option for option in OPTIONS if MCTS in option.algos])
ALPHABETA_KEYS = aliases("agent", [option for option in OPTIONS if ALPHABETA in option.algos])
NUMBER_NAMES = {int: "a whole number", float: "a number"}


def parse_agent(spec: str, seed: int = 0) -> "Agent":
    """The agent of ``spec`` (see the module docstring); raises OptionError on a bad spec."""
    try:
        name, settings = _split_spec(spec)
        if name in ("random", "greedy"):
            _only_keys(settings, ())
            return (RandomAgent if name == "random" else GreedyAgent)(spec, seed)
        if name == "mcts":
            return _mcts_agent(spec, settings, seed)
        if name == "alphabeta":
            return _alphabeta_agent(spec, settings, seed)
        if name == "python":
            from tessera.external import external_agent

            return external_agent(spec, settings)
        raise OptionError(f"unknown agent '{name}' (known: alphabeta, greedy, mcts, python, random)")
    except OptionError as err:
        raise OptionError(f"bad agent spec '{spec}': {err}") from None


def _split_spec(spec: str) -> tuple[str, dict[str, str]]:
    """``name:key=value,...`` as (name, {key: text}); keys must be unique."""
    name, _, rest = spec.strip().partition(":")
    if not name:
        raise OptionError("no agent name")
    settings: dict[str, str] = {}
    for item in rest.split(",") if rest else ():
        key, equals, value = (part.strip() for part in item.partition("="))
        if not equals or not key or not value:
            raise OptionError(f"expected key=value, not '{item.strip()}'")
        if key in settings:
            raise OptionError(f"'{key}' is given twice")
        settings[key] = value
    return name, settings


def _only_keys(settings: dict[str, str], known: Collection[str]) -> None:
    for key in settings:
        if key not in known:
            allowed = f"known: {', '.join(known)}" if known else "it takes none"
            raise OptionError(f"unknown key '{key}' ({allowed})")


def _number(key: str, text: str, kind: type) -> float:
    try:
        number: float = kind(text)
        return number
    except ValueError:
        raise OptionError(f"{key} must be {NUMBER_NAMES[kind]}, not '{text}'") from None


def _mcts_agent(spec: str, settings: dict[str, str], seed: int) -> MctsAgent:
    _only_keys(settings, MCTS_KEYS)
    if "iters" not in settings and "time" not in settings:
        raise OptionError("mcts needs iters=N or time=S")
    return MctsAgent(spec, SearchRequest(seed=seed, **_options(settings, MCTS_KEYS)))


def _options(settings: dict[str, str], keys: dict[str, SearchOption]) -> dict[str, Any]:
    """{search option: value} of an agent spec's ``settings`` ({key: text})."""
    options: dict[str, Any] = {}
    for key, text in settings.items():
        option = keys[key]
        options[option.name] = text if option.kind is str else _number(key, text, option.kind)
    return options


def _alphabeta_agent(spec: str, settings: dict[str, str], seed: int) -> AlphaBetaAgent:
    _only_keys(settings, ALPHABETA_KEYS)
    if not settings:
        raise OptionError("alphabeta needs depth=D or time=S")
    options = _options(settings, ALPHABETA_KEYS)
    depth, time_limit = options.get("depth"), options.get("time")
    if depth is not None and depth < 1:
        raise OptionError(f"depth must be at least 1, not {depth}")
    if time_limit is not None and not time_limit > 0:
        raise OptionError(f"time must be more than 0 seconds, not {time_limit}")
    return AlphaBetaAgent(spec, depth, time_limit, seed)


# ---- one game ------------------------------------------------------------------------


@dataclass
class GameRecord:
    """A finished game. Replaying ``moves`` from ``game.new(seed, **options)``, with chance
    drawn by ``resolve_chance`` from ``chance_rng(seed)``, gives the same game."""

    game: str
    options: dict[str, Any]
    seed: int
    agents: list[str]  # spec of each seat, in seat order
    moves: list[tuple[int, int]]  # (player, move code) of every player move, in order
    scores: list[int]  # final scores by seat
    payoffs: list[float]  # by seat; winners share 1
    # By seat: time spent choosing moves; a measurement, not part of the game (not compared).
    seconds: list[float] = field(default_factory=list, compare=False)


@dataclass
class MoveEvent:
    """What ``play_game`` tells ``on_move`` after each player move."""

    ply: int  # index of the move in ``GameRecord.moves``
    player: int  # the seat that moved, 0-based
    move: int
    text: str  # the move in the game's notation
    decision: Decision  # the move's search result and time


def play_game(
    game: "Game | str",
    options: dict[str, Any] | None,
    agents: "list[Agent]",
    seed: int,
    on_move: "Callable[[MoveEvent], None] | None" = None,
) -> GameRecord:
    """Play one game of ``game`` (a ``Game`` or its name) with ``options`` (those of
    ``tessera new GAME``; None for none) between ``agents``, seat 1 first.

    ``on_move(MoveEvent)`` is called after every player move."""
    if isinstance(game, str):
        from tessera.games import get_game

        game = get_game(game)
    options = {} if options is None else options
    state = game.new(seed, **options)
    rules = bind.interface(state[0])
    if rules.players(state) != len(agents):
        raise OptionError(f"{game.name} with these options has {rules.players(state)} seats, not {len(agents)}")
    chance = chance_rng(seed)
    played: list[tuple[int, int]] = []
    seconds = [0.0] * len(agents)
    while (who := rules.to_move(state)) != TERMINAL:
        if who == CHANCE:
            rules.resolve_chance(state, chance)
            continue
        decision = agents[who].decide(game.view(state, who))
        move = decision.move
        seconds[who] += decision.seconds
        text = game.format_move(state, move) if on_move is not None else ""  # for on_move alone
        played.append((int(who), move))
        rules.apply_move(state, move)
        for agent in agents:
            agent.observe(move)
        if on_move is not None:
            on_move(MoveEvent(len(played) - 1, int(who), move, text, decision))
    scores = np.zeros(len(agents), np.int64)
    payoffs = np.zeros(len(agents), np.float64)
    rules.scores(state, scores)
    rules.payoffs(state, payoffs)
    return GameRecord(
        game=game.name,
        options=dict(options),
        seed=seed,
        agents=[agent.spec for agent in agents],
        moves=played,
        scores=scores.tolist(),
        payoffs=payoffs.tolist(),
        seconds=seconds,
    )
