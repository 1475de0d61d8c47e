"""Hand-made Azure positions for tests, and two engines that play them.

``position(layout, ...)`` writes the dynamic words of ``kernels/azure/layout.py`` onto
``tessera.kernels.azure.setup.new_game(layout, gifted)``: a player to place a stone, the
stones, hands, scores, beasts and decks given, every other card face up. Cells are
written ``(row, col)`` on the realm's 8x8 grid.

``draw(layout)`` renders a realm as text, one cell per column::

    A:1W+2*   the azure domain; a qi card of white, two points, a serpent space
    V:MOUNT   the vermillion mountain
    W:c1+1    (Cosmos) a cosmos step and a point

``ORACLE`` and ``KERNEL`` play positions (state arrays) the same way: ``legal``,
``play`` (new array), ``to_move``, ``chance``. ``KERNEL`` goes through
``tessera.kernels.games``.
"""

import numpy as np

from tessera.kernels.azure import layout as L
from tessera.kernels.azure.setup import new_game

try:  # pytest puts tests/ on sys.path (rootdir-relative "prepend" import mode)
    from oracle import azure_oracle as O
except ImportError:  # pragma: no cover - when tests/ is a package
    from tests.oracle import azure_oracle as O

BEASTS = {name: colour for colour, name in enumerate(L.BEAST_NAMES)}  # "dragon" -> AZURE ...
LETTER = {letter: c for c, letter in enumerate(L.COLOUR_LETTERS)}


def cell(row, col):
    return L.cell_of(row, col)


def cells(*pairs):
    return [cell(r, c) for r, c in pairs]


def counts(letters):
    """A pile of cards written as letters ("AAW": two azure, one white) -> 4 counts."""
    out = [0] * L.NCOLOURS
    for letter in letters.replace("-", ""):
        out[LETTER[letter]] += 1
    return out


def letters(pile):
    return "".join(L.COLOUR_LETTERS[c] * int(n) for c, n in enumerate(pile))


def _mask(cell_list):
    word = sum(1 << c for c in cell_list)
    return np.int64(word - (1 << 64) if word >> 63 else word)


def position(
    layout,
    gifted=L.GIFTED_NONE,
    stones=None,
    gifted_stones=None,
    hands=None,
    known=None,
    turn=0,
    scores=None,
    holders=None,
    black_stone=None,
    dragon=0,
    deck="AAAWWWVVVBBB",
    supply=None,
):
    """A position with ``turn`` to place a stone.

    stones: ``{player: [(row, col), ...]}`` common stones; gifted_stones: ``{player: (row, col)}``;
    hands / known: ``{player: "AAW"}`` (known: the cards of the hand the opponent can name);
    holders: ``{"dragon": player, ...}``; black_stone: whose stone is on the Black mountain;
    dragon: the Yellow Dragon's step (+ toward player 0); deck: the hidden deck; supply:
    ``{player: n}`` (default: the stones not on the realm). The face-up decks hold the rest.
    """
    state = new_game(layout, gifted)
    stones, gifted_stones = stones or {}, gifted_stones or {}
    hands, known, scores, holders = hands or {}, known or {}, scores or {}, holders or {}
    supply = supply or {}
    black = int(state[L.S_MOUNTAIN + L.BLACK])
    total = L.STONES + (L.COSMOS_STONES if layout.cosmos else 0)
    faceup = [L.CARDS_PER_COLOUR - n for n in counts(deck)]
    state[L.W_PHASE] = L.PHASE_PLACE
    state[L.W_STEP] = L.STEP_END
    state[L.W_TURN] = turn
    state[L.W_DRAW_FOR] = 1
    state[L.W_DRAWS] = 0
    state[L.W_DRAGON] = dragon
    state[L.W_BLACK_STONE] = L.NOBODY if black_stone is None else black_stone
    state[L.W_DECK : L.W_DECK + L.NCOLOURS] = counts(deck)
    state[L.W_DECK_SIZE] = len(deck)
    for name, p in holders.items():
        state[L.W_HOLDER + BEASTS[name]] = p
    for p in range(L.PLAYERS):
        mine = [cell(*rc) for rc in stones.get(p, [])]
        common = len(mine)
        if p in gifted_stones:
            mine.append(cell(*gifted_stones[p]))
            state[L.player_word(p, L.P_GIFTED)] = mine[-1]
        if black_stone == p:
            mine.append(black)
            common += 1
        state[L.player_word(p, L.P_STONES)] = _mask(mine)
        state[L.player_word(p, L.P_SUPPLY)] = supply.get(p, total - common)
        state[L.player_word(p, L.P_SCORE)] = scores.get(p, 0)
        hand = counts(hands.get(p, ""))
        state[L.player_word(p, L.P_HAND_SIZE)] = sum(hand)
        state[L.player_word(p, L.P_HAND) : L.player_word(p, L.P_HAND) + L.NCOLOURS] = hand
        state[L.player_word(p, L.P_KNOWN) : L.player_word(p, L.P_KNOWN) + L.NCOLOURS] = counts(known.get(p, ""))
        for c in range(L.NCOLOURS):
            faceup[c] -= hand[c]
    assert min(faceup) >= 0, "more than 12 cards of a colour"
    state[L.W_FACEUP : L.W_FACEUP + L.NCOLOURS] = faceup
    O.check_invariants(O.from_state(state), all_stones=not supply)
    return state


