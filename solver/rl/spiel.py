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
import importlib
from functools import lru_cache

import numpy as np
import pyspiel

from tessera.kernels.constants import CHANCE, TERMINAL
from tessera.kernels.rng import make_rng
from tessera.rl.table import Rules

PARAMETERS = {
    "azul": {"players": 2, "variant": "colour"},
    "pavilion": {"players": 2},
    "azure": {"gifted": "none", "cosmos": False, "realm_seed": 0},
}
PLAYER_COUNTS = {"azul": (2, 4), "pavilion": (2, 4), "azure": (2, 2)}
LONG_NAMES = {"azul": "Azul", "pavilion": "Azul: Summer Pavilion", "azure": "Azure"}


def game_type(name):
    low, high = PLAYER_COUNTS[name]
    hidden = name == "azure"
    return pyspiel.GameType(
        short_name=f"tessera_{name}",
        long_name=f"Tessera {LONG_NAMES[name]}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=(pyspiel.GameType.Information.IMPERFECT_INFORMATION if hidden
                     else pyspiel.GameType.Information.PERFECT_INFORMATION),
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=high,
        min_num_players=low,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=PARAMETERS[name])


def colour_count(name):
    """Chance outcomes at most: a draw is one tile or card, its outcome the colour."""
    return importlib.import_module(f"tessera.kernels.{name}.layout").NCOLOURS


@lru_cache(maxsize=None)
def rules_for(name, options):
    """``Rules`` of a game and option set (a sorted tuple of items), made once."""
    return Rules(name, **dict(options))


def tessera_options(name, params):
    """The ``tessera new`` options of OpenSpiel parameters, as a hashable tuple."""
    options = {key: value for key, value in params.items() if key != "realm_seed"}
    return tuple(sorted(options.items()))


class TesseraGame(pyspiel.Game):
    """One of Tessera's games; ``name`` is set by each subclass."""

    name = ""

    def __init__(self, params=None):
        params = {**PARAMETERS[self.name], **(params or {})}
        self.options = tessera_options(self.name, params)
        self.realm_seed = int(params.get("realm_seed", 0))
        self._undealt = None
        rules = rules_for(self.name, self.options)
        players = rules.players
        super().__init__(game_type(self.name), pyspiel.GameInfo(
            num_distinct_actions=rules.encoding.num_actions,
            max_chance_outcomes=colour_count(self.name),
            num_players=players,
            min_utility=-1.0,
            max_utility=float(players - 1),
            utility_sum=0.0,
            max_game_length=max_game_length(self.name, players)), params)

    def rules(self):
        return rules_for(self.name, self.options)

    def new_initial_state(self):
        if self._undealt is None:      # laid once: Azure's realm takes milliseconds of Python
            self._undealt = self.rules().game.undealt(self.realm_seed, **dict(self.options))
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
        self.seen = []      # per action: the players who saw it (everyone, but a card drawn)

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
        if self._name == "azure" and self.rules().to_move(self.array) == CHANCE:
            from tessera.kernels.azure.layout import W_DRAW_FOR
            return (int(self.array[W_DRAW_FOR]),)
        return tuple(range(self.rules().players))

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
        if self._name == "azure":
            from tessera.kernels.azure import determinize
            rules = self.rules()
            view = rules.game.view(self.array, player_id)
            seed = int(probability_sampler() * 2**62)
            out = np.empty_like(self.array)
            determinize(view, player_id, make_rng(seed), out)
            clone.array = out
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
        return " ".join(str(action) if player in seen else "?"
                        for action, seen in zip(state.history(), state.seen))


def max_game_length(name, players):
    """An upper bound on the actions of a game, chance's included (docs/rl.md derives them)."""
    if name == "azul":
        factories = 2 * players + 1
        # a round that puts no tile on a wall is followed by at most four more (the fifth
        # ends the game), and walls hold at most 20 tiles a player before a row completes
        rounds = (players * 20 + 1) * 5
        # per round: a draw per tile dealt, a draft per tile at most, five tilings a player
        return rounds * (8 * factories + 5 * players)
    if name == "pavilion":
        from tessera.kernels.pavilion.layout import FACTORIES_BY_PLAYERS, REGION_REWARDS, ROUNDS, SUPPLY_SIZE
        factories = int(FACTORIES_BY_PLAYERS[players])
        bonus = players * int(REGION_REWARDS.sum())      # tiles bonuses can give in a game
        dealt = 4 * factories + SUPPLY_SIZE
        # per round: the deal, a draft per tile, a placement per tile in hand (drafted, kept,
        # taken), a pass and a keep a player; over the game a take, a resupply and a placement per bonus tile
        return ROUNDS * (3 * dealt + 6 * players) + 3 * bonus
    from tessera.kernels.azure.layout import COSMOS_STONES, STONES
    # a turn places a stone (at most 19 a player) and then makes fewer than 50 decisions and draws
    return 2 * (STONES + COSMOS_STONES + 1) * 50


class AzulGame(TesseraGame):
    name = "azul"


class PavilionGame(TesseraGame):
    name = "pavilion"


class AzureGame(TesseraGame):
    name = "azure"


for _game in (AzulGame, PavilionGame, AzureGame):
    pyspiel.register_game(game_type(_game.name), _game)
