"""A self-play run's parameters, and what game ``i`` of it is.

A run is ``games`` games of one game with fixed options between the agents of
``agents``, cut into chunks of ``chunk_size``: chunk ``k`` is games
``[k * chunk_size, (k + 1) * chunk_size)``. Game ``i`` is fixed by (``seed``, ``i``)
alone: its seating (``seating.lineup``), its start position (``Game.new`` with
``seeds.game_seeds``) and its agents' seeds (``seeds.agent_seeds``). So the
records do not depend on how many workers play, where, or in what order, and a
resumed run matches one that was never stopped.

``record_search`` (``--record-search``) adds the searches' root statistics to the
records (``searchstats``); run.json holds it only when it is on, so a run without it
keeps the plan, and the records, of a run made before it existed.

``searches`` records, for each agent, what its search resolves to where its spec leaves it
to the game (``Agent.search_settings``: an MCTS agent's rollout, exploration, value and
model with its hash; None for the others). A version of Tessera whose defaults, or
built-in models, differ would play other games under the same specs, so a resume that
resolves them otherwise is refused. A run.json without it (a run made before it) resumes
unchecked.
"""

import shlex
from dataclasses import asdict, dataclass, field

from tessera.errors import OptionError
from tessera.selfplay import seating
from tessera.selfplay.seeds import agent_seeds, game_seeds

VERSION = 1
MAX_SEED = 2**63 - 1
COMPARED = ("game", "options", "agents", "games", "seed", "chunk_size", "record_search")
FIELD_TYPES = {
    "game": str,
    "options": dict,
    "agents": list,
    "games": int,
    "seed": int,
    "chunk_size": int,
    "seats": int,
    "version": int,
    "record_search": int,
}
OWN_FLAGS = ("players", "variant")  # options `tessera selfplay` takes as flags of their own
TYPE_NAMES = {str: "text", dict: "an object", list: "a list", int: "a whole number"}
BATCHED_CHUNK_SIZE = 2000  # default games per chunk when every agent is random or greedy,
SEARCH_CHUNK_SIZE = 250  # and with a search agent (``default_chunk_size``)


