"""One tiny search of every kind on each named game, so that later searches load nothing."""

from tessera.games import get_game
from tessera.search.alphabeta import search_alphabeta
from tessera.search.ismcts import Ismcts
from tessera.search.mcts import Mcts, MctsOptions
from tessera.search.report import search_report


def warm_up(names):
    for name in names:
        game = get_game(name)
        state = game.new(0)
        result = Mcts(MctsOptions(iterations=8)).search(state)
        search_report("analyze", game, state, result, {}, False)
        search_alphabeta(state, depth=1)
        view = game.view(state, 0)
        if game.observer(view) is not None:
            Ismcts(MctsOptions(iterations=8)).search(view)
