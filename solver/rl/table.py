"""Games played by action ids, for the PettingZoo and OpenSpiel adapters.

``Rules`` answers for a game and option set what a state array allows: legal action ids,
chance outcomes (outcome ``c``: a tile or card of colour ``c`` drawn), playing them,
returns, observations and notation. ``Table`` is one game on it, chance drawn from a
seed. The rules are the game's kernels (``tessera.kernels.games``' interface, on
``Position.state`` arrays); action ids and observations are ``tessera.rl.encoding``'s.
"""

import numpy as np

from tessera.errors import MoveError
from tessera.games import get_game
from tessera.kernels.constants import CHANCE, TERMINAL
from tessera.kernels.rng import chance_rng
from tessera.position import Position
from tessera.rl.encoding import Encoding


class Rules:
    """What states of ``game`` with ``options`` allow, by action id."""

    def __init__(self, game, **options):
        self.encoding = Encoding(game, **options)
        self.game = get_game(game)
        self.kernels = self.game.kernels()
        self.options = options
        self.players = self.encoding.players
        self.chance_base = self.game.chance_move_base()
        self._moves = np.empty(self.kernels.MAX_MOVES, np.int64)
        self._probs = np.empty(self.kernels.MAX_MOVES, np.float64)

    def to_move(self, state):
        """The player to act (from 0), ``CHANCE`` or ``TERMINAL``."""
        return int(self.kernels.to_move(state))

    def legal_actions(self, state):
        """The action ids of the player to act, ascending; at chance the outcomes."""
        who = self.to_move(state)
        if who == CHANCE:
            return [outcome for outcome, _ in self.chance_outcomes(state)]
        if who == TERMINAL:
            return []
        count = self.kernels.legal_moves(state, self._moves)
        return sorted(self.encoding.actions_of_moves(state, self._moves[:count]))

    def mask(self, state):
        mask = np.zeros(self.encoding.num_actions, np.int8)
        if self.to_move(state) >= 0:
            mask[self.legal_actions(state)] = 1
        return mask

    def chance_outcomes(self, state):
        """[(outcome, probability)] when chance acts, else []."""
        count = self.kernels.chance_outcomes(state, self._moves, self._probs)
        return [(int(m) - self.chance_base, float(p)) for m, p in zip(self._moves[:count], self._probs[:count])]

    def apply(self, state, action):
        """Play ``action`` in place: a player's action id, or at chance an outcome; MoveError
        if it is not legal."""
        if action not in self.legal_actions(state):
            raise MoveError(str(action), "not a legal action id here")
        if self.to_move(state) == CHANCE:
            self.kernels.apply_move(state, self.chance_base + action)
        else:
            self.kernels.apply_move(state, self.encoding.move_of_action(state, action))

    def returns(self, state):
        """Each player's result: ``players * payoff - 1`` at the end (winners share the
        payoff 1, so the returns sum to 0), else 0."""
        out = np.zeros(self.players, np.float64)
        if self.to_move(state) == TERMINAL:
            self.kernels.payoffs(state, out)
            out = self.players * out - 1.0
        return out

    def observation(self, state, player):
        return self.encoding.observation(state, player)

    def action_to_string(self, state, action):
        """The notation of a player's action, or of a chance outcome, in ``state``."""
        move = (
            self.chance_base + action if self.to_move(state) == CHANCE else self.encoding.move_of_action(state, action)
        )
        return str(self.game.format_move(state, move))

    def view_text(self, state, player):
        """The position's notation as ``player`` (from 0) knows it: all of it, but in Azure."""
        return self.game.format_position(self.game.view(state, player))


class Table:
    """One game on ``Rules``; ``deal(seed)`` starts it as ``Position.new(game, seed)``."""

    def __init__(self, game, **options):
        self.rules = Rules(game, **options)
        self.encoding = self.rules.encoding
        self.players = self.rules.players
        self.state = None
        self.deal_seed = None
        self._rng = None

    def deal(self, seed):
        """A new game: ``Position.new(game, seed)``; later chance events drawn from ``seed`` too."""
        self.deal_seed = seed
        self.state = self.rules.game.new(seed, **self.rules.options)
        self._rng = chance_rng(seed)

    @property
    def to_move(self):
        return self.rules.to_move(self.state)

    @property
    def is_over(self):
        return self.to_move == TERMINAL

    def legal_actions(self):
        return self.rules.legal_actions(self.state)

    def mask(self):
        return self.rules.mask(self.state)

    def play(self, action):
        """Play the action id ``action`` of the player to act, then chance until a player acts."""
        self.rules.apply(self.state, action)
        if self.to_move == CHANCE:
            self.rules.kernels.resolve_chance(self.state, self._rng)

    def returns(self):
        return self.rules.returns(self.state)

    def observation(self, player):
        return self.rules.observation(self.state, player)

    def position(self):
        return Position.from_state(self.state)
