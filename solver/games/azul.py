"""Azul as a ``Game``: its spec, options, a seeded start position, notation, drawing and
the parts of its moves the web board's clicks map to.

Kernels are imported on first use: they load numba, which help pages and option
errors do not need.
"""

from tessera.errors import OptionError
from tessera.games.base import Game
from tessera.games.spec import GameSpec, LongBudget, Option, PlayerCounts, SearchDefaults
from tessera.kernels.constants import AZUL as AZUL_ID

VARIANTS = ("colour", "gray")

PLAYERS = PlayerCounts(2, 4, 2)

SPEC = GameSpec(
    id=AZUL_ID,
    name="azul",
    display_name="Azul",
    players=PLAYERS,
    options={
        "players": PLAYERS.option(),
        "variant": Option(VARIANTS, "colour", "the wall: colour (printed) or gray (free columns)"),
    },
    # Azul's searches of 0.2 s gain from exploring more and from counting the wins beside
    # the margin (results/strength/README.md, "Azul's search parameters at 0.2 s"); with a
    # learned value scoring round rollouts they gain from exploring less ("The exploration
    # of a learned search"). Every player count searches with the built-in value (three and
    # four with the models fitted to them): round rollouts win at short budgets, mixed ones
    # from a long budget on ("The built-in value by budget"), at three and four players
    # exploring less as well ("Three and four players"). Long 2-player searches soften the
    # built-in policy's priors, which lets the exact check find the moves that the priors
    # as fitted all but ruled out ("Softer priors at long budgets"); 3 and 4 players keep
    # the priors as their matches played them.
    search=SearchDefaults(
        exploration=2.0,
        value="blend",
        learned_exploration=1.0,
        learned_players=(2, 3, 4),
        learned_mixed_players=(3, 4),
        long_rollout="mixed",
        long_budget=LongBudget(seconds=0.035, simulations=4700),
        full_budget=LongBudget(seconds=0.2, simulations=27_000),
        long_policy_temperature=1.5,
        soft_policy_players=(2,),
    ),
    max_moves=300,
    chance_outcomes=5,
)


class AzulGame(Game):
    spec = SPEC

    def undealt(self, seed, players=2, variant="colour"):
        """Round 1 before its factories are filled."""
        PLAYERS.check(players)
        if variant not in VARIANTS:
            raise OptionError(f"unknown variant {variant!r} (known: {', '.join(VARIANTS)})")
        from tessera.kernels import azul
        from tessera.kernels.azul.layout import VARIANT_COLOUR, VARIANT_GRAY

        return azul.new_game(players, {"colour": VARIANT_COLOUR, "gray": VARIANT_GRAY}[variant])

    def move_fields(self, text):
        """A draft's source, colour letter and destination; a tiling's column; a draw's colour."""
        words = text.split()
        if words[0] == "draw":
            return {"kind": "draw", "colour": self.colour_letters[words[1]]}
        if words[0] == "col":
            return {"kind": "col", "column": int(words[1])}
        source, colour, destination = words
        return {"kind": "draft", "source": source, "colour": self.colour_letters[colour], "destination": destination}

    def chance_move_base(self):
        from tessera.kernels.azul.layout import CHANCE_MOVE_BASE

        return CHANCE_MOVE_BASE

    def max_actions(self, players):
        factories = 2 * players + 1
        # a round that puts no tile on a wall is followed by at most four more (the fifth
        # ends the game), and walls hold at most 20 tiles a player before a row completes
        rounds = (players * 20 + 1) * 5
        # per round: a draw per tile dealt, a draft per tile at most, five tilings a player
        return rounds * (8 * factories + 5 * players)


AZUL = AzulGame()
