"""MCTS from Python: options, time and iteration budgets, threads, tree reuse, results.

The simulations run in numba (``tessera.kernels.search.mcts``) in batches
(``tessera.search.batches``). With ``threads > 1`` the threads search one tree
together (tree parallelism with virtual loss): two separate trees are worth little more
than one, one tree with twice the simulations much more (docs/internals/mcts.md).
"""

import math
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from tessera.errors import OptionError, TesseraError
from tessera.games import GAMES, get_game
from tessera.games.spec import GENERAL_SEARCH
from tessera.kernels import bind
from tessera.kernels.constants import TERMINAL
from tessera.kernels.rng import make_rng
from tessera.kernels.search import mcts_layout as kernel  # the layout and parameters; the kernels per game: bind
from tessera.kernels.search import tree as tree_kernels  # one compile for every game
from tessera.kernels.search.clock import FOREVER
from tessera.search.loading import kernel_loader
from tessera.search.options import MODEL_BUILTIN, MODEL_NONE, default
from tessera.search.result import ExactValue, Progress, SearchResult, final_margins
from tessera.search.searcher import TreeSearch, move_line, ranked
from tessera.search.value_model import NO_MODEL, has_policy, model_for_position, model_weights

VALUES = {"win": kernel.VALUE_WIN, "margin": kernel.VALUE_MARGIN, "blend": kernel.VALUE_BLEND}
SELECTIONS = {"uct": kernel.SELECT_UCT, "puct": kernel.SELECT_PUCT}
ROLLOUTS = kernel.ROLLOUTS  # each compiled into instances of its own
CUT_ROLLOUTS = kernel.CUT_ROLLOUTS  # the rollouts that score the round's end: a value model's
PRIOR_TEMPERATURE = 2.0  # PUCT: the softmax temperature of the move heuristic's priors
AS_FITTED = 1.0  # the softmax temperature a policy's priors were fitted at
PV_LENGTH = 256
MB = 2**20
DEFAULT_MEMORY = int(default("memory") * MB)  # for a search's trees, all threads together
# A tree smaller than this is an error: compacted to half, it must still have room for the
# longest move list of any game (300, Azul's) beside the root's children.
MIN_NODES = 1000


def search_kernels(state, rollout, reuse=True):
    """``(kernel, args)`` of every kernel an MCTS search of ``state`` with ``rollout`` may
    call, on any number of trees, in the order a search loads them: the simulations, the
    compaction, with ``reuse`` tree reuse's ``keep_subtree`` (a search loads that one when
    it first follows a move, in ``play``: a single search, ``tessera best``, never reuses),
    and the result's: the finished games of its proven moves, and its lines. ``state`` may
    be any state of the game: only its type counts."""
    kernels = bind.instance(state[0], "mcts", rollout)
    nodes, stats, size = kernel.new_tree(1)
    prm, root = MctsOptions().kernel_params(state[0]), state.copy()
    listed = [
        (kernels.run_tree, (nodes, stats, size, root, 1, FOREVER, prm, make_rng(0), 1, NO_MODEL)),
        (tree_kernels.make_room, (nodes, stats, size, 1)),
    ]
    if reuse:
        listed.append((tree_kernels.keep_subtree, (nodes, stats, size, 0)))
    # A result's proven moves: the scores and payoffs of the games their lines end in.
    rules = bind.interface(state[0])
    players = int(rules.players(state))
    listed.append((rules.scores, (state, np.zeros(players, np.int64))))
    listed.append((rules.payoffs, (state, np.zeros(players, np.float64))))
    listed.append((tree_kernels.principal_variation, (nodes, 0, np.zeros(PV_LENGTH, np.int64))))
    return listed


def helper_kernels(state, rollout, reuse=True):
    """What a second process compiles while a search compiles ``run_tree``
    (``tessera.parallel_compile``): the game's kernels ``run_tree`` reaches last (its
    biggest: measured with numba's compile events), then the kernels loaded after it."""
    state = np.asarray(state, np.int64)  # a list: the helper has it from JSON
    rules = bind.interface(state[0])
    return [
        (rules.apply_move, (state, np.int64(0))),
        heuristic_kernel(rules, state),
        *search_kernels(state, rollout, reuse)[1:],
    ]


