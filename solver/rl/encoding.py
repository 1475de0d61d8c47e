"""Action ids and observation vectors of a game, shared by every adapter (docs/rl.md).

Each game's kernels define them (``kernels.<game>.encoding``); this module gives them to
Python code working with ``Position`` objects.
"""

import importlib

import numpy as np

from tessera.errors import MoveError, OptionError
from tessera.games import get_game, registered_games

# The names of the games, in the order of their ids.
GAMES = tuple(sorted(registered_games(), key=lambda name: get_game(name).spec.id))


class Encoding:
    """The action ids and observations of one game with its options."""

    def __init__(self, game, **options):
        if game not in GAMES:
            raise OptionError(f"unknown game {game!r} (known: {', '.join(GAMES)})")
        self.game = game
        self.options = options
        self.kernels = importlib.import_module(f"tessera.kernels.{game}.encoding")
        get_game(game).check_options(options)
        undealt = get_game(game).undealt(0, **options)
        self.players = int(get_game(game).kernels().players(undealt))
        self.num_actions = self.kernels.NUM_ACTIONS
        self.observation_size = self.kernels.observation_size(self.players)

    def action_of_move(self, state, move):
        return int(self.kernels.action_of_move(state, move))

    def actions_of_moves(self, state, moves):
        """The action ids of the engine's move codes ``moves`` (an array), as a list."""
        if self.kernels.MOVES_ARE_ACTIONS:
            return moves.tolist()
        return [self.action_of_move(state, move) for move in moves]

    def move_of_action(self, state, action):
        """The engine's move code of the action id ``action``; MoveError when it is not an id
        (the kernels do not check: they would read past their tables)."""
        if not 0 <= action < self.num_actions:
            raise MoveError(str(action), f"action ids are 0 to {self.num_actions - 1}")
        return int(self.kernels.move_of_action(state, action))

    def observation(self, state, observer):
        """The observation vector of ``observer`` (from 0) of ``state`` (a complete state or
        that player's view): made from the player's view, so nothing hidden leaks in."""
        out = np.zeros(self.observation_size, np.float32)
        self.kernels.observe(get_game(self.game).view(state, observer), observer, out)
        return out
