"""One game played by action ids, for the PettingZoo and OpenSpiel adapters: a complete
position, its legal action ids, its observations, and chance drawn from a seed.

The rules are the game's kernels (``kernels.games``' interface, on ``Position.state``);
action ids and observations are ``solver.rl.encoding``'s.
"""
import numpy as np

from kernels.constants import CHANCE, TERMINAL
from kernels.rng import CHANCE_SALT, make_rng
from solver.errors import MoveError
from solver.games import get_game
from solver.position import Position
from solver.rl.encoding import Encoding


class Table:
    """A game of ``game`` with ``options``; ``deal(seed)`` starts one (``Position.new``)."""

    def __init__(self, game, **options):
        self.encoding = Encoding(game, **options)
        self.game = get_game(game)
        self.rules = self.game.kernels()
        self.options = options
        self.players = self.encoding.players
        self.state = None
        self._moves = np.empty(self.rules.MAX_MOVES, np.int64)
        self._probs = np.empty(self.rules.MAX_MOVES, np.float64)
        self._rng = None

    def deal(self, seed):
        """A new game: ``Position.new(game, seed)``; later chance events drawn from ``seed`` too."""
        self.state = self.game.new(seed, **self.options)
        self._rng = make_rng(seed ^ CHANCE_SALT)

    def undealt(self, seed=0):
        """The start before its first chance event (for a caller that draws chance itself)."""
        self.state = self.game.undealt(seed, **self.options)
        self._rng = None

    @property
    def to_move(self):
        """The player to act (from 0), ``CHANCE`` or ``TERMINAL``."""
        return int(self.rules.to_move(self.state))

    @property
    def is_over(self):
        return self.to_move == TERMINAL

    def legal_actions(self):
        """The action ids of whoever acts, ascending (at chance: the outcomes' ids, see
        ``chance_outcomes``)."""
        if self.to_move == CHANCE:
            return [action for action, _ in self.chance_outcomes()]
        count = self.rules.legal_moves(self.state, self._moves)
        return sorted(self.encoding.action_of_move(self.state, m) for m in self._moves[:count])

    def mask(self):
        mask = np.zeros(self.encoding.num_actions, np.int8)
        if self.to_move >= 0:
            mask[self.legal_actions()] = 1
        return mask

    def chance_outcomes(self):
        """[(outcome, probability)] when chance acts: outcome ``c`` draws colour ``c``."""
        count = self.rules.chance_outcomes(self.state, self._moves, self._probs)
        base = self.chance_base()
        return [(int(m) - base, float(p)) for m, p in zip(self._moves[:count], self._probs[:count])]

    def chance_base(self):
        """The engine's code of the chance move drawing colour 0 (chance codes are it + colour)."""
        return CHANCE_BASES[self.game.name]

    def play(self, action):
        """Play the action id ``action`` of the player to act (MoveError if not legal)."""
        if action not in self.legal_actions():
            raise MoveError(str(action), "not a legal action id here")
        self.rules.apply_move(self.state, self.encoding.move_of_action(self.state, action))

    def play_chance(self, outcome):
        """Chance draws colour ``outcome`` (MoveError if it cannot)."""
        if outcome not in self.legal_actions():
            raise MoveError(str(outcome), "not a chance outcome here")
        self.rules.apply_move(self.state, self.chance_base() + outcome)

    def resolve_chance(self):
        """Chance acts from the game's seed until a player acts or the game ends."""
        if self.to_move == CHANCE:
            self.rules.resolve_chance(self.state, self._rng)

    def returns(self):
        """Each player's result: ``players * payoff - 1`` at the end (winners share the
        payoff 1, so the returns sum to 0), else 0."""
        out = np.zeros(self.players, np.float64)
        if self.is_over:
            self.rules.payoffs(self.state, out)
            out = self.players * out - 1.0
        return out

    def observation(self, player):
        return self.encoding.observation(self.state, player)

    def action_to_string(self, action):
        """The move's notation (``Position.legal_moves``' text) in the current position."""
        return str(self.game.format_move(self.state, self.encoding.move_of_action(self.state, action)))

    def position(self):
        return Position.from_state(self.state)


def _chance_bases():
    from kernels.azul.layout import CHANCE_MOVE_BASE
    from kernels.azure.layout import DRAW_BASE
    from kernels.pavilion.layout import CHANCE_BASE
    return {"azul": CHANCE_MOVE_BASE, "pavilion": CHANCE_BASE, "azure": DRAW_BASE}


CHANCE_BASES = _chance_bases()