def heuristic_kernel(rules, state):
    """``(kernel, args)`` of what a search scores moves with: the game's ``move_heuristics``
    if it has one, else its ``move_heuristic``."""
    if hasattr(rules, "move_heuristics"):
        return rules.move_heuristics, (
            state,
            np.zeros(rules.MAX_MOVES, np.int64),
            np.int64(0),
            np.zeros(rules.MAX_MOVES, np.float64),
        )
    return rules.move_heuristic, (state, np.int64(0))


load_kernels = kernel_loader(search_kernels, helper_kernels)


@dataclass
class MctsOptions:
    iterations: int | None = None  # None: until time_limit
    time_limit: float | None = None  # seconds; None: until iterations
    # The defaults are the table's (tessera.search.options); they play far better per
    # simulation than uct/random/win (docs/search.md).
    threads: int = default("threads")
    seed: int = default("seed")
    value: str | None = None  # win | margin | blend; None: the game's own (``default_value``)
    select: str = default("select")  # uct | puct
    rollout: str | None = None  # random | greedy | round | mixed; None: the game's own (``position_defaults``)
    exploration: float | None = None  # None: the game's own (``default_exploration``)
    fpu: float = default("fpu")  # PUCT's value of an unvisited move; < 0: the parent's value plus it
    chance_width: int = default("width")
    memory: int = DEFAULT_MEMORY  # bytes for the trees of all threads together
    max_nodes: int | None = None  # per thread, instead of what ``memory`` holds (tests)
    # A model file, "builtin" or "none" (a value for round rollouts, a policy's priors);
    # None: the game's own (``position_defaults``).
    model: str | None = None
    # The softmax temperature of a model's policy priors; None: by the budget
    # (``default_policy_temperature``).
    policy_temperature: float | None = None
    reuse: bool = True

    def check(self):
        if self.iterations is None and self.time_limit is None:
            raise OptionError("MCTS needs --iterations or --time")
        if self.iterations is not None and self.iterations < 1:
            raise OptionError(f"iterations must be at least 1, not {self.iterations}")
        if self.time_limit is not None and not self.time_limit > 0:
            raise OptionError(f"time must be more than 0 seconds, not {self.time_limit}")
        if self.threads < 1:
            raise OptionError(f"threads must be at least 1, not {self.threads}")
        named = [("select", self.select, SELECTIONS)]
        if self.value is not None:  # None: the game's own
            named.insert(0, ("value", self.value, VALUES))
        if self.rollout is not None:
            named.append(("rollout", self.rollout, ROLLOUTS))
        for name, value, known in named:
            if value not in known:
                raise OptionError(f"unknown {name} '{value}' (known: {', '.join(known)})")
        if self.exploration is not None and not self.exploration >= 0:
            raise OptionError(f"exploration must be 0 or more, not {self.exploration}")
        if self.policy_temperature is not None and not self.policy_temperature > 0:
            raise OptionError(f"policy temperature must be more than 0, not {self.policy_temperature}")
        if not -1 <= self.fpu <= 1:
            raise OptionError(f"fpu must be from -1 to 1, not {self.fpu}")
        if self.chance_width < 1:
            raise OptionError(f"chance width must be at least 1, not {self.chance_width}")
        if self.model not in (None, MODEL_NONE):
            # A bad file: its one-line error now (builtin: that some game has one;
            # kernel_model picks the game's). A model without a policy only scores round
            # rollouts; one with a policy gives the priors under any rollout.
            weights = model_weights(self.model)[0]
            if self.rollout not in (None,) + CUT_ROLLOUTS and not has_policy(weights):
                raise OptionError(
                    f"model has no policy and scores the positions where round "
                    f"and mixed rollouts stop: it needs rollout round or mixed, "
                    f"not {self.rollout}"
                )
        if self.max_nodes is not None and self.max_nodes < MIN_NODES:
            raise OptionError(f"max nodes must be at least {MIN_NODES}, not {self.max_nodes}")
        if self.max_nodes is None and self.memory // self.threads < MIN_NODES * kernel.NODE_BYTES:
            least = -(-MIN_NODES * kernel.NODE_BYTES * self.threads // MB)
            raise OptionError(
                f"memory must be at least {least} MB for {self.threads} thread(s), not {self.memory / MB:g} MB"
            )

    def tree_nodes(self, node_bytes):
        """Nodes of each thread's tree: ``max_nodes``, or what the memory budget holds."""
        if self.max_nodes is not None:
            return self.max_nodes
        return self.memory // (self.threads * node_bytes)

    def shared_tree_nodes(self, node_bytes):
        """Nodes of the one tree all threads search: ``max_nodes`` for each thread, or what
        the memory budget holds."""
        if self.max_nodes is not None:
            return self.max_nodes * self.threads
        return self.memory // node_bytes

    def kernel_model(self, state):
        """The value model the kernels take for a search of ``state`` (its game and player
        count pick a built-in model, and the model left to the game): ``NO_MODEL`` without
        one; the errors of ``for_position``."""
        model = self.for_position(state).model
        if model == MODEL_NONE:
            return NO_MODEL
        return model_for_position(model, state)[0]

    def for_position(self, state):
        """These options with what they leave to the game of ``state`` and its player count
        filled in (``position_settings``, ``for_game``): the policy temperature only when
        the model has a policy. ModelError for a model of another game; OptionError for a
        policy temperature given to a search whose model has no policy (it would change
        nothing)."""
        rollout, model, exploration, value = position_settings(
            state, self.rollout, self.model, self.exploration, self.value, self.time_limit, self.iterations
        )
        temperature = policy_temperature(state, model, self.policy_temperature, self.time_limit, self.iterations)
        return replace(
            self.for_game(state[0]),
            rollout=rollout,
            model=model,
            exploration=exploration,
            value=value,
            policy_temperature=temperature,
        )

    def for_game(self, game):
        """These options with what they leave to ``game`` (an id or a name) filled in."""
        return replace(self, **{name: own for name, own in game_defaults(game).items() if getattr(self, name) is None})

    def kernel_params(self, game):
        """The kernels' parameters (``SearchParams``) for a search of ``game`` (an id or a name)."""
        options = self.for_game(game)
        policy_temperature = AS_FITTED if options.policy_temperature is None else options.policy_temperature
        return kernel.params(
            options.exploration,
            VALUES[options.value],
            SELECTIONS[options.select],
            options.chance_width,
            PRIOR_TEMPERATURE,
            policy_temperature,
            options.fpu,
        )


# The exploration constant and the value each game plays best with, at the other defaults
# (each game's spec, ``GameSpec.search``): the games that differ from the general defaults.
DEFAULT_EXPLORATION = GENERAL_SEARCH.exploration
DEFAULT_VALUE = GENERAL_SEARCH.value
EXPLORATION = {
    game.name: game.spec.search.exploration for game in GAMES if game.spec.search.exploration != DEFAULT_EXPLORATION
}
VALUE = {game.name: game.spec.search.value for game in GAMES if game.spec.search.value != DEFAULT_VALUE}
SEARCH_DEFAULTS = {game.name: game.spec.search for game in GAMES}
LEARNED_PLAYERS = {game.name: game.spec.search.learned_players for game in GAMES if game.spec.search.learned_players}
LEARNED_EXPLORATION = {
    game.name: game.spec.search.learned_exploration
    for game in GAMES
    if game.spec.search.learned_exploration is not None
}
LEARNED_VALUE = {
    game.name: game.spec.search.learned_value for game in GAMES if game.spec.search.learned_value is not None
}


def default_exploration(game, learned=False):
    """The exploration constant ``game`` (an id or a name) searches with by default; with
    ``learned``, when a learned value scores its rollouts where the game explores less
    (``explores_as_learned``)."""
    name = bind.game_name(game)
    if learned and name in LEARNED_EXPLORATION:
        return LEARNED_EXPLORATION[name]
    return EXPLORATION.get(name, DEFAULT_EXPLORATION)


def learned_search(rollout, model):
    """True for a search whose rollouts stop where a learned value scores them (round or
    mixed): ``rollout`` and ``model`` as ``position_defaults`` resolves them."""
    return rollout in CUT_ROLLOUTS and model != MODEL_NONE


def explores_as_learned(game, rollout, model, players):
    """True for a ``learned_search`` of ``game`` (a name) with ``players`` players that takes
    the game's learned exploration: with round rollouts, and with mixed ones at the player
    counts of its ``learned_mixed_players``."""
    return learned_search(rollout, model) and (
        rollout == "round" or players in SEARCH_DEFAULTS[game].learned_mixed_players
    )


def default_value(game, learned=False):
    """The value (a name of ``VALUES``) ``game`` (an id or a name) searches with by default;
    with ``learned``, for a ``learned_search``."""
    name = bind.game_name(game)
    if learned and name in LEARNED_VALUE:
        return LEARNED_VALUE[name]
    return VALUE.get(name, DEFAULT_VALUE)


def game_defaults(game):
    """The options ``game`` (an id or a name) decides where ``MctsOptions`` leaves them None."""
    return {"exploration": default_exploration(game), "value": default_value(game)}


def position_defaults(state, rollout, model, time_limit=None, iterations=None):
    """``(rollout, model)`` of a search of ``state`` with a budget of ``time_limit``
    seconds and ``iterations`` simulations (None: no such limit) where ``rollout`` and
    ``model`` (None) leave them to its game and player count.

    The model: the built-in one at the player counts where the game's spec says matches
    chose it (``SearchDefaults.learned_players``), unless a rollout other than round or
    mixed is asked for or the position has one of the game's ``unlearned_options`` on;
    else none. The rollout: with a model, the rollouts its value scores: round, or the
    game's ``long_rollout`` when the budget is long (``is_long_budget``); without one,
    greedy. (A model's policy, when it has one, gives the priors under any rollout named.)"""
    from tessera.kernels import games

    name = bind.game_name(state[0])
    if model is None:
        learned = LEARNED_PLAYERS.get(name, ())
        chosen = (
            games.players(state) in learned
            and rollout in (None,) + CUT_ROLLOUTS
            and not plays_unlearned_option(name, state)
        )
        model = MODEL_BUILTIN if chosen else MODEL_NONE
    if rollout is None:
        rollout = value_rollout(name, time_limit, iterations) if model != MODEL_NONE else "greedy"
    return rollout, model


def plays_unlearned_option(game, state):
    """True when ``state`` (a position of ``game``, a name) has an option on whose positions
    the game's search goes without its built-in model (``SearchDefaults.unlearned_options``)."""
    options = SEARCH_DEFAULTS[game].unlearned_options
    return any(get_game(game).option_in(state, option) for option in options)


def value_rollout(game, time_limit, iterations):
    """The rollout a value model brings to a search of ``game`` (a name) with this budget:
    its ``long_rollout`` when the budget is long, else round."""
    search = SEARCH_DEFAULTS[game]
    long = search.long_rollout is not None and is_long_budget(search.long_budget, time_limit, iterations)
    return search.long_rollout if long else "round"


def policy_temperature(
    state: np.ndarray, model: str, temperature: float | None, time_limit: float | None, iterations: int | None
) -> float | None:
    """The softmax temperature of the policy priors of a search of ``state`` with ``model``
    (as ``position_settings`` resolves it) and this budget: ``temperature``, or the game's
    own when None (``default_policy_temperature``); None when the model has no policy, and
    then OptionError for a ``temperature`` given, which would change nothing."""
    if model == MODEL_NONE or not has_policy(model_for_position(model, state)[0]):
        if temperature is not None:
            raise OptionError(f"policy temperature {temperature:g}: the search's model ({model}) has no policy")
        return None
    if temperature is None:
        from tessera.kernels import games

        temperature = default_policy_temperature(bind.game_name(state[0]), games.players(state), time_limit, iterations)
    return temperature


def default_policy_temperature(game, players, time_limit, iterations):
    """The softmax temperature of a learned policy's priors in a search of ``game`` (a name)
    with ``players`` players and this budget: at its ``soft_policy_players``, from
    ``AS_FITTED`` on a short budget to the game's ``long_policy_temperature`` on a full
    one (``long_share``); elsewhere ``AS_FITTED``."""
    search = SEARCH_DEFAULTS.get(game, GENERAL_SEARCH)  # a test's toy game has no spec
    if players not in search.soft_policy_players:
        return AS_FITTED
    share = long_share(search, time_limit, iterations)
    return AS_FITTED + share * (search.long_policy_temperature - AS_FITTED)


def long_share(search, time_limit, iterations):
    """How far a search of this budget (seconds, simulations; None: no such limit) has gone
    from short to full by the game's ``SearchDefaults`` ``search``: 0 on a short budget, 1
    from its ``full_budget`` on (and on every long budget when it has none), between them
    the budget's place on a log scale. A search ends at the first of its limits, so the
    least share of its limits is the budget's. A game without a ``long_budget`` searches
    alike at every budget: its share is 1."""
    if search.long_budget is None:
        return 1.0
    if not is_long_budget(search.long_budget, time_limit, iterations):
        return 0.0
    full = search.full_budget
    if full is None:
        return 1.0
    long = search.long_budget
    shares = [1.0]
    if time_limit is not None:
        shares.append(math.log(time_limit / long.seconds) / math.log(full.seconds / long.seconds))
    if iterations is not None:
        shares.append(math.log(iterations / long.simulations) / math.log(full.simulations / long.simulations))
    return min(shares)


def is_long_budget(long_budget, time_limit, iterations):
    """True when each limit of a search's budget (seconds, simulations; None: none) is at
    least ``long_budget``'s: the search ends at the first of them."""
    return (time_limit is None or time_limit >= long_budget.seconds) and (
        iterations is None or iterations >= long_budget.simulations
    )


def position_settings(
    state: np.ndarray,
    rollout: str | None,
    model: str | None,
    exploration: float | None,
    value: str | None = None,
    time_limit: float | None = None,
    iterations: int | None = None,
) -> tuple[str, str, float, str]:
    """``(rollout, model, exploration, value)`` of a search of ``state`` with that budget,
    each None left to its game and player count: ``position_defaults``, then the
    exploration and value of that search (``default_exploration``, ``default_value``:
    learned as ``explores_as_learned`` and ``learned_search`` say)."""
    from tessera.kernels import games

    rollout, model = position_defaults(state, rollout, model, time_limit, iterations)
    if exploration is None:
        name = bind.game_name(state[0])
        learned = explores_as_learned(name, rollout, model, games.players(state))
        exploration = default_exploration(state[0], learned)
        if learned_search(rollout, model) and not learned:  # mixed rollouts that keep the game's own
            # constant on a full budget, and start from the learned one on a short one
            short = default_exploration(state[0], True)
            share = long_share(SEARCH_DEFAULTS.get(name, GENERAL_SEARCH), time_limit, iterations)
            exploration = short + share * (exploration - short)
    if value is None:
        value = default_value(state[0], learned_search(rollout, model))
    return rollout, model, exploration, value


class Mcts(TreeSearch):
    """An MCTS searcher that keeps its tree between searches for reuse."""

    keeps_tree = True
    chance_message = "chance acts in this position (a refill): there is no move to choose"

    def __init__(self, options: MctsOptions) -> None:
        super().__init__(options)
        # the position ``tree`` has searched and the played moves led to; None: nothing to reuse
        self.root: np.ndarray | None = None
        self.root_node: Any = None  # in ``tree``, the node of the position the played moves led to
        self.tree: Any = None  # the arrays of the tree, kept for the searcher's life (``_prepare_tree``)
        self.tree_value: str | None = None  # the value its nodes' CHOSEN_VALUE holds (``MctsOptions.value``)
        self.rules: Any = None  # the game's interface and MCTS kernels (kernels.bind)
        self.kernels: Any = None
        self.bound_rollout: str | None = None  # the rollout ``kernels`` play

    def search(self, state: np.ndarray, progress: Progress | None = None) -> SearchResult:
        """Search ``state`` and rank its moves; ``progress(done, total, seconds)`` per batch."""
        options = self.options.for_position(state)  # once, before the clock
        self._bind(state, options.rollout)
        player = self._player(self.rules, state)
        model = options.kernel_model(state)
        if not self.rules.is_complete(state):
            raise TesseraError(
                "this position is a player's view with hidden parts: search it with information-set MCTS"
            )

        def begin():  # the budget covers reuse's kept subtree and the result
            self._prepare_tree(state, options.value)
            nodes, stats, size = self.tree
            prm = options.kernel_params(state[0])
            threads = self.options.threads
            reused = int(nodes[0, kernel.VISITS])
            needed = self.kernels.room.py_func(prm, threads)  # a Python call: no compile for it

            def run_thread(t, remaining, deadline):
                return self.kernels.run_tree(
                    nodes, stats, size, self.root, remaining, deadline, prm, self.rngs[t], threads, model
                )

            return (
                run_thread,
                lambda: tree_kernels.make_room(nodes, stats, size, needed),
                lambda seconds: self._result(player, seconds, reused),
            )

        return self._run(lambda: load_kernels(state, options.rollout, False), begin, progress)

    def _bind(self, state, rollout):
        """The kernels of ``state``'s game and ``rollout``; a new game, or a player count
        with another default rollout, drops the tree (and keeps its arrays)."""
        if self.rules is None or self.rules.GAME_ID != state[0] or self.bound_rollout != rollout:
            self.rules = bind.interface(state[0])
            self.kernels = bind.instance(state[0], "mcts", rollout)
            self.bound_rollout = rollout
            self.root = None

    # ---- tree reuse -------------------------------------------------------------------

    def play(self, move: int) -> None:
        """Follow a move made in the game, keeping the subtree below it for the next search.

        Moves the tree has not seen, and chance, drop the tree.
        """
        if self.root is None or self.rules.to_move(self.root) < 0:
            self.root = None
            return
        nodes = self.tree[0]
        start = nodes[self.root_node, kernel.FIRST]
        children = range(start, start + nodes[self.root_node, kernel.COUNT]) if start >= 0 else ()
        match = [c for c in children if nodes[c, kernel.MOVE] == move]
        if not match:
            self.root = None
            return
        self.root_node = match[0]
        self.rules.apply_move(self.root, move)
        if self.options.reuse:  # the next search keeps the subtree: load its kernel before its clock
            rollout = self.options.for_position(self.root).rollout
            load_kernels(self.root, rollout, True)  # once a process, as every load

    def _prepare_tree(self, state, value):
        """Reuse the tree when ``state`` is where the played moves led and its nodes keep
        their chosen values by ``value``; else start afresh.

        Either way the search keeps the arrays it has (their size is the options'): their
        pages are touched already, where a new array's pages fault on their first write,
        which costs a short search a share of its simulations (results/strength/README.md,
        "A tree's arrays kept between searches").
        """
        reusable = (
            self.options.reuse
            and self.root is not None
            and self.tree_value == value
            and np.array_equal(self.root, state)
        )
        wanted = self.options.shared_tree_nodes(kernel.NODE_BYTES)
        if self.tree is None or len(self.tree[0]) != wanted:
            self.tree = kernel.new_tree(wanted)
        elif reusable and self.root_node:
            self.root = None  # until the tree is whole again (Ctrl-C may come between)
            tree_kernels.keep_subtree(*self.tree, self.root_node)
        elif not reusable:
            kernel.clear_tree(self.tree)
        self.tree_value = value
        self.root = state.copy()
        self.root_node = 0

    # ---- results ----------------------------------------------------------------------

    def _result(self, player, seconds, reused):
        nodes, stats, size = self.tree
        first = int(nodes[0, kernel.FIRST])
        count = int(nodes[0, kernel.COUNT])
        # The root's children column by column: reading numpy scalars one child at a time
        # took about 2 ms for Azul's opening, as long as a 2-ms search itself.
        children = slice(first, first + count)
        moves = nodes[children, kernel.MOVE].tolist()
        visits = nodes[children, kernel.VISITS].tolist()
        wins = stats[children, kernel.WIN + player].tolist()
        margins = stats[children, kernel.MARGIN + player].tolist()
        priors = stats[children, kernel.PRIOR].tolist() if self.options.select == "puct" else [None] * count
        expanded = (nodes[children, kernel.FIRST] != kernel.UNEXPANDED).tolist()
        proven = (nodes[children, kernel.PROVEN] != 0).tolist()
        pv = np.zeros(PV_LENGTH, np.int64)
        lines = [
            move_line(
                moves[i],
                visits[i],
                wins[i],
                margins[i],
                priors[i],
                pv[: tree_kernels.principal_variation(nodes, first + i, pv)].tolist() if expanded[i] else [moves[i]],
            )
            for i in range(count)
        ]
        for line, child, exact in zip(lines, range(first, first + count), proven):
            if exact:
                line.exact = self._proven_value(child, player)
        root_proven = bool(nodes[0, kernel.PROVEN])
        if root_proven:  # every move's value is exact: the best is known, whatever the visits
            chosen_values = stats[children, kernel.CHOSEN_VALUE].tolist()
            order = sorted(range(count), key=lambda i: (-chosen_values[i], -visits[i]))
            lines = [lines[i] for i in order]
        else:
            lines = ranked(lines)
        root_visits = int(nodes[0, kernel.VISITS])
        tree_nodes = int(size[kernel.USED])
        return SearchResult(
            algo="mcts",
            player=int(player),
            position_hash=int(self.rules.position_hash(self.root)),
            visits=root_visits - reused,
            seconds=seconds,
            value=float(stats[0, kernel.WIN + player]) / root_visits,
            margin=float(stats[0, kernel.MARGIN + player]) / root_visits,
            moves=lines,
            tree_nodes=tree_nodes,
            tree_bytes=tree_nodes * kernel.NODE_BYTES,
            compactions=int(size[kernel.COMPACTIONS]),
            threads=self.options.threads,
            reused_visits=reused,
            exact=lines[0].exact if root_proven else None,
        )

    def _proven_value(self, child, player):
        """The exact value for ``player`` of the proven root child ``child``: the result of
        the game its proven line ends in (``kernels.search.mcts.follow_proven_line``), or
        None if the line leaves the tree (a compaction freed part of it)."""
        nodes, stats, _ = self.tree
        state = self.root.copy()
        node = child
        self.rules.apply_move(state, int(nodes[node, kernel.MOVE]))
        while self.rules.to_move(state) != TERMINAL:
            first = int(nodes[node, kernel.FIRST])
            if first < 0:
                return None
            values = stats[first : first + int(nodes[node, kernel.COUNT]), kernel.CHOSEN_VALUE]
            node = first + int(np.argmax(values))  # the first of equals, as the kernel's
            self.rules.apply_move(state, int(nodes[node, kernel.MOVE]))
        return finished_game_value(self.rules, state, player)


def finished_game_value(rules, state, player):
    """``ExactValue`` of a finished game for ``player``: its score margin over the best other
    player and its payoff (a shared win is a draw)."""
    count = int(rules.players(state))
    scores = np.zeros(count, np.int64)
    payoffs = np.zeros(count, np.float64)
    rules.scores(state, scores)
    rules.payoffs(state, payoffs)
    win_rate = float(payoffs[player])
    result = "win" if win_rate == 1 else "loss" if win_rate == 0 else "draw"
    return ExactValue(margin=float(final_margins(scores)[player]), horizon="game", result=result, win_rate=win_rate)
