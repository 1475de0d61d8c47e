"""Information-set MCTS from Python: the MCTS options, budgets and threads, on views too.

The simulations run in numba (``tessera.kernels.search.ismcts``) in batches
(``tessera.search.batches``). The position may be complete or the view of the
player to move; every simulation searches one determinization of it. With
``threads > 1`` each thread grows its own tree and the root moves' statistics
are summed by move.

Options are ``MctsOptions``; two have no effect here: ``chance_width`` (chance is
open loop, not in the tree) and ``reuse`` (every search starts a fresh tree). A model's
value scores where round and mixed rollouts stop, in each determinization; its policy,
when it has one, gives PUCT's priors over each determinization's moves.
"""

import numpy as np

from tessera.kernels import bind
from tessera.kernels.rng import make_rng
from tessera.kernels.search import ismcts_layout as kernel  # the layout; the kernels per game: bind
from tessera.kernels.search.clock import FOREVER
from tessera.search.loading import kernel_loader
from tessera.search.mcts import MctsOptions, heuristic_kernel  # noqa: F401  (MctsOptions: of both searches)
from tessera.search.result import Progress, SearchResult
from tessera.search.searcher import TreeSearch, move_line, ranked
from tessera.search.value_model import NO_MODEL

PV_LENGTH = 256
ROLLOUTS = bind.VARIANTS["ismcts"]


def search_kernels(state, rollout):
    """``(kernel, args)`` of every kernel an IS-MCTS search of ``state`` with ``rollout``
    may call, on any number of trees, in the order a search loads them. ``state`` may be
    any state (or view) of the game: only its type counts."""
    kernels = bind.instance(state[0], "ismcts", rollout)
    nodes, stats, size = kernel.new_tree(1)
    prm, root = MctsOptions().kernel_params(state[0]), state.copy()
    buffer = np.zeros(PV_LENGTH, np.int64)
    return [
        (kernels.run_tree, (nodes[0], stats[0], size[0], root, 1, FOREVER, prm, make_rng(0), NO_MODEL)),
        (kernels.children, (nodes[0], 0, buffer)),
        (kernels.principal_variation, (nodes[0], 0, buffer)),
    ]


def helper_kernels(state, rollout):
    """What a second process compiles while a search compiles ``run_tree``
    (``tessera.parallel_compile``): the game's kernels ``run_tree`` reaches after its own
    compaction, biggest first (measured with numba's compile events), then the kernels
    loaded after it."""
    state = np.asarray(state, np.int64)  # a list: the helper has it from JSON
    rules, move = bind.interface(state[0]), np.int64(0)
    return [
        (rules.resolve_chance, (state, make_rng(0))),
        heuristic_kernel(rules, state),
        (rules.apply_move, (state, move)),
        *search_kernels(state, rollout)[1:],
    ]


load_kernels = kernel_loader(search_kernels, helper_kernels)


class Ismcts(TreeSearch):
    """An IS-MCTS searcher for the player to move in a position or in that player's view."""

    def __init__(self, options: MctsOptions) -> None:
        super().__init__(options)
        self.tree = None  # the threads' trees' arrays, kept between searches (``_fresh_tree``)

    def search(self, state: np.ndarray, progress: Progress | None = None) -> SearchResult:
        """Search ``state`` and rank its moves; ``progress(done, total, seconds)`` per batch."""
        options = self.options.for_position(state)  # once, before the clock
        rollout = options.rollout
        rules, kernels = bind.interface(state[0]), bind.instance(state[0], "ismcts", rollout)
        player = self._player(rules, state)
        model = options.kernel_model(state)

        def begin():
            root = state.copy()
            tree = self._fresh_tree()
            nodes, stats, size = tree
            prm = options.kernel_params(state[0])

            def run_thread(t, remaining, deadline):
                return kernels.run_tree(
                    nodes[t], stats[t], size[t], root, remaining, deadline, prm, self.rngs[t], model
                )

            return (run_thread, lambda: None, lambda seconds: self._result(rules, kernels, root, tree, player, seconds))

        return self._run(lambda: load_kernels(state, rollout), begin, progress)

    def _fresh_tree(self):
        """Every thread's tree, its root alone, in the arrays of the last search when they
        have the size the options ask for: their pages are touched already, where a new
        array's pages fault on their first write (MCTS's ``_prepare_tree``)."""
        threads, nodes = self.options.threads, self.options.tree_nodes(kernel.NODE_BYTES)
        if self.tree is None or self.tree[0].shape[:2] != (threads, nodes):
            self.tree = kernel.new_tree(nodes, threads)
            return self.tree
        return kernel.clear_tree(self.tree)

    def _result(self, rules, kernels, root, tree, player, seconds):
        """Every root move, its statistics summed over the threads' trees by move.

        Child lists differ between trees, so children are matched by move; a legal
        move no simulation tried is listed with no visits.
        """
        nodes, stats, size = tree
        places = {}  # move -> [(tree, child)]
        buffer = np.empty(rules.MAX_MOVES, np.int64)
        for move in buffer[: rules.legal_moves(root, buffer)]:
            places[int(move)] = []
        for t in range(self.options.threads):
            for child in buffer[: kernels.children(nodes[t], 0, buffer)]:
                places.setdefault(int(nodes[t, child, kernel.MOVE]), []).append((t, int(child)))
        pv = np.zeros(PV_LENGTH, np.int64)
        lines = []
        for move, found in places.items():
            visits = sum(int(nodes[t, c, kernel.VISITS]) for t, c in found)
            wins = sum(float(stats[t, c, kernel.WIN + player]) for t, c in found)
            margins = sum(float(stats[t, c, kernel.MARGIN + player]) for t, c in found)
            prior, variation = None, [move]
            if found:
                t, c = max(found, key=lambda place: nodes[place[0], place[1], kernel.VISITS])
                variation = [int(m) for m in pv[: kernels.principal_variation(nodes[t], c, pv)]]
                if self.options.select == "puct":
                    prior = float(stats[t, c, kernel.PRIOR])
            lines.append(move_line(move, visits, wins, margins, prior, variation))
        ranked(lines)
        root_visits = int(nodes[:, 0, kernel.VISITS].sum())
        return SearchResult(
            algo="ismcts",
            player=int(player),
            position_hash=int(rules.position_hash(root)),
            visits=root_visits,
            seconds=seconds,
            value=float(stats[:, 0, kernel.WIN + player].sum()) / root_visits,
            margin=float(stats[:, 0, kernel.MARGIN + player].sum()) / root_visits,
            moves=lines,
            tree_nodes=int(size[:, kernel.USED].sum()),
            tree_bytes=int(size[:, kernel.USED].sum()) * kernel.NODE_BYTES,
            compactions=int(size[:, kernel.COMPACTIONS].sum()),
            threads=self.options.threads,
        )