# ---- reading a state -----------------------------------------------------------------


def pw(state, p, offset):
    return int(state[L.player_word(p, offset)])


def score(state, p):
    return pw(state, p, L.P_SCORE)


def hand(state, p):
    return letters(state[L.player_word(p, L.P_HAND) : L.player_word(p, L.P_HAND) + L.NCOLOURS])


def known(state, p):
    return letters(state[L.player_word(p, L.P_KNOWN) : L.player_word(p, L.P_KNOWN) + L.NCOLOURS])


def faceup(state):
    return [int(x) for x in state[L.W_FACEUP : L.W_FACEUP + L.NCOLOURS]]


def deck(state):
    return letters(state[L.W_DECK : L.W_DECK + L.NCOLOURS])


def holder(state, beast):
    return int(state[L.W_HOLDER + BEASTS[beast]])


def stones_of(state, p):
    word = int(state[L.player_word(p, L.P_STONES)]) & ((1 << 64) - 1)
    return {divmod(c, L.GRID) for c in range(L.CELLS) if word >> c & 1}


def phase(state):
    return int(state[L.W_PHASE])


def winner(state):
    return int(state[L.W_WINNER]) if phase(state) == L.PHASE_OVER else None


# ---- drawing a realm -----------------------------------------------------------------


def draw(layout):
    realm = O.Realm(layout)
    lines = ["      " + "".join(f"{c:<10}" for c in range(L.GRID))]
    for r in range(L.GRID):
        row = []
        for c in range(L.GRID):
            here = realm.cells.get(cell(r, c))
            if here is None:
                text = "."
            elif here.kind == "mountain":
                text = f"{L.COLOUR_LETTERS[here.domain]}:MOUNT"
            else:
                text = L.COLOUR_LETTERS[here.domain] + ":"
                if here.qi:
                    text += f"{here.qi}{L.COLOUR_LETTERS[here.qi_colour]}"
                if here.cosmos:
                    text += f"c{here.cosmos}"
                if here.wisdom:
                    text += f"+{here.wisdom}"
                if here.serpent:
                    text += "*"
            row.append(f"{text:<10}")
        lines.append(f"{r}     " + "".join(row).rstrip())
    return "\n".join(lines)


# ---- engines -------------------------------------------------------------------------


class Oracle:
    name = "oracle"

    def legal(self, state):
        return sorted(O.legal_moves(O.from_state(state)))

    def play(self, state, *moves):
        for move in moves:
            s = O.from_state(state)
            legal = sorted(O.legal_moves(s))
            assert move in legal, f"illegal move {move}; legal {legal}"
            state = O.to_state(O.apply(s, move), state)
        return state

    def to_move(self, state):
        return O.to_move(O.from_state(state))

    def chance(self, state):
        return O.chance_probabilities(O.from_state(state))


class Kernel:
    name = "kernel"

    def __init__(self):
        self._moves = self._probs = None

    def _buffers(self):
        from tessera.kernels import games

        if self._moves is None:
            self._moves = np.zeros(max(games.MAX_MOVES, L.MAX_MOVES), np.int64)
            self._probs = np.zeros(max(games.MAX_MOVES, L.MAX_MOVES), np.float64)
        return games

    def legal(self, state):
        games = self._buffers()
        n = games.legal_moves(state, self._moves)
        return sorted(self._moves[:n].tolist())

    def play(self, state, *moves):
        games = self._buffers()
        state = state.copy()
        for move in moves:
            legal = self.legal(state)
            assert move in legal, f"illegal move {move}; legal {legal}"
            games.apply_move(state, move)
        return state

    def to_move(self, state):
        return int(self._buffers().to_move(state))

    def chance(self, state):
        games = self._buffers()
        n = games.chance_outcomes(state, self._moves, self._probs)
        return dict(zip(self._moves[:n].tolist(), self._probs[:n].tolist()))


ORACLE = Oracle()
KERNEL = Kernel()
