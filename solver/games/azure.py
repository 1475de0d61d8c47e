"""Azure as a ``Game``: its spec, options (the Gifted card, Cosmos, a chosen layout), a
seeded start position, notation, players' views, drawing and the parts of its moves and
realm the web board draws.

Kernels are imported on first use: they load numba, which help pages and option
errors do not need.
"""

import re

from tessera.errors import OptionError
from tessera.games.base import Game
from tessera.games.spec import GameSpec, Option, PlayerCounts, SearchDefaults, SeededSetup
from tessera.kernels.constants import AZURE as AZURE_ID

GIFTED_CARDS = ("none", "mighty", "perceptive", "bountiful", "favored")
LAYOUT_HELP = (
    "the realm: a layout number 0..24575, or four domains 'A1@0 W2@90 V1@180 B2@270'"
    " (top-left, top-right, bottom-left, bottom-right; * after the two Cosmos large"
    " domains) [default: dealt with --seed]"
)


SPEC = GameSpec(
    id=AZURE_ID,
    name="azure",
    display_name="Azure",
    players=PlayerCounts(2, 2, 2),
    options={
        "gifted": Option(GIFTED_CARDS, "none", "the Gifted module's card, or none"),
        "cosmos": Option(
            bool,
            False,
            "play with the Cosmos expansion (stand-in boards unless TESSERA_AZURE_COSMOS names the printed ones)",
        ),
        "layout": Option(str, None, LAYOUT_HELP),
    },
    hidden=True,
    # Azure's short games (about 27 moves) and 25-point race reward following the
    # heuristic's priors more closely, so Azure explores less (results/strength/README.md,
    # "Azure's search tuned"). Its rollouts stop after four turns, scored by the built-in
    # value, whose win chances the search maximises: matches chose so (results/strength,
    # "Azure's learned value"). With Cosmos that search lost to the full greedy one, so
    # Cosmos games keep the greedy rollouts ("The learned default with Azure's modules").
    search=SearchDefaults(exploration=0.7, learned_players=(2,), learned_value="win", unlearned_options=("cosmos",)),
    max_moves=128,
    chance_outcomes=4,
    seeded_setup=SeededSetup(option="layout", parameter="realm_seed"),
)


class AzureGame(Game):
    spec = SPEC

    def undealt(self, seed, gifted="none", cosmos=False, layout=None):
        """The realm laid (dealt with ``seed`` unless ``layout`` names it), before the
        starting hands are drawn; then player 1 places the first stone."""
        if gifted not in GIFTED_CARDS:
            raise OptionError(f"unknown gifted card {gifted!r} (known: {', '.join(GIFTED_CARDS)})")
        if type(cosmos) is not bool:
            raise OptionError(f"cosmos is yes or no, not {cosmos!r}")
        import random

        from tessera.kernels.azure.realm import BoardDataError, deal_layout
        from tessera.kernels.azure.setup import new_game

        try:
            if layout is None:
                chosen = deal_layout(random.Random(seed), cosmos)
            else:
                chosen = parse_layout_option(layout, cosmos)
            return new_game(chosen, GIFTED_CARDS.index(gifted))
        except BoardDataError as err:
            raise OptionError(str(err)) from None

    def undealt_batch(self, seeds, **options):
        """Each seed deals its own layout."""
        import numpy as np

        return np.stack([self.undealt(int(seed), **options) for seed in seeds])

    def option_in(self, state, name):
        """Cosmos (on or off) is read from the position, views included."""
        if name == "cosmos":
            from tessera.kernels.azure.layout import S_COSMOS

            return bool(state[S_COSMOS])
        return super().option_in(state, name)

    def observer(self, state):
        from tessera.kernels.azure.layout import NOBODY, W_VIEW

        return None if state[W_VIEW] == NOBODY else int(state[W_VIEW])

    def view(self, state, observer):
        """What ``observer`` knows: own hand, the opponent's known cards and hand size."""
        import numpy as np

        from tessera.kernels import azure
        from tessera.kernels.azure.layout import NOBODY, W_VIEW

        if observer not in (0, 1):
            raise OptionError(f"Azure has players 1 and 2, not {observer + 1}")
        if state[W_VIEW] != NOBODY:
            if state[W_VIEW] != observer:
                raise OptionError(
                    f"this is player {state[W_VIEW] + 1}'s view, which does not show what player {observer + 1} knows"
                )
            return state.copy()
        out = np.empty_like(state)
        azure.view(state, observer, out)
        return out

    def chance_seen_by(self, state):
        """A card is drawn into one player's hand: that player's."""
        from tessera.kernels.azure.layout import W_DRAW_FOR

        return int(state[W_DRAW_FOR])

    def resample(self, state, observer, rng):
        """The cards ``observer`` has not seen dealt anew."""
        import numpy as np

        from tessera.kernels.azure import determinize

        out = np.empty_like(state)
        determinize(self.view(state, observer), observer, rng, out)
        return out

    def who_acts(self, state):
        return self._renderer().who_acts(self.position_to_json(state))

    def board(self, state):
        """The realm's cells, symbols, stones and beasts, and the cosmos track."""
        from tessera.render.azure_realm import realm

        return {"realm": realm(state)}

    def move_fields(self, text):
        """A placement's cell; a boon; a take's or draw's colour; the colours returned."""
        words = text.split()
        letters = self.colour_letters
        kind = words[0]
        if kind in ("place", "gifted"):
            return {"kind": kind, "cell": words[1]}
        if kind == "boon":
            return {"kind": "boon", "boon": words[1]}
        if kind in ("take", "draw"):
            return {"kind": kind, "colour": letters[words[1]]}
        return {"kind": "return", "colours": "".join(letters[c] for c in words[1].split("+"))}

    def chance_move_base(self):
        from tessera.kernels.azure.layout import DRAW_BASE

        return DRAW_BASE

    def max_actions(self, players):
        from tessera.kernels.azure.layout import COSMOS_STONES, STONES

        # a turn places a stone (at most 19 a player) and then makes fewer than 50 decisions and draws
        return 2 * (STONES + COSMOS_STONES + 1) * 50


def parse_layout_option(text, cosmos):
    """The ``Layout`` of ``--layout``: a base layout number, or four domain tokens."""
    from tessera.errors import PositionError
    from tessera.kernels.azure.realm import BASE_LAYOUTS, base_layout

    if not isinstance(text, str):  # Python callers and the web page pass JSON values
        raise OptionError(f"layout must be text: a number 0..{BASE_LAYOUTS - 1} or four domains, not {text!r}")
    text = text.strip()
    if re.fullmatch(r"[0-9]+", text):
        if cosmos:
            raise OptionError(
                "a layout number names a base layout; with --cosmos name the four"
                " domains ('A1@0* W1@90 B1@180 V1@270*')"
            )
        if int(text) >= BASE_LAYOUTS:
            raise OptionError(f"layout number {text} is not in 0..{BASE_LAYOUTS - 1}")
        return base_layout(int(text))
    from tessera.notation import azure as notation

    tokens = text.replace(",", " ").split()
    if len(tokens) != 4:
        raise OptionError(
            f"--layout takes a number 0..{BASE_LAYOUTS - 1} or four domains like"
            f" 'A1@0 W2@90 V1@180 B2@270', not '{text}'"
        )
    try:
        return notation.layout_option(tokens, cosmos)
    except PositionError as err:
        raise OptionError(f"--layout: {str(err).removeprefix('bad position: layout: ')}") from None


AZURE = AzureGame()
