"""An independent, slow, plain-Python reading of the Azure rules: a test oracle.

Written from ``shared/seeds/azure-rulebook.txt``, ``shared/rulings.md`` (Azure) and
``docs/azure.md``. The numba kernels are not consulted: only
``kernels/azure/layout.py`` (the state words and the move codes, so that
``from_state`` / ``to_state`` and the move numbers agree with the engine),
``kernels/azure/realm.py`` (the board data loaders, ``rotated``, the places'
origins and ``layout_of``). ``new_game`` here is the rulebook's setup on its own;
the tests check it against ``kernels/azure/setup.py``.

Representation (clarity over speed):

- the realm is a dict ``cell -> Cell`` over the 8x8 grid, built here from the printed
  sides, their turns and the origins of the four places; lines of sight, bonds and
  guards are found by walking the grid cell by cell (the ``S_SIGHT`` / ``S_DIAGONAL``
  masks of the state are never read);
- a player's stones are a set of cells (the Black mountain's cell included when their
  stone stands there); a pile of cards is a list of 4 counts by colour;
- the turn is a little machine with the stages of docs/azure.md ("Decisions inside a
  turn"): ``State.step`` says where a turn resumes after a decision or a draw.

Only complete positions (``W_VIEW`` = nobody) are read.

The oracle's conventions where neither the rule texts nor docs/azure.md say are
listed in ``OPEN_POINTS``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from tessera.kernels.azure import layout as L
from tessera.kernels.azure import realm as R

CHANCE = -1
TERMINAL = -2
NOBODY = L.NOBODY
NCOL = L.NCOLOURS
AZURE, WHITE, VERMILLION, BLACK = L.AZURE, L.WHITE, L.VERMILLION, L.BLACK
BEAST_ORDER = (BLACK, AZURE, WHITE, VERMILLION)  # Tortoise, Dragon, Tiger, Bird (rulings)
BEAST_POINTS = {AZURE: 3, WHITE: 2}  # rulebook: Dragon 3, Tiger 2
GIFTED_EXTRA = {L.MIGHTY: 2, L.PERCEPTIVE: 2, L.BOUNTIFUL: 1, L.FAVORED: 1}
WIN = 25
STONES, COSMOS_STONES = 14, 4
ORTHOGONAL = ((0, 1), (0, -1), (1, 0), (-1, 0))
DIAGONAL = ((1, 1), (1, -1), (-1, 1), (-1, -1))

OPEN_POINTS = (
    "points for a Cosmos threshold are scored as the Yellow Dragon crosses it (with the "
    "boons); the card of choice comes after the boons (docs: stage 2)",
    "a beast changing hands: the loser loses points before the taker gains (the "
    "rulebook's example: 'Freya loses two points and Leonie gains two points'); a "
    "win by the taker ends the turn there",
    "a chance draw with a single possible colour is still a chance node",
    "Bountiful's extra boon offers every kind of symbol the space shows, a qi symbol "
    "whose face-up deck is empty included (the boon then takes nothing)",
    "an empty hidden deck that could not be rebuilt (every face-up deck empty) stays "
    "empty: later draws draw nothing, even once face-up cards are back (docs: 'further "
    "draws draw nothing')",
    "bookkeeping words: W_PLACED is nobody outside a turn's stages; W_BIRD_LOSER is "
    "nobody when no return is pending; W_DRAW_FOR keeps the last receiver; W_STEP is "
    "STEP_END on a placement turn",
)

# Tests may set this to a collections.Counter to learn which rare rules were exercised.
EVENTS = None


def _note(event):
    if EVENTS is not None:
        EVENTS[event] += 1


# ---------------------------------------------------------------------------
# The realm
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Cell:
    kind: str  # "space" or "mountain"
    domain: int  # the colour of the domain it lies in
    qi: int = 0
    qi_colour: int = -1
    wisdom: int = 0
    cosmos: int = 0
    serpent: bool = False

    @property
    def cost(self):
        return self.qi + self.wisdom + self.cosmos

    def kinds(self):
        """The kinds of boon symbol the space shows (for Bountiful)."""
        return [k for k, n in ((L.BOON_QI, self.qi), (L.BOON_WISDOM, self.wisdom), (L.BOON_COSMOS, self.cosmos)) if n]


class Realm:
    """The laid boards: cells, mountains, and the lines between them."""

    def __init__(self, layout, gifted=L.GIFTED_NONE):
        self.layout = layout
        self.gifted = gifted
        self.cosmos = bool(layout.cosmos)
        self.cells = {}
        self.mountain = {}
        self._seen = {}  # (a, b, directions) -> _look's answer (a memo)
        boards = R.load_cosmos() if self.cosmos else None
        origins = R.COSMOS_ORIGINS[layout.arrangement] if self.cosmos else R.BASE_ORIGINS
        large = R.LARGE_PLACES[layout.arrangement] if self.cosmos else ()
        for place, (colour, side, turns) in enumerate(layout.places):
            if place in large:
                printed = [s for board in boards.large for s in board if s.colour == colour]
                board = next(b for b in boards.large if printed[0] in b)
                grid = board[side - 1].cells
                assert board[side - 1].colour == colour
            else:
                grid = R.load_domains()[colour][side - 1].cells
            top, left = origins[place]
            for r, row in enumerate(R.rotated(grid, turns)):
                for c, space in enumerate(row):
                    cell = L.GRID * (top + r) + left + c
                    assert cell not in self.cells, "domains overlap"
                    if space is None:
                        self.cells[cell] = Cell("mountain", colour)
                        self.mountain[colour] = cell
                    else:
                        self.cells[cell] = Cell(
                            "space", colour, space.qi, space.qi_colour, space.wisdom, space.cosmos, bool(space.serpent)
                        )
        assert sorted(self.mountain) == list(range(NCOL))
        self.track_end = boards.track_end if self.cosmos else 0
        self.thresholds = tuple(boards.thresholds) if self.cosmos else ()
        self.stones = STONES + (COSMOS_STONES if self.cosmos else 0)

    def spaces(self):
        return sorted(c for c, cell in self.cells.items() if cell.kind == "space")

    def is_mountain(self, cell):
        return cell in self.cells and self.cells[cell].kind == "mountain"

    def _walk(self, a, b, directions):
        """True when ``b`` lies on a ray from ``a`` with no mountain strictly between."""
        key = (a, b, directions)
        if key not in self._seen:
            self._seen[key] = self._look(a, b, directions)
        return self._seen[key]

    def _look(self, a, b, directions):
        ra, ca = divmod(a, L.GRID)
        for dr, dc in directions:
            r, c = ra + dr, ca + dc
            while 0 <= r < L.GRID and 0 <= c < L.GRID:
                cell = L.GRID * r + c
                if cell == b:
                    return True
                if self.is_mountain(cell):
                    break
                r, c = r + dr, c + dc
        return False

    def in_line(self, a, b):
        """Same row or column, no mountain strictly between (gaps never block)."""
        return a != b and self._walk(a, b, ORTHOGONAL)

    def diagonal(self, a, b):
        return a != b and self._walk(a, b, DIAGONAL)

    def around(self, a, b):
        """``b`` is one of the eight cells surrounding ``a``."""
        (ra, ca), (rb, cb) = divmod(a, L.GRID), divmod(b, L.GRID)
        return a != b and abs(ra - rb) <= 1 and abs(ca - cb) <= 1


# ---------------------------------------------------------------------------
# State
# ---------------------------------------------------------------------------
@dataclass
class Player:
    stones: set = field(default_factory=set)
    gifted: int | None = None
    supply: int = STONES
    score: int = 0
    hand: list = field(default_factory=lambda: [0] * NCOL)
    known: list = field(default_factory=lambda: [0] * NCOL)

    def copy(self):
        return Player(set(self.stones), self.gifted, self.supply, self.score, list(self.hand), list(self.known))


@dataclass
class State:
    realm: Realm
    phase: int
    turn: int
    winner: int
    step: int
    draw_for: int
    draws: int
    takes: int
    returns: int
    bird_loser: int
    placed: int
    dragon: int
    black_stone: int
    holder: list
    faceup: list
    deck: list
    players: list

    def copy(self):
        return State(
            self.realm,
            self.phase,
            self.turn,
            self.winner,
            self.step,
            self.draw_for,
            self.draws,
            self.takes,
            self.returns,
            self.bird_loser,
            self.placed,
            self.dragon,
            self.black_stone,
            list(self.holder),
            list(self.faceup),
            list(self.deck),
            [p.copy() for p in self.players],
        )

    def occupied(self):
        return set().union(*(p.stones for p in self.players))

    def total_cards(self):
        return [self.faceup[c] + self.deck[c] + sum(p.hand[c] for p in self.players) for c in range(NCOL)]


def new_game(layout, gifted=L.GIFTED_NONE):
    """The position before the starting hands are drawn (the rulebook's setup)."""
    realm = Realm(layout, gifted)
    players = [Player(supply=realm.stones) for _ in range(L.PLAYERS)]
    return State(
        realm,
        L.PHASE_DRAW,
        0,
        NOBODY,
        L.STEP_SETUP,
        0,
        L.HAND_START[0],
        0,
        0,
        NOBODY,
        NOBODY,
        0,
        NOBODY,
        [NOBODY] * NCOL,
        [12 - 3] * NCOL,
        [3] * NCOL,
        players,
    )


def to_move(s):
    if s.phase == L.PHASE_OVER:
        return TERMINAL
    if s.phase == L.PHASE_DRAW:
        return CHANCE
    if s.phase == L.PHASE_RETURN:
        return 1 - s.turn
    if s.phase == L.PHASE_RETURN_PAIR:
        return s.bird_loser
    return s.turn


def winner(s):
    return s.winner if s.phase == L.PHASE_OVER else None


def scores(s):
    return [p.score for p in s.players]


def payoffs(s):
    if s.phase != L.PHASE_OVER:
        raise ValueError("payoffs of a game that is not over")
    return [1.0 if p == s.winner else 0.0 for p in range(L.PLAYERS)]


# ---------------------------------------------------------------------------
# Costs, bonds, guards
# ---------------------------------------------------------------------------
def bonds(s, p, cell):
    """The bonds player ``p``'s stones give to ``cell``."""
    realm = s.realm
    me = s.players[p]
    total = 0
    for stone in me.stones:
        gifted = stone == me.gifted
        if realm.in_line(stone, cell):
            total += 2 if gifted and realm.gifted == L.MIGHTY else 1
        elif gifted and realm.gifted == L.PERCEPTIVE and realm.diagonal(stone, cell):
            total += 1
    return total


def cost(s, p, cell, gifted):
    """Cards of the domain's colour player ``p`` pays to place on ``cell``."""
    space = s.realm.cells[cell]
    extra = GIFTED_EXTRA.get(s.realm.gifted, 0) if gifted else 0
    return max(0, space.cost + extra - bonds(s, p, cell))


def guards(s, p, colour, stones=None):
    """How many of player ``p``'s stones (or of ``stones``) guard that colour's mountain."""
    realm = s.realm
    stones = s.players[p].stones if stones is None else stones
    mountain = realm.mountain[colour]
    n = 0
    for stone in stones:
        cell = realm.cells[stone]
        if colour in (AZURE, WHITE):
            n += realm.in_line(stone, mountain)
        elif colour == BLACK:
            n += cell.kind == "space" and cell.serpent
        else:
            n += cell.kind == "space" and cell.domain == VERMILLION
    return n


def gifted_guards(s, p, colour):
    g = s.players[p].gifted
    return g is not None and guards(s, p, colour, {g}) == 1


def place_moves(s, p):
    me = s.players[p]
    free = [c for c in s.realm.spaces() if c not in s.occupied()]
    moves = set()
    for cell in free:
        colour = s.realm.cells[cell].domain
        if me.supply > 0 and cost(s, p, cell, False) <= me.hand[colour]:
            moves.add(cell)
        if s.realm.gifted != L.GIFTED_NONE and me.gifted is None and cost(s, p, cell, True) <= me.hand[colour]:
            moves.add(L.GIFTED_BASE + cell)
    return moves


def pairs(hand):
    """The distinct pairs of cards a hand can give back, as (first, second), first <= second."""
    return {(a, b) for a in range(NCOL) for b in range(a, NCOL) if (hand[a] >= 2 if a == b else hand[a] and hand[b])}


def legal_moves(s):
    if s.phase == L.PHASE_OVER:
        return set()
    if s.phase == L.PHASE_DRAW:
        return set(chance_probabilities(s))
    if s.phase == L.PHASE_PLACE:
        return place_moves(s, s.turn)
    if s.phase == L.PHASE_BOON:
        return {L.BOON_BASE + k for k in s.realm.cells[s.placed].kinds()}
    if s.phase == L.PHASE_TAKE:
        return {L.TAKE_BASE + c for c in range(NCOL) if s.faceup[c]}
    if s.phase == L.PHASE_RETURN:
        hand = s.players[1 - s.turn].hand
        return {L.RETURN_BASE + c for c in range(NCOL) if hand[c]}
    if s.phase == L.PHASE_RETURN_PAIR:
        return {L.pair_move(a, b) for a, b in pairs(s.players[s.bird_loser].hand)}
    raise ValueError(f"unknown phase {s.phase}")


def chance_probabilities(s):
    if s.phase != L.PHASE_DRAW:
        return {}
    size = sum(s.deck)
    return {L.DRAW_BASE + c: s.deck[c] / size for c in range(NCOL) if s.deck[c]}


# ---------------------------------------------------------------------------
# Small rule pieces
# ---------------------------------------------------------------------------
def _gain(s, p, points):
    """Score points; reaching 25 wins at once. Returns True when the game is over."""
    me = s.players[p]
    me.score = min(WIN, me.score + points)
    if me.score >= WIN:
        _note("win at 25")
        _over(s, p)
        return True
    return False


def _lose(s, p, points):
    me = s.players[p]
    me.score = max(0, me.score - points)


def _over(s, p):
    s.winner = p
    s.phase = L.PHASE_OVER


def _take_faceup(s, p, colour, n=1):
    """Take up to ``n`` cards of ``colour`` from its face-up deck: known to the opponent."""
    got = min(n, s.faceup[colour])
    s.faceup[colour] -= got
    s.players[p].hand[colour] += got
    s.players[p].known[colour] += got
    return got


def _give_back(s, p, colour, n=1):
    """Pay or return ``n`` cards of ``colour`` to its face-up deck (known cards first)."""
    me = s.players[p]
    assert me.hand[colour] >= n
    me.hand[colour] -= n
    me.known[colour] -= min(me.known[colour], n)
    s.faceup[colour] += n


def _dragon_step(s, p):
    """Move the Yellow Dragon one step toward ``p``. Returns True when the game is over."""
    way = 1 if p == 0 else -1
    before, after = s.dragon * way, (s.dragon + way) * way  # distances toward p
    s.dragon += way
    for k in s.realm.thresholds:
        if before == -(k + 1) and after == -k:  # back across the opponent's
            _note("threshold crossed back")
            _lose(s, 1 - p, 1)
            s.returns += 1
        if before == k and after == k + 1:  # across one's own
            _note("threshold crossed")
            if _gain(s, p, 1):
                return True
            s.takes += 1
    if after >= s.realm.track_end:
        _note("cosmos track end")
        _over(s, p)
        return True
    return False


def _boon(s, p, kind, n, colour):
    """``n`` boons of one kind. Returns True when the game is over."""
    if kind == L.BOON_QI:
        _take_faceup(s, p, colour, n)
    elif kind == L.BOON_WISDOM:
        return _gain(s, p, n)
    else:
        for _ in range(n):
            if _dragon_step(s, p):
                return True
    return False


def _make_all_known(s):
    for me in s.players:
        me.known = list(me.hand)


def _draw(s, colour):
    assert s.deck[colour] > 0
    s.deck[colour] -= 1
    s.players[s.draw_for].hand[colour] += 1
    s.draws -= 1
    if sum(s.deck) == 0:
        # docs/azure.md: the deck is rebuilt the moment it runs out; every card is known.
        _note("deck rebuilt")
        _make_all_known(s)
        for c in range(NCOL):
            n = min(L.DECK_PER_COLOUR, s.faceup[c])
            s.faceup[c] -= n
            s.deck[c] += n
        if sum(s.deck) == 0:
            _note("deck stays empty")


# ---------------------------------------------------------------------------
# Playing moves
# ---------------------------------------------------------------------------
def apply(s, move, check=True):
    """The position after ``move`` (a new state; ``s`` is unchanged)."""
    if check and move not in legal_moves(s):
        raise ValueError(f"illegal move {move} in phase {s.phase}")
    t = s.copy()
    if t.phase == L.PHASE_DRAW:
        _draw(t, move - L.DRAW_BASE)
        if t.draws > 0 and sum(t.deck) > 0:
            return t
        t.draws = 0
        if t.step == L.STEP_SETUP:
            if t.draw_for == 0:
                t.draw_for, t.draws = 1, L.HAND_START[1]
                return t
            _start_turn(t)
            return t
        t.step = L.STEP_BIRD_RETURN
    elif t.phase == L.PHASE_PLACE:
        _place(t, move)
        if t.phase == L.PHASE_OVER:
            return t
        t.step = L.STEP_BOON
    elif t.phase == L.PHASE_BOON:
        _note("bountiful choice")
        space = t.realm.cells[t.placed]
        if _boon(t, t.turn, move - L.BOON_BASE, 1, space.qi_colour):
            return t
        t.step = L.STEP_TAKE
    elif t.phase == L.PHASE_TAKE:
        _take_faceup(t, t.turn, move - L.TAKE_BASE)
        t.takes -= 1
    elif t.phase == L.PHASE_RETURN:
        _give_back(t, 1 - t.turn, move - L.RETURN_BASE)
        t.returns -= 1
    elif t.phase == L.PHASE_RETURN_PAIR:
        code = move - L.PAIR_BASE
        _note("bird pair returned")
        for colour in (code // NCOL, code % NCOL):
            _give_back(t, t.bird_loser, colour)
        t.bird_loser = NOBODY
        t.step = L.STEP_END
    else:
        raise ValueError("the game is over")
    _run(t)
    return t


def _place(s, move):
    p = s.turn
    me = s.players[p]
    gifted = move >= L.GIFTED_BASE
    cell = move - L.GIFTED_BASE if gifted else move
    space = s.realm.cells[cell]
    pay = cost(s, p, cell, gifted)
    if pay < space.cost + (GIFTED_EXTRA.get(s.realm.gifted, 0) if gifted else 0):
        _note("bonds reduced a cost")
    _give_back(s, p, space.domain, pay)
    me.stones.add(cell)
    if gifted:
        _note("gifted stone placed")
        me.gifted = cell
    else:
        me.supply -= 1
    s.placed = cell
    s.takes = s.returns = 0
    for kind, n in ((L.BOON_QI, space.qi), (L.BOON_WISDOM, space.wisdom), (L.BOON_COSMOS, space.cosmos)):
        if n and _boon(s, p, kind, n, space.qi_colour):
            return


def _bountiful(s):
    """The kinds of Bountiful's extra boon this turn (empty when there is none)."""
    me = s.players[s.turn]
    if (
        s.realm.gifted != L.BOUNTIFUL
        or me.gifted is None
        or s.placed == me.gifted
        or not s.realm.around(me.gifted, s.placed)
    ):
        return []
    return s.realm.cells[s.placed].kinds()


def _run(s):
    """Play the forced stages of the turn from ``s.step`` until a decision, a draw or the end."""
    while s.phase != L.PHASE_OVER:
        if s.step == L.STEP_BOON:
            kinds = _bountiful(s)
            if len(kinds) > 1:
                s.phase = L.PHASE_BOON
                return
            s.step = L.STEP_TAKE
            if kinds:
                _note("bountiful without a choice")
                space = s.realm.cells[s.placed]
                if _boon(s, s.turn, kinds[0], 1, space.qi_colour):
                    return
        elif s.step == L.STEP_TAKE:
            offered = [c for c in range(NCOL) if s.faceup[c]]
            if s.takes and len(offered) > 1:
                s.phase = L.PHASE_TAKE
                return
            if s.takes and offered:
                _take_faceup(s, s.turn, offered[0])
                s.takes -= 1
                continue
            s.takes = 0
            s.step = L.STEP_RETURN
        elif s.step == L.STEP_RETURN:
            hand = s.players[1 - s.turn].hand
            held = [c for c in range(NCOL) if hand[c]]
            if s.returns and len(held) > 1:
                s.phase = L.PHASE_RETURN
                return
            if s.returns and held:
                _give_back(s, 1 - s.turn, held[0])
                s.returns -= 1
                continue
            s.returns = 0
            s.step = L.STEP_BEASTS
        elif s.step == L.STEP_BEASTS:
            if _beasts(s):
                return
            s.step = L.STEP_BIRD_DRAW
        elif s.step == L.STEP_BIRD_DRAW:
            if s.draws and sum(s.deck):
                s.phase = L.PHASE_DRAW
                return
            s.draws = 0
            s.step = L.STEP_BIRD_RETURN
        elif s.step == L.STEP_BIRD_RETURN:
            if s.bird_loser != NOBODY:
                hand = s.players[s.bird_loser].hand
                choices = pairs(hand)
                if len(choices) > 1:
                    s.phase = L.PHASE_RETURN_PAIR
                    return
                _note("bird return without a choice")
                if choices:  # one pair only: two cards, or one colour
                    ((a, b),) = choices
                    returned = [a, b]
                else:  # fewer than two cards: what they hold
                    returned = [c for c in range(NCOL) for _ in range(hand[c])]
                for c in returned:
                    _give_back(s, s.bird_loser, c)
                s.bird_loser = NOBODY
            s.step = L.STEP_END
        elif s.step == L.STEP_END:
            s.placed = NOBODY
            s.turn = 1 - s.turn
            _start_turn(s)
            return
        else:
            raise AssertionError(f"step {s.step}")


def _start_turn(s):
    s.phase = L.PHASE_PLACE
    s.step = L.STEP_END
    if not place_moves(s, s.turn):
        _note("cannot place")
        _over(s, 1 - s.turn)


def _beasts(s):
    """Check the beasts in order. Returns True when the game is over."""
    favored = s.realm.gifted == L.FAVORED
    for colour in BEAST_ORDER:
        g = [guards(s, p, colour) for p in range(L.PLAYERS)]
        holder = s.holder[colour]
        taker = NOBODY
        for p in range(L.PLAYERS):
            o = 1 - p
            tie_won = favored and g[p] == g[o] and gifted_guards(s, p, colour) and not gifted_guards(s, o, colour)
            if holder == NOBODY:
                if g[p] >= L.FIRST_GUARDS and (g[p] > g[o] or tie_won):
                    taker = p
            elif holder == o and (g[p] > g[o] or tie_won):
                taker = p
            if taker == p and tie_won and not g[p] > g[o]:
                _note("favored tie")
        if taker == NOBODY:
            continue
        _note(f"{L.BEAST_NAMES[colour]} {'claimed' if holder == NOBODY else 'taken'}")
        s.holder[colour] = taker
        if colour in BEAST_POINTS:
            if holder != NOBODY:
                _lose(s, holder, BEAST_POINTS[colour])
            if _gain(s, taker, BEAST_POINTS[colour]):
                return True
        elif colour == BLACK:
            mountain = s.realm.mountain[BLACK]
            if s.black_stone != NOBODY:
                loser = s.players[s.black_stone]
                loser.stones.discard(mountain)
                loser.supply += 1
                s.black_stone = NOBODY
            if s.players[taker].supply > 0:
                s.players[taker].stones.add(mountain)
                s.players[taker].supply -= 1
                s.black_stone = taker
            else:
                _note("tortoise without a stone")
        else:
            s.draw_for, s.draws = taker, L.BIRD_CARDS
            s.bird_loser = holder
    return False


# ---------------------------------------------------------------------------
# State arrays
# ---------------------------------------------------------------------------
class DecodeError(ValueError):
    """A state array that breaks the layout's encoding."""


MASK64 = (1 << 64) - 1


def _cells(word):
    word = int(word) & MASK64
    return {c for c in range(L.CELLS) if word >> c & 1}


def _mask(cells):
    word = sum(1 << c for c in cells)
    return word - (1 << 64) if word >> 63 else word


def from_state(state):
    """Decode a complete kernel state array into the oracle's representation."""
    w = [int(x) for x in np.asarray(state)]
    if len(w) != L.STATE_SIZE or w[L.W_GAME] != L.GAME_ID:
        raise DecodeError("not an Azure array")
    if w[L.W_VIEW] != NOBODY:
        raise DecodeError("a player's view: the oracle reads complete positions only")
    layout = R.layout_of(state)
    realm = Realm(layout, w[L.S_GIFTED])
    if (w[L.S_TRACK_END], w[L.S_THRESHOLDS]) != (realm.track_end, sum(1 << k for k in realm.thresholds)):
        raise DecodeError("the Cosmos track words do not match the board data")
    players = []
    for p in range(L.PLAYERS):

        def pw(offset, p=p):
            return w[L.player_word(p, offset)]

        gifted = None if pw(L.P_GIFTED) == NOBODY else pw(L.P_GIFTED)
        hand = [pw(L.P_HAND + c) for c in range(NCOL)]
        if sum(hand) != pw(L.P_HAND_SIZE):
            raise DecodeError(f"player {p}: hand size {pw(L.P_HAND_SIZE)} != {sum(hand)}")
        players.append(
            Player(
                _cells(pw(L.P_STONES)),
                gifted,
                pw(L.P_SUPPLY),
                pw(L.P_SCORE),
                hand,
                [pw(L.P_KNOWN + c) for c in range(NCOL)],
            )
        )
    deck = w[L.W_DECK : L.W_DECK + NCOL]
    if sum(deck) != w[L.W_DECK_SIZE]:
        raise DecodeError(f"deck size {w[L.W_DECK_SIZE]} != {sum(deck)}")
    return State(
        realm,
        w[L.W_PHASE],
        w[L.W_TURN],
        w[L.W_WINNER],
        w[L.W_STEP],
        w[L.W_DRAW_FOR],
        w[L.W_DRAWS],
        w[L.W_TAKES],
        w[L.W_RETURNS],
        w[L.W_BIRD_LOSER],
        w[L.W_PLACED],
        w[L.W_DRAGON],
        w[L.W_BLACK_STONE],
        w[L.W_HOLDER : L.W_HOLDER + NCOL],
        w[L.W_FACEUP : L.W_FACEUP + NCOL],
        deck,
        players,
    )


def to_words(s):
    """Every dynamic word of the position, as ``{word index: value}``."""
    w = {
        L.W_GAME: L.GAME_ID,
        L.W_PHASE: s.phase,
        L.W_TURN: s.turn,
        L.W_WINNER: s.winner,
        L.W_STEP: s.step,
        L.W_VIEW: NOBODY,
        L.W_DRAW_FOR: s.draw_for,
        L.W_DRAWS: s.draws,
        L.W_TAKES: s.takes,
        L.W_RETURNS: s.returns,
        L.W_BIRD_LOSER: s.bird_loser,
        L.W_PLACED: s.placed,
        L.W_DRAGON: s.dragon,
        L.W_BLACK_STONE: s.black_stone,
        L.W_DECK_SIZE: sum(s.deck),
    }
    for c in range(NCOL):
        w[L.W_HOLDER + c] = s.holder[c]
        w[L.W_FACEUP + c] = s.faceup[c]
        w[L.W_DECK + c] = s.deck[c]
    for p, me in enumerate(s.players):
        w[L.player_word(p, L.P_STONES)] = _mask(me.stones)
        w[L.player_word(p, L.P_GIFTED)] = NOBODY if me.gifted is None else me.gifted
        w[L.player_word(p, L.P_SUPPLY)] = me.supply
        w[L.player_word(p, L.P_SCORE)] = me.score
        w[L.player_word(p, L.P_HAND_SIZE)] = sum(me.hand)
        for c in range(NCOL):
            w[L.player_word(p, L.P_HAND + c)] = me.hand[c]
            w[L.player_word(p, L.P_KNOWN + c)] = me.known[c]
    assert sorted(w) == list(range(L.DYNAMIC_SIZE))
    return w


def to_state(s, template):
    """The kernel array of ``s``: ``template``'s realm words with ``s``'s dynamic words."""
    a = np.array(template, dtype=np.int64, copy=True)
    for word, value in to_words(s).items():
        a[word] = value
    return a


WORD_NAMES = {}
for _name in dir(L):
    if _name.startswith("W_") and isinstance(getattr(L, _name), int):
        WORD_NAMES.setdefault(getattr(L, _name), _name)
for _c in range(NCOL):
    for _base in ("W_HOLDER", "W_FACEUP", "W_DECK"):
        WORD_NAMES[getattr(L, _base) + _c] = f"{_base}+{L.COLOUR_LETTERS[_c]}"
for _p in range(L.PLAYERS):
    for _name in ("P_STONES", "P_GIFTED", "P_SUPPLY", "P_SCORE", "P_HAND_SIZE"):
        WORD_NAMES[L.player_word(_p, getattr(L, _name))] = f"p{_p}.{_name}"
    for _c in range(NCOL):
        WORD_NAMES[L.player_word(_p, L.P_HAND + _c)] = f"p{_p}.P_HAND+{L.COLOUR_LETTERS[_c]}"
        WORD_NAMES[L.player_word(_p, L.P_KNOWN + _c)] = f"p{_p}.P_KNOWN+{L.COLOUR_LETTERS[_c]}"


def word_diff(state, s):
    """Dynamic words where kernel array ``state`` and oracle position ``s`` differ."""
    want = to_words(s)
    out = []
    for word in range(L.DYNAMIC_SIZE):
        got = int(state[word])
        if got != want[word]:
            name = WORD_NAMES.get(word, str(word))
            if "STONES" in name:
                out.append(f"{name}: kernel {sorted(_cells(got))} != oracle {sorted(_cells(want[word]))}")
            else:
                out.append(f"{name}: kernel {got} != oracle {want[word]}")
    return out


def check_invariants(s, all_stones=True):
    """Conservation of cards and stones; raises AssertionError. ``all_stones``: every
    stone is on the realm or in supply (hand-made positions may leave some out)."""
    assert s.total_cards() == [L.CARDS_PER_COLOUR] * NCOL, s.total_cards()
    for p, me in enumerate(s.players):
        assert all(0 <= me.known[c] <= me.hand[c] for c in range(NCOL)), (p, me.known, me.hand)
        on_board = len(me.stones) - (me.gifted is not None)
        assert on_board + me.supply == s.realm.stones if all_stones else on_board + me.supply <= s.realm.stones, (
            p,
            on_board,
            me.supply,
        )
        assert 0 <= me.score <= WIN
    assert not s.players[0].stones & s.players[1].stones
    black = s.realm.mountain[BLACK]
    assert {p for p in range(L.PLAYERS) if black in s.players[p].stones} == (
        set() if s.black_stone == NOBODY else {s.black_stone}
    )
