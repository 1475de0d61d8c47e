"""What a game is, as data: one ``GameSpec`` per game, in the game's own module.

Search, RL, the web board and notation read a game's facts here instead of asking which
game it is. The kernels own the numeric id (``tessera.kernels.constants``); a spec names
it, and tests/test_game_spec.py checks every fact against the kernels.
"""

from dataclasses import dataclass, field
from typing import Any, NamedTuple

from tessera.errors import OptionError


class Option(NamedTuple):
    """An option of ``tessera new``: a click type (int, bool, str) or a tuple of choices,
    its default and its help."""

    kind: Any
    default: Any
    help: str


class PlayerCounts(NamedTuple):
    least: int
    most: int
    default: int

    def __contains__(self, players: object) -> bool:
        return type(players) is int and self.least <= players <= self.most

    def option(self) -> Option:
        """The ``players`` option of a game with more than one player count."""
        return Option(int, self.default, f"number of players, {self.least} to {self.most}")

    def check(self, players: object) -> None:
        """OptionError unless the game takes ``players`` players."""
        if players not in self:
            *counts, last = range(self.least, self.most + 1)
            raise OptionError(f"players must be {', '.join(map(str, counts))} or {last}, not {players!r}")


class LongBudget(NamedTuple):
    """Where a search's budget becomes long: a time limit from ``seconds``, an iteration
    limit from ``simulations``. A search ends at the first of its limits, so it is long
    when each limit it has is."""

    seconds: float
    simulations: int


@dataclass(frozen=True)
class SearchDefaults:
    """The MCTS settings a game searches with where the options leave them to it."""

    exploration: float = 1.4
    value: str = "margin"  # a name of ``tessera.search.mcts.VALUES``
    # The player counts whose default search cuts its rollouts at the round's end and
    # scores them with the game's built-in model: where matches against the full greedy
    # rollout chose it (docs/learning.md).
    learned_players: tuple[int, ...] = ()
    # Boolean options whose positions, when the option is on, search without the built-in
    # model even at ``learned_players``: there the model's search lost to the full greedy
    # one (``Game.option_in`` reads them from a position).
    unlearned_options: tuple[str, ...] = ()
    # The exploration constant of a search whose round rollouts a learned value scores
    # (None: ``exploration``): the value's payoffs vary far less than a finished rollout's,
    # so the tree needs less exploring (chosen by matches, results/strength).
    learned_exploration: float | None = None
    # The player counts whose mixed rollouts, scored by a learned value, take
    # ``learned_exploration`` too (elsewhere mixed rollouts keep ``exploration``).
    learned_mixed_players: tuple[int, ...] = ()
    # The value a search maximises when a learned value scores its round or mixed rollouts
    # (a name of ``tessera.search.mcts.VALUES``; None: ``value``): a learned win chance may
    # rank the moves better than its predicted margin.
    learned_value: str | None = None
    # The rollout a value model (the built-in one by default) brings from a long budget on
    # (None: round at every budget). With many full rollouts a value's bias outweighs the
    # speed of stopping at the cut, and "mixed" keeps the finished rollout beside it.
    long_rollout: str | None = None
    long_budget: LongBudget | None = None  # where a budget becomes long (``LongBudget``)
    # Where a long budget's exploration and policy temperature (below) take full effect:
    # from ``long_budget`` to here each moves from its short budget's value on a log scale
    # of the budget (``tessera.search.mcts.long_share``); None: at ``long_budget`` at once.
    # Switched at once, they cost a search a step down in strength with more time.
    full_budget: LongBudget | None = None
    # The softmax temperature of a learned policy's priors from a long budget on, at the
    # player counts of ``soft_policy_players`` (elsewhere 1: the policy as fitted). A long
    # search can look past its priors, and priors fitted to whole games may all but rule
    # out a move it then never finds; softer ones let it.
    long_policy_temperature: float = 1.0
    soft_policy_players: tuple[int, ...] = ()


GENERAL_SEARCH = SearchDefaults()


@dataclass(frozen=True)
class SeededSetup:
    """A set-up drawn outside chance events, from the seed of ``Game.undealt`` (Azure's
    realm) unless the option ``option`` names it; OpenSpiel takes that seed as the game
    parameter ``parameter``."""

    option: str
    parameter: str


@dataclass(frozen=True)
class GameSpec:
    id: int  # word 0 of every state array of the game (the kernels')
    name: str  # the name of its kernels, notation and CLI argument
    display_name: str
    players: PlayerCounts
    options: dict[str, Option] = field(default_factory=dict)  # {name: Option}, in the order help shows them
    hidden: bool = False  # players see views that hide parts of the position
    search: SearchDefaults = GENERAL_SEARCH
    max_moves: int = 0  # the longest legal move list (the kernels' MAX_MOVES)
    chance_outcomes: int = 0  # at most, at one chance step: one tile or card, by colour
    seeded_setup: SeededSetup | None = None

    def option_defaults(self) -> dict[str, Any]:
        """{name: default} of the options with a default (an option defaulting to None
        leaves the choice to the set-up)."""
        return {name: option.default for name, option in self.options.items() if option.default is not None}
