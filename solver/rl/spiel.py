"""Tessera's games as OpenSpiel Python games (docs/rl.md): importing this module registers
``tessera_azul``, ``tessera_pavilion`` and ``tessera_azure`` with pyspiel, so
``pyspiel.load_game("tessera_azul", {"players": 3, "variant": "gray"})`` works.

Sequential games with explicit stochastic chance: a refill or a draw is a run of chance
nodes, one tile or card each (outcome ``c``: colour ``c``, with probability its count over
the pool's). Player actions are ``tessera.rl.encoding``'s ids. Returns at the end are
``players * payoff - 1`` (winners share the payoff 1): zero-sum. Azure is a game of
imperfect information: a card drawn is seen by its receiver alone, observations are the
player's view, and ``resample_from_infostate`` deals the unseen cards anew.

Observation strings are the position's notation as the player knows it (``tessera view``'s
text in Azure); observation tensors are the game's observation vectors. Information-state
strings have perfect recall: the history, with the colours of the cards the player did
not see hidden. Azure's realm is a parameter (``realm_seed`` deals it as ``tessera new
azure --seed``), not a chance event.
"""

from functools import cache
from typing import TYPE_CHECKING

import numpy as np

from tessera.errors import require_extra
from tessera.games import GAMES
from tessera.kernels.constants import CHANCE, TERMINAL
from tessera.kernels.rng import make_rng
from tessera.rl.table import Rules

# The 'rl' extra's OpenSpiel (the open_spiel distribution): the games are its classes.
if TYPE_CHECKING:  # the same module, where a type checker finds its classes
    import pyspiel
else:
    pyspiel = require_extra("pyspiel", "rl", "tessera.rl.spiel (the OpenSpiel games)")


def parameters(spec):
    """The OpenSpiel parameters of a game (``spec``, its ``GameSpec``) and their defaults:
    its options with a default, and the seed of a set-up drawn outside chance events."""
    setup = spec.seeded_setup
    return {**spec.option_defaults(), **({setup.parameter: 0} if setup else {})}


def game_type(spec):
    return pyspiel.GameType(
        short_name=f"tessera_{spec.name}",
        long_name=f"Tessera {spec.display_name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=(
            pyspiel.GameType.Information.IMPERFECT_INFORMATION
            if spec.hidden
            else pyspiel.GameType.Information.PERFECT_INFORMATION
        ),
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=spec.players.most,
        min_num_players=spec.players.least,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameters(spec),
    )


@cache
def rules_for(name, options):
    """``Rules`` of a game and option set (a sorted tuple of items), made once."""
    return Rules(name, **dict(options))


def tessera_options(spec, params):
    """The ``tessera new`` options of OpenSpiel parameters, as a hashable tuple."""
    setup = spec.seeded_setup
    options = {key: value for key, value in params.items() if setup is None or key != setup.parameter}
    return tuple(sorted(options.items()))


class TesseraGame(pyspiel.Game):
    """One of Tessera's games; ``game`` (its ``Game``) and ``name`` are set by each subclass."""

    game = None
    name = ""

    def __init__(self, params=None):
        spec = self.game.spec
        params = {**parameters(spec), **(params or {})}
        self.options = tessera_options(spec, params)
        setup = spec.seeded_setup
        self.setup_seed = int(params.get(setup.parameter, 0)) if setup else 0
        self._undealt = None
        rules = rules_for(self.name, self.options)
        players = rules.players
        super().__init__(
            game_type(spec),
            pyspiel.GameInfo(
                num_distinct_actions=rules.encoding.num_actions,
                max_chance_outcomes=spec.chance_outcomes,
                num_players=players,
                min_utility=-1.0,
                max_utility=float(players - 1),
                utility_sum=0.0,
                max_game_length=self.game.max_actions(players),
            ),
            params,
        )

    def rules(self):
        return rules_for(self.name, self.options)

    def new_initial_state(self):
        if self._undealt is None:  # laid once: Azure's realm takes milliseconds of Python
            self._undealt = self.game.undealt(self.setup_seed, **dict(self.options))
        return TesseraState(self, self._undealt.copy())

    def make_py_observer(self, iig_obs_type=None, params=None):
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return TesseraObserver(self.rules(), perfect_recall)


class TesseraState(pyspiel.State):
    """A position (``state``, the engine's array) and the history that led to it."""

    def __init__(self, game, state):
        super().__init__(game)
        self._name, self._options = game.name, game.options
        self.array = state
        self.seen = []  # per action: the players who saw it (everyone, but a card drawn)

    def rules(self):
        return rules_for(self._name, self._options)

    def current_player(self):
        who = self.rules().to_move(self.array)
        if who == TERMINAL:
            return pyspiel.PlayerId.TERMINAL
        if who == CHANCE:
            return pyspiel.PlayerId.CHANCE
        return who

    def _legal_actions(self, player):
        return self.rules().legal_actions(self.array)

    def chance_outcomes(self):
        return self.rules().chance_outcomes(self.array)

    def _apply_action(self, action):
        self.seen.append(self.witnesses())
        self.rules().apply(self.array, action)

    def witnesses(self):
        """Who sees the next action: a card drawn in Azure is seen by its receiver alone."""
        rules = self.rules()
        if rules.to_move(self.array) == CHANCE:
            receiver = rules.game.chance_seen_by(self.array)
            if receiver is not None:
                return (receiver,)
        return tuple(range(rules.players))

    def _action_to_string(self, player, action):
        """The move's notation here (at chance: the tile or card drawn)."""
        if self.is_terminal():
            return f"action {action}"
        return self.rules().action_to_string(self.array, action)

    def is_terminal(self):
        return self.rules().to_move(self.array) == TERMINAL

    def returns(self):
        return self.rules().returns(self.array).tolist()

    def resample_from_infostate(self, player_id, probability_sampler):
        """A state the player cannot tell from this one: the cards it has not seen dealt
        anew (Azure), with the same history; in Azul and Summer Pavilion a copy."""
        clone = self.clone()
        game = self.rules().game
        if game.spec.hidden:
            seed = int(probability_sampler() * 2**62)
            clone.array = game.resample(self.array, player_id, make_rng(seed))
        return clone

    def __str__(self):
        return self.rules().game.format_position(self.array)


class TesseraObserver:
    """Observations (``perfect_recall`` False) or information states (True) of a player."""

    def __init__(self, rules, perfect_recall):
        self.rules = rules
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(rules.encoding.observation_size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state, player):
        self.tensor[:] = self.rules.observation(state.array, player)

    def string_from(self, state, player):
        if not self.perfect_recall:
            return self.rules.view_text(state.array, player)
        return " ".join(str(action) if player in seen else "?" for action, seen in zip(state.history(), state.seen))


def openspiel_class(game):
    """The pyspiel game class of ``game`` (a ``Game``)."""
    return type(f"{game.name.capitalize()}Game", (TesseraGame,), {"game": game, "name": game.name})


for _game in GAMES:
    pyspiel.register_game(game_type(_game.spec), openspiel_class(_game))
