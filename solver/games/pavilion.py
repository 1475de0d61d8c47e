"""Azul: Summer Pavilion as a ``Game``: its spec, options, a seeded start position,
notation, drawing and the parts of its moves the web board's clicks map to.

Kernels are imported on first use: they load numba, which help pages and option
errors do not need.
"""

from tessera.games.base import Game
from tessera.games.spec import GameSpec, PlayerCounts, SearchDefaults
from tessera.kernels.constants import PAVILION as PAVILION_ID

PLAYERS = PlayerCounts(2, 4, 2)

SPEC = GameSpec(
    id=PAVILION_ID,
    name="pavilion",
    display_name="Azul: Summer Pavilion",
    players=PLAYERS,
    options={
        "players": PLAYERS.option(),
    },
    search=SearchDefaults(learned_players=(2, 3)),
    max_moves=253,
    chance_outcomes=6,
)


class PavilionGame(Game):
    spec = SPEC

    def undealt(self, seed, players=2):
        """Round 1 before its factories and supply are filled."""
        PLAYERS.check(players)
        from tessera.kernels import pavilion

        return pavilion.new_game(players)

    def move_fields(self, text):
        """A draft's source and colour (or wild); a placement's star, space, colour and
        wilds; a take's or keep's tiles; a draw's colour."""
        words = text.split()
        letters = self.colour_letters
        kind = words[0]
        if kind == "draw":
            return {"kind": "draw", "colour": letters[words[1]]}
        if kind in ("take", "keep"):
            return {"kind": kind, "tiles": words[1]}
        if kind == "pass":
            return {"kind": "pass"}
        if kind == "place":
            wild = int(words[-1]) if words[-2] == "wild" else 0
            if words[1] == "centre":
                return {"kind": "place", "star": "C", "space": int(words[2]), "colour": letters[words[3]], "wild": wild}
            letter = letters[words[1]]
            return {"kind": "place", "star": letter, "space": int(words[2]), "colour": letter, "wild": wild}
        source, colour = words  # a draft: F3 red, C wild
        return {"kind": "draft", "source": source, "colour": "wild" if colour == "wild" else letters[colour]}

    def chance_move_base(self):
        from tessera.kernels.pavilion.layout import CHANCE_BASE

        return CHANCE_BASE

    def max_actions(self, players):
        from tessera.kernels.pavilion.layout import FACTORIES_BY_PLAYERS, REGION_REWARDS, ROUNDS, SUPPLY_SIZE

        factories = int(FACTORIES_BY_PLAYERS[players])
        bonus = players * int(REGION_REWARDS.sum())  # tiles bonuses can give in a game
        dealt = 4 * factories + SUPPLY_SIZE
        # per round: the deal, a draft per tile, a placement per tile in hand (drafted, kept,
        # taken), a pass and a keep a player; over the game a take, a resupply and a placement per bonus tile
        return ROUNDS * (3 * dealt + 6 * players) + 3 * bonus


PAVILION = PavilionGame()
