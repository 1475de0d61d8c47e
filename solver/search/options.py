"""Every option of a search, once: its name, kind, unit, range, default, help, and the
name each front end gives it.

One search has one vocabulary here (the fields of ``SearchRequest``) and an alias on each
surface: the flag of ``tessera best``, the key of an agent spec (``mcts:iters=500,c=1.4``),
the field of an ``tessera analyze`` query, the keyword of ``Position.best``. The command's
click options, the agents' keys and the API's keywords are made from this table; the
analyze schema (``tessera/analysis/query.schema.json``) is checked against it by a test.

A range is the one the analyze schema bounds the option to; the command line and the
agents check only the lower bounds (``MctsOptions.check``).
"""

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, TypeVar

DEFAULT_VISITS = 10_000  # MCTS simulations when neither visits nor time is given
GAMES_OWN = "the game's own"  # a default each game's spec decides (``GameSpec.search``)
MCTS, ALPHABETA, SOLVE = "mcts", "alphabeta", "solve"
ALGOS = (MCTS, ALPHABETA, SOLVE)
MODEL_NONE = "none"  # the model option's spelling of no model
MODEL_BUILTIN = "builtin"  # its spelling of the game's built-in model (package data)


@dataclass(frozen=True)
class SearchOption:
    name: str  # the field of ``SearchRequest``
    kind: type  # int, float or str
    help: str  # the help of ``tessera best``; {default} is the default
    algos: tuple[str, ...] = (MCTS,)  # the searches that take it
    default: object = None  # None: unset; GAMES_OWN: the game's spec decides
    unit: str = ""
    choices: tuple[str, ...] = ()  # the names a str option takes
    minimum: float | None = None
    maximum: float | None = None
    above: float | None = None  # an exclusive minimum
    cli: tuple[str, ...] = ()  # the flags of ``tessera best``
    metavar: str | None = None
    agent: str | None = None  # the key of an agent spec
    analyze: str | None = None  # the field of an analyze query
    api: str | None = None  # the keyword of ``Position.best`` and ``tessera.best``

    @property
    def help_text(self) -> str:
        return self.help.format(default=self.default)