@dataclass
class Plan:
    """A run's parameters, as run.json holds them."""

    game: str
    options: dict
    agents: list  # specs, in --agents order
    games: int
    seed: int
    chunk_size: int
    seats: int  # players per game, as the game's options make it
    version: int = field(default=VERSION)
    record_search: int = 0  # root moves recorded per searched move; 0: no search statistics
    searches: list | None = None  # per agent, its search's resolved settings (None: not recorded)

    @property
    def chunks(self):
        return -(-self.games // self.chunk_size)

    def chunk_games(self, chunk):
        return range(chunk * self.chunk_size, min((chunk + 1) * self.chunk_size, self.games))

    def lineups(self, indices):
        """[games, seats]: the agent index at each seat of each game."""
        return seating.lineups(len(self.agents), self.seats, indices)

    def game_seeds(self, indices):
        return game_seeds(self.seed, indices)

    def agent_seeds(self, seeds):
        return agent_seeds(seeds, self.seats)

    def labels(self):
        """A name per agent: its spec, numbered where two agents share one."""
        return [spec if self.agents.count(spec) == 1 else f"{spec} ({i + 1})" for i, spec in enumerate(self.agents)]

    def to_json(self):
        obj = asdict(self)
        if not self.record_search:
            del obj["record_search"]  # run.json as it was before search statistics
        if self.searches is None:
            del obj["searches"]
        return obj

    @staticmethod
    def from_json(obj):
        """The plan of a run.json; ValueError naming the first field that is not what
        ``make_plan`` writes."""
        plan = Plan(**obj)
        for name, kind in FIELD_TYPES.items():
            if type(getattr(plan, name)) is not kind:
                raise ValueError(f"{name} is {getattr(plan, name)!r}, not {TYPE_NAMES[kind]}")
        for name in ("games", "chunk_size", "seats"):
            if getattr(plan, name) < 1:
                raise ValueError(f"{name} is {getattr(plan, name)}, not at least 1")
        if plan.record_search < 0:
            raise ValueError(f"record_search is {plan.record_search}, not at least 0")
        if not all(type(spec) is str for spec in plan.agents):
            raise ValueError(f"agents {plan.agents!r} are not agent specs")
        if plan.searches is not None and (
            type(plan.searches) is not list
            or len(plan.searches) != len(plan.agents)
            or not all(search is None or type(search) is dict for search in plan.searches)
        ):
            raise ValueError(f"searches {plan.searches!r} are not one per agent")
        return plan

    def resume_command(self, out_dir):
        """The `tessera selfplay ... --resume` that finishes this run in ``out_dir`` (the seed,
        chunk size and search recording come from its run.json), quoted for a POSIX shell."""
        words = ["tessera", "selfplay", self.game, "--games", str(self.games), "--agents", ",".join(self.agents)]
        for name, value in self.options.items():
            if name in OWN_FLAGS:
                words += [f"--{name}", str(value)]
            elif value is not None:  # None: left to the game (e.g. dealt)
                words += ["--option", f"{name}={_option_text(value)}"]
        return shlex.join([*words, "--out", str(out_dir), "--resume"])

    def differences(self, other):
        """The compared parameters that differ, as 'name: ours vs theirs' texts."""
        mine, theirs = asdict(self), asdict(other)
        found = [
            f"{name} {_shown(mine[name], name)} there, {_shown(theirs[name], name)} here"
            for name in COMPARED
            if mine[name] != theirs[name]
        ]
        if found or self.searches is None or other.searches is None:
            return found
        return [
            f"{label}'s search {_search_shown(there)} there, {_search_shown(here)} here "
            "(this version's defaults or built-in models differ from the run's: finish it "
            "with the version that started it)"
            for label, there, here in zip(self.labels(), self.searches, other.searches)
            if there != here
        ]


def _option_text(value):
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _shown(value, name=None):
    if name == "record_search":
        return f"on (top {value})" if value else "off"
    if isinstance(value, list):
        return ",".join(value)
    if isinstance(value, dict):
        return " ".join(f"{k}={v}" for k, v in value.items()) or "(none)"
    return str(value)


def _search_shown(settings):
    """An agent's resolved search settings in a line (a model's hash shortened)."""
    if settings is None:
        return "(none)"
    return " ".join(f"{k}={str(v)[:8] if k == 'model_hash' else v}" for k, v in settings.items())


def split_agents(text):
    """The specs of ``--agents``: comma-separated, where a piece that is only ``key=value``
    continues the spec before it (``mcts:iters=500,c=0.7,greedy`` is two agents)."""
    specs = []
    for piece in (part.strip() for part in text.split(",")):
        if specs and "=" in piece and ":" not in piece:
            specs[-1] += "," + piece
        else:
            specs.append(piece)
    if any(not spec for spec in specs):
        raise OptionError(f"--agents '{text}' has an empty agent spec")
    return specs


def default_chunk_size(agents):
    """Games per chunk when none is asked for: a chunk's file and bookkeeping cost as
    much as a few hundred random games, so games played in the kernel go in big chunks;
    a chunk with search agents takes minutes, and Ctrl-C loses the chunks in flight."""
    from tessera.selfplay.chunk import all_batched

    return BATCHED_CHUNK_SIZE if all_batched(agents) else SEARCH_CHUNK_SIZE


def make_plan(game, options, agents, games, seed, chunk_size=None, record_search=0):
    """A checked ``Plan`` for ``game`` (a ``Game``); raises OptionError naming the fault.
    ``chunk_size`` None: ``default_chunk_size(agents)``. ``record_search``: the root moves
    recorded per searched move (``searchstats``), 0 for no search statistics."""
    from tessera.agents import parse_agent

    if not agents:
        raise OptionError("--agents needs at least one agent spec")
    parsed = [parse_agent(spec) for spec in agents]  # a bad spec raises its one-line error
    if games < 1:
        raise OptionError(f"--games must be at least 1, not {games}")
    if chunk_size is None:
        chunk_size = default_chunk_size(agents)
    if chunk_size < 1:
        raise OptionError(f"--chunk-size must be at least 1, not {chunk_size}")
    if record_search < 0:
        raise OptionError(f"--record-top must be at least 1, not {record_search}")
    if not 0 <= seed <= MAX_SEED:
        raise OptionError(f"--seed must be from 0 to {MAX_SEED}, not {seed}")
    game.check_options(options)
    options = {name: options.get(name, default) for name, (_, default, _) in game.options.items()}
    start = game.new(0, **options)  # the game checks its options here
    seats = int(game.kernels().players(start))
    searches = [agent.search_settings(start) for agent in parsed]
    return Plan(
        game=game.name,
        options=options,
        agents=list(agents),
        games=games,
        seed=seed,
        chunk_size=chunk_size,
        seats=seats,
        record_search=record_search,
        searches=searches,
    )