# In the order of ``tessera best --help``.
OPTIONS = (
    SearchOption(
        "visits",
        int,
        f"MCTS simulations, shared by the threads [default: {DEFAULT_VISITS} unless --time is given]",
        unit="simulations",
        minimum=1,
        maximum=100_000_000,
        cli=("--iterations", "-n"),
        agent="iters",
        analyze="maxVisits",
        api="visits",
    ),
    SearchOption(
        "time",
        float,
        "seconds to search (with --iterations too: whichever ends first)",
        algos=ALGOS,
        unit="seconds",
        above=0,
        maximum=86400,
        cli=("--time", "-t"),
        agent="time",
        analyze="maxTime",
        api="time",
    ),
    SearchOption(
        "algo",
        str,
        "MCTS, depth-limited alpha-beta, or the exact solver",
        algos=ALGOS,
        default=MCTS,
        choices=ALGOS,
        cli=("--algo",),
        metavar="[mcts|alphabeta|solve]",
        analyze="algo",
        api="algo",
    ),
    SearchOption(
        "depth",
        int,
        "alpha-beta plies [default: deepen until --time, else to the end of the round]",
        algos=(ALPHABETA,),
        unit="plies",
        minimum=1,
        maximum=128,
        cli=("--depth", "-d"),
        agent="depth",
        analyze="depth",
        api="depth",
    ),
    SearchOption(
        "threads",
        int,
        "search threads (MCTS: on one tree; reproducible with 1) [default: the cores this process may use]",
        default=1,
        minimum=1,
        maximum=64,
        cli=("--threads",),
        agent="threads",
        analyze="threads",
        api="threads",
    ),
    SearchOption(
        "seed",
        int,
        "MCTS seed [default: a random one, shown in the output]",
        default=0,
        minimum=0,
        maximum=2**32 - 1,
        cli=("--seed",),
        analyze="seed",
        api="seed",
    ),
    SearchOption(
        "value",
        str,
        "MCTS: what a node's value is [default: blend for Azul, margin for"
        " the others; Azure: win with a learned value at the round cut]",
        default=GAMES_OWN,
        choices=("win", "margin", "blend"),
        cli=("--value",),
        metavar="[win|margin|blend]",
        agent="value",
        analyze="value",
        api="value",
    ),
    SearchOption(
        "select",
        str,
        "MCTS: the selection rule [default: {default}]",
        default="puct",
        choices=("uct", "puct"),
        cli=("--select",),
        metavar="[uct|puct]",
        agent="select",
        analyze="select",
        api="select",
    ),
    SearchOption(
        "rollout",
        str,
        "MCTS: the rollout policy; round stops at the round's end and"
        " scores it, mixed scores it and plays on, backing up the mean of the two"
        " [default: round with a model (Azul: mixed when each limit is at least"
        " 0.035 s or 4700 simulations), else greedy]",
        default=GAMES_OWN,
        choices=("random", "greedy", "round", "mixed"),
        cli=("--rollout",),
        metavar="[random|greedy|round|mixed]",
        agent="rollout",
        analyze="rollout",
        api="rollout",
    ),
    SearchOption(
        "exploration",
        float,
        "MCTS: the exploration constant [default: Azul 2.0 (1.0"
        " with a learned value at the round cut, and at 3 and 4 players with mixed"
        " rollouts too; 2-player mixed ones rise from 1.0 at 0.035 s to 2.0 at 0.2 s),"
        " Azure 0.7, the others 1.4]",
        default=GAMES_OWN,
        minimum=0,
        maximum=100,
        cli=("--exploration", "-c"),
        agent="c",
        analyze="exploration",
        api="exploration",
    ),
    SearchOption(
        "memory",
        float,
        "MCTS: MB for the trees of all threads; a full tree frees its"
        " least visited parts and keeps growing [default: {default:g}]",
        default=1024.0,
        unit="MB",
        above=0,
        maximum=65536,
        cli=("--memory",),
        agent="memory",
        analyze="memory",
        api="memory",
    ),
    SearchOption(
        "fpu",
        float,
        "MCTS with PUCT: the value of a move not yet visited, from 0 to 1;"
        " below 0, the parent's value plus it [default: {default}]",
        default=0.5,
        minimum=-1,
        maximum=1,
        cli=("--fpu",),
        agent="fpu",
        analyze="fpu",
        api="fpu",
    ),
    SearchOption(
        "policy_temperature",
        float,
        "MCTS: the softmax temperature of a model's policy"
        " priors; above 1 gives the less likely moves more [default: 2-player Azul from 1"
        " at 0.035 s rising to 1.5 at 0.2 s, else 1: the policy as fitted]",
        default=GAMES_OWN,
        above=0,
        maximum=100,
        cli=("--policy-temperature",),
        metavar="T",
        agent="policy_temperature",
        analyze="policyTemperature",
        api="policy_temperature",
    ),
    SearchOption(
        "width",
        int,
        "MCTS: the outcomes a chance node keeps [default: {default}]",
        default=8,
        unit="outcomes",
        minimum=1,
        maximum=256,
        cli=("--width",),
        agent="width",
        analyze="chanceWidth",
        api="width",
    ),
    SearchOption(
        "model",
        str,
        "MCTS: a model file (tessera train): its value scores the"
        " positions where round and mixed rollouts stop instead of the game's estimate,"
        " and its policy, when it has one, gives PUCT's priors with any rollout (a model"
        " without a policy needs one of those two rollouts);"
        f" {MODEL_BUILTIN}: the game's built-in model for its player count (every game"
        " has one);"
        f" {MODEL_NONE}: no model [default: {MODEL_BUILTIN} for Azul, 2- and 3-player"
        f" Summer Pavilion and Azure without Cosmos unless another rollout than round"
        f" or mixed is asked for, else {MODEL_NONE}]",
        default=GAMES_OWN,
        cli=("--model",),
        metavar=f"PATH|{MODEL_BUILTIN}|{MODEL_NONE}",
        agent="model",
        analyze="model",
        api="model",
    ),
)
OPTION = {option.name: option for option in OPTIONS}
MCTS_OPTIONS = tuple(option for option in OPTIONS if option.algos == (MCTS,))


def default(name: str) -> Any:
    """The default of option ``name`` (None when unset or left to the game)."""
    value = OPTION[name].default
    return None if value == GAMES_OWN else value


def aliases(surface: str, options: Iterable[SearchOption] = OPTIONS) -> dict[str, SearchOption]:
    """{alias on ``surface`` ("cli", "agent", "analyze", "api"): option} of ``options``
    that have one, in the table's order; for "cli", the first flag without its dashes."""
    named: dict[str, SearchOption] = {}
    for option in options:
        alias = getattr(option, surface)
        if alias:
            named[alias[0].lstrip("-") if surface == "cli" else alias] = option
    return named


Command = TypeVar("Command", bound=Callable[..., Any])


def click_options(command: Command) -> Command:
    """``command`` (a click command function) with a click option for each option of the
    table that ``tessera best`` shows, in the table's order; each reaches the command
    under its own name."""
    import click

    for option in reversed(OPTIONS):
        if not option.cli:
            continue
        settings: dict[str, Any] = {"help": option.help_text}
        if option.kind is not str:
            settings["type"] = option.kind
        if option.metavar:
            settings["metavar"] = option.metavar
        if option.name == "algo":  # the one default the command line shows
            settings.update(default=option.default, show_default=True)
        command = click.option(*option.cli, option.name, **settings)(command)
    return command
