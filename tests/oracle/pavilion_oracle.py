"""An independent, slow, plain-Python reading of the Summer Pavilion rules: a test oracle.

Written from ``shared/seeds/summer-pavilion-refresher.txt``, ``shared/rulings.md``
and ``docs/pavilion.md``; the board (colours, wild colours, regions, end bonuses)
is parsed here from ``summer-pavilion-board.json`` on its own. The numba kernels
are not consulted, except ``kernels/pavilion/layout.py`` for what fixes the state
array and the move codes, so that ``from_array`` / ``to_array`` and the move
numbers agree with the engine.

Representation (clarity over speed):

- a tile set is a list of 6 counts indexed by colour (the order of the data file);
- a board is a set of covered ``(star, number)`` pairs (star: a colour index, or
  ``CENTRE`` for the centre star), the set of colours on the centre star, the tiles
  beside it (``hand``) and on its corners (``kept``), and the score;
- the turn model is that of docs/pavilion.md: phases refill and supply (chance, one
  tile per move), draft, place, bonus, keep (players) and over.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

from tessera.kernels.boarddata import board_json
from tessera.kernels.pavilion import layout as L
from tessera.kernels.pavilion.board import BOARD_FILE

DATA, _ = board_json(BOARD_FILE, "Summer Pavilion board data")

COLOURS = DATA["colors"]
NCOL = len(COLOURS)
CENTRE = NCOL  # the centre star's index
STARS = list(range(NCOL + 1))
NUMBERS = range(1, 7)
TILES_PER_COLOUR = DATA["tiles_per_color"]
SUPPLY = DATA["supply_spaces"]
KEEP = DATA["keep_at_most"]
ROUNDS = len(DATA["wild_color_by_round"])
DISPLAY_TILES = 4  # the refresher: four tiles per display


def star_of(name):
    return CENTRE if name == "center" else COLOURS.index(name)


REGIONS = [
    (frozenset((star_of(s), k) for s, k in region), entry["reward"], kind)
    for kind, entry in DATA["bonus"].items()
    for region in entry["regions"]
]
STAR_POINTS = {star_of(name): points for name, points in DATA["end_bonus"]["complete_star"].items()}
NUMBER_POINTS = {int(k): points for k, points in DATA["end_bonus"]["all_spaces_numbered"].items()}

REFILL, DRAFT, PLACE, BONUS, KEEPING, SUPPLYING, OVER = (
    L.PHASE_REFILL,
    L.PHASE_DRAFT,
    L.PHASE_PLACE,
    L.PHASE_BONUS,
    L.PHASE_KEEP,
    L.PHASE_RESUPPLY,
    L.PHASE_OVER,
)
CHANCE = -1
TERMINAL = -2

# Tests may set this to a collections.Counter to learn which rare rules were exercised.
EVENTS = None


def _note(event):
    if EVENTS is not None:
        EVENTS[event] += 1


def wild_of(round_number):
    return COLOURS.index(DATA["wild_color_by_round"][round_number - 1])


def displays_for(players):
    return DATA["factories_by_players"][str(players)]


# ---------------------------------------------------------------------------
# State
# ---------------------------------------------------------------------------
@dataclass
class Board:
    covered: set = field(default_factory=set)  # (star, number)
    centre_colours: set = field(default_factory=set)
    hand: list = field(default_factory=lambda: [0] * NCOL)
    kept: list = field(default_factory=lambda: [0] * NCOL)
    score: int = DATA["score_start"]

    def copy(self):
        return Board(set(self.covered), set(self.centre_colours), list(self.hand), list(self.kept), self.score)

    def star_full(self, star):
        return all((star, k) in self.covered for k in NUMBERS)

    def tiles_on_board(self):
        """Tiles per colour on the stars."""
        counts = [0] * NCOL
        for star, _ in self.covered:
            if star != CENTRE:
                counts[star] += 1
        for colour in self.centre_colours:
            counts[colour] += 1
        return counts


@dataclass
class State:
    players: int
    phase: int
    actor: int  # in refill: the starter; in supply: who just moved
    round: int
    starter: int
    token: object  # None while in the centre, else the holder
    passed: set
    reward: int
    factories: list
    centre: list
    bag: list
    tower: list
    supply: list
    boards: list

    def copy(self):
        return State(
            self.players,
            self.phase,
            self.actor,
            self.round,
            self.starter,
            self.token,
            set(self.passed),
            self.reward,
            [list(f) for f in self.factories],
            list(self.centre),
            list(self.bag),
            list(self.tower),
            list(self.supply),
            [b.copy() for b in self.boards],
        )

    def wild(self):
        return wild_of(self.round)

    def total_tiles(self):
        counts = [0] * NCOL
        sets = self.factories + [self.centre, self.bag, self.tower, self.supply]
        sets += [b.hand for b in self.boards] + [b.kept for b in self.boards]
        sets += [b.tiles_on_board() for b in self.boards]
        for tiles in sets:
            for c in range(NCOL):
                counts[c] += tiles[c]
        return counts


def new_game(players):
    return State(
        players,
        REFILL,
        0,
        1,
        0,
        None,
        set(),
        0,
        [[0] * NCOL for _ in range(displays_for(players))],
        [0] * NCOL,
        [TILES_PER_COLOUR] * NCOL,
        [0] * NCOL,
        [0] * NCOL,
        [Board() for _ in range(players)],
    )


def to_move(s):
    if s.phase in (REFILL, SUPPLYING):
        return CHANCE
    if s.phase == OVER:
        return TERMINAL
    return s.actor


# ---------------------------------------------------------------------------
# Moves
# ---------------------------------------------------------------------------
def chance_probabilities(s):
    pool = s.bag if sum(s.bag) else s.tower
    return {L.CHANCE_BASE + c: pool[c] / sum(pool) for c in range(NCOL) if pool[c]}


def sub_multisets(tiles, sizes):
    """Distinct per-colour count tuples of sub-multisets of ``tiles`` with a size in ``sizes``."""
    sizes = set(sizes)
    ranges = [range(min(tiles[c], max(sizes)) + 1) for c in range(NCOL)]
    return {counts for counts in itertools.product(*ranges) if sum(counts) in sizes}


def can_pay(board, colour, number, wild, wilds):
    """Space ``number`` costs ``number`` tiles: ``wilds`` wild ones, the rest of ``colour``."""
    if colour == wild:
        return wilds == 0 and board.hand[wild] >= number
    real = number - wilds
    return real >= 1 and board.hand[colour] >= real and board.hand[wild] >= wilds


def legal_moves(s):
    if s.phase in (REFILL, SUPPLYING):
        return set(chance_probabilities(s))
    if s.phase == OVER:
        return set()
    board = s.boards[s.actor]
    if s.phase == BONUS:
        return {L.TAKE_BASE + L.choice_code(c) for c in sub_multisets(s.supply, [s.reward])}
    if s.phase == KEEPING:
        sizes = range(min(KEEP, sum(board.hand)) + 1)
        return {L.KEEP_BASE + L.choice_code(c) for c in sub_multisets(board.hand, sizes)}
    wild = s.wild()
    if s.phase == DRAFT:
        moves = set()
        sources = list(enumerate(s.factories)) + [(L.SOURCE_CENTRE, s.centre)]
        for source, tiles in sources:
            named = [c for c in range(NCOL) if c != wild and tiles[c]]
            moves |= {L.draft_move(source, c) for c in named}
            if not named and tiles[wild]:
                moves.add(L.draft_move(source, L.LONE_WILD))
        return moves
    moves = {L.PASS_MOVE}
    for star in STARS:
        colours = range(NCOL) if star == CENTRE else [star]
        for number in NUMBERS:
            if (star, number) in board.covered:
                continue
            for colour in colours:
                if star == CENTRE and colour in board.centre_colours:
                    continue
                for wilds in range(number):
                    if can_pay(board, colour, number, wild, wilds):
                        moves.add(L.place_move(star, number, colour, wilds))
    return moves


# ---------------------------------------------------------------------------
# Scoring
# ---------------------------------------------------------------------------
def chain_points(board, star, number):
    """1 for the tile, plus each tile joined to it around the star."""
    if board.star_full(star):
        return 6
    points = 1
    for step in (1, -1):
        k = number
        while True:
            k = (k - 1 + step) % 6 + 1
            if (star, k) not in board.covered:
                break
            points += 1
    return points


def end_bonus(board):
    bonus = sum(points for star, points in STAR_POINTS.items() if board.star_full(star))
    for number, points in NUMBER_POINTS.items():
        if all((star, number) in board.covered for star in STARS):
            bonus += points
    return bonus


def lose(board, points):
    """Penalties never take a score below 1."""
    board.score = max(1, board.score - points)


def final_scores(s):
    return [b.score for b in s.boards]


def payoffs(s):
    if s.phase != OVER:
        raise ValueError("payoffs of a game that is not over")
    best = max(final_scores(s))
    winners = [p for p, b in enumerate(s.boards) if b.score == best]
    return [1.0 / len(winners) if p in winners else 0.0 for p in range(s.players)]


# ---------------------------------------------------------------------------
# Playing moves
# ---------------------------------------------------------------------------
def apply(s, move, check=True):
    """The position after ``move`` (a new state; ``s`` is unchanged)."""
    if check and move not in legal_moves(s):
        raise ValueError(f"illegal move {move}")
    t = s.copy()
    if t.phase in (REFILL, SUPPLYING):
        _draw(t, move - L.CHANCE_BASE)
    elif t.phase == DRAFT:
        _draft(t, *L.split_draft_move(move))
    elif t.phase == BONUS:
        _take(t, L.choice_counts(move - L.TAKE_BASE))
    elif t.phase == KEEPING:
        _keep(t, L.choice_counts(move - L.KEEP_BASE))
    elif move == L.PASS_MOVE:
        _pass(t)
    else:
        _place(t, *L.split_place_move(move))
    return t


def _draws_left(s):
    return sum(s.bag) + sum(s.tower) > 0


def _draw(s, colour):
    if sum(s.bag) == 0:
        _note("tower into bag")
        s.bag, s.tower = s.tower, [0] * NCOL
    assert s.bag[colour] > 0
    s.bag[colour] -= 1
    if s.phase == REFILL:
        short = [f for f in s.factories if sum(f) < DISPLAY_TILES]
        (short[0] if short else s.supply)[colour] += 1
        _refill_progress(s)
    else:
        s.supply[colour] += 1
        if sum(s.supply) == SUPPLY or not _draws_left(s):
            if sum(s.supply) < SUPPLY:
                _note("supply left short")
            _next_player(s)


def _refill_progress(s):
    """The round's refill ends when displays and supply are full, or nothing is left to draw."""
    full = all(sum(f) == DISPLAY_TILES for f in s.factories) and sum(s.supply) >= SUPPLY
    if full:
        _start_draft(s)
    elif not _draws_left(s):
        _note("refill stopped short")
        _start_draft(s)


def _start_draft(s):
    s.phase, s.actor = DRAFT, s.starter
    if _table_empty(s):
        _note("nothing to draft")
        _start_placing(s)


def _table_empty(s):
    return not sum(s.centre) and not any(sum(f) for f in s.factories)


def _draft(s, source, colour):
    board = s.boards[s.actor]
    wild = s.wild()
    tiles = s.centre if source == L.SOURCE_CENTRE else s.factories[source]
    taken = [0] * NCOL
    if colour == L.LONE_WILD:
        taken[wild] = 1
    else:
        taken[colour] = tiles[colour]
        taken[wild] = 1 if tiles[wild] else 0
    for c in range(NCOL):
        board.hand[c] += taken[c]
        tiles[c] -= taken[c]
    if source == L.SOURCE_CENTRE:
        if s.token is None:
            _note("start-player penalty")
            s.token = s.actor
            lose(board, sum(taken))
    else:
        for c in range(NCOL):
            s.centre[c] += tiles[c]
        s.factories[source] = [0] * NCOL
    if _table_empty(s):
        _start_placing(s)
    else:
        s.actor = (s.actor + 1) % s.players


def _start_placing(s):
    s.phase = PLACE
    if s.token is None:
        _note("untouched centre")
    s.actor = s.starter if s.token is None else s.token


def _place(s, star, number, colour, wilds):
    board = s.boards[s.actor]
    wild = s.wild()
    board.hand[colour] -= number - wilds
    board.hand[wild] -= wilds
    s.tower[colour] += number - wilds - 1
    s.tower[wild] += wilds
    if wilds:
        _note("wild tiles paid")
    board.covered.add((star, number))
    if star == CENTRE:
        board.centre_colours.add(colour)
    board.score += chain_points(board, star, number)
    reward = sum(r for spaces, r, _ in REGIONS if (star, number) in spaces and spaces <= board.covered)
    if reward:
        _note("bonus region completed")
    count = min(reward, sum(s.supply))
    choices = sub_multisets(s.supply, [count]) if count else set()
    if len(choices) == 1:
        _note("bonus without a choice")
        _take(s, list(next(iter(choices))))
    elif choices:
        s.phase, s.reward = BONUS, count
    else:
        _end_turn(s)


def _take(s, counts):
    board = s.boards[s.actor]
    for c in range(NCOL):
        board.hand[c] += counts[c]
        s.supply[c] -= counts[c]
    s.reward = 0
    _end_turn(s)


def _pass(s):
    s.passed.add(s.actor)
    if sum(s.boards[s.actor].hand):
        s.phase = KEEPING
    else:
        _end_turn(s)


def _keep(s, counts):
    board = s.boards[s.actor]
    discarded = [board.hand[c] - counts[c] for c in range(NCOL)]
    for c in range(NCOL):
        s.tower[c] += discarded[c]
    lose(board, sum(discarded))
    board.kept, board.hand = list(counts), [0] * NCOL
    _end_turn(s)


def _end_turn(s):
    if len(s.passed) == s.players:
        _end_round(s)
    elif sum(s.supply) < SUPPLY and _draws_left(s):
        s.phase = SUPPLYING
    else:
        if sum(s.supply) < SUPPLY:
            _note("supply stays short")
        _next_player(s)


def _next_player(s):
    s.phase = PLACE
    for step in range(1, s.players + 1):
        p = (s.actor + step) % s.players
        if p not in s.passed:
            s.actor = p
            return


def _end_round(s):
    if s.round == ROUNDS:
        for board in s.boards:
            board.score += end_bonus(board)
            if sum(board.kept):
                _note("corner tiles at the end")
            lose(board, sum(board.kept))
            for c in range(NCOL):
                s.tower[c] += board.kept[c]
            board.kept = [0] * NCOL
        s.phase = OVER
        return
    for board in s.boards:
        board.hand, board.kept = board.kept, [0] * NCOL
    if s.token is not None:
        s.starter = s.token
    s.token = None
    s.passed = set()
    s.round += 1
    s.phase, s.actor = REFILL, s.starter
    _refill_progress(s)


# ---------------------------------------------------------------------------
# Canonical form and the kernel array
# ---------------------------------------------------------------------------
class Canon(NamedTuple):
    players: int
    phase: int
    to_move: int
    actor: int
    round: int
    starter: int
    token: object
    passed: tuple
    reward: int
    factories: tuple
    centre: tuple
    bag: tuple
    tower: tuple
    supply: tuple
    boards: tuple


def to_canonical(s):
    boards = tuple(
        (tuple(sorted(b.covered)), tuple(sorted(b.centre_colours)), tuple(b.hand), tuple(b.kept), b.score)
        for b in s.boards
    )
    actor = s.actor if s.phase != OVER else None
    return Canon(
        s.players,
        s.phase,
        to_move(s),
        actor,
        s.round,
        s.starter,
        s.token,
        tuple(sorted(s.passed)),
        s.reward,
        tuple(map(tuple, s.factories)),
        tuple(s.centre),
        tuple(s.bag),
        tuple(s.tower),
        tuple(s.supply),
        boards,
    )


def canon_diff(a, b):
    return [f"{name}: {x} != {y}" for name, x, y in zip(Canon._fields, a, b) if x != y]


class DecodeError(ValueError):
    """A state array that breaks the layout's encoding."""


def _tiles(word, what):
    if not 0 <= word < 1 << (8 * NCOL):
        raise DecodeError(f"{what}: stray bits in {word:#x}")
    return [(word >> (8 * c)) & 0xFF for c in range(NCOL)]


def from_array(state):
    """Decode a kernel state array (layout.py) into the oracle's representation."""
    w = [int(x) for x in np.asarray(state)]
    if len(w) != L.STATE_SIZE or w[L.W_GAME] != L.GAME_ID:
        raise DecodeError("not a Summer Pavilion array")
    players = w[L.W_PLAYERS]
    if players not in (2, 3, 4):
        raise DecodeError(f"players {players}")
    nf = displays_for(players)
    for f in range(nf, L.MAX_FACTORIES):
        if w[L.W_FACTORY + f]:
            raise DecodeError(f"display {f + 1} set in a {players}-player game")
    token = None if w[L.W_TOKEN] == L.TOKEN_IN_CENTRE else w[L.W_TOKEN]
    boards = []
    for p in range(players):
        base = L.player_word(p, 0)
        spaces = w[base + L.P_SPACES]
        if not 0 <= spaces < 1 << L.NSPACES:
            raise DecodeError(f"player {p} spaces {spaces:#x}")
        covered = {(bit // 6, bit % 6 + 1) for bit in range(L.NSPACES) if spaces >> bit & 1}
        colours_word = w[base + L.P_CENTRE_COLOURS]
        if not 0 <= colours_word < 1 << NCOL:
            raise DecodeError(f"player {p} centre colours {colours_word:#x}")
        centre_colours = {c for c in range(NCOL) if colours_word >> c & 1}
        boards.append(
            Board(
                covered,
                centre_colours,
                _tiles(w[base + L.P_HAND], "hand"),
                _tiles(w[base + L.P_KEPT], "kept"),
                w[base + L.P_SCORE],
            )
        )
    passed = {p for p in range(players) if w[L.W_PASSED] >> p & 1}
    return State(
        players,
        w[L.W_PHASE],
        w[L.W_TO_MOVE],
        w[L.W_ROUND],
        w[L.W_STARTER],
        token,
        passed,
        w[L.W_REWARD],
        [_tiles(w[L.W_FACTORY + f], "display") for f in range(nf)],
        _tiles(w[L.W_CENTRE], "centre"),
        _tiles(w[L.W_BAG], "bag"),
        _tiles(w[L.W_TOWER], "tower"),
        _tiles(w[L.W_SUPPLY], "supply"),
        boards,
    )


def to_array(s):
    """Encode an oracle state as a kernel array (for building test positions)."""
    a = np.zeros(L.STATE_SIZE, np.int64)

    def word(counts):
        return sum(n << (8 * c) for c, n in enumerate(counts))

    a[L.W_GAME] = L.GAME_ID
    a[L.W_PLAYERS] = s.players
    a[L.W_PHASE] = s.phase
    a[L.W_TO_MOVE] = s.actor
    a[L.W_ROUND] = s.round
    a[L.W_STARTER] = s.starter
    a[L.W_TOKEN] = L.TOKEN_IN_CENTRE if s.token is None else s.token
    a[L.W_PASSED] = sum(1 << p for p in s.passed)
    a[L.W_REWARD] = s.reward
    a[L.W_CENTRE] = word(s.centre)
    a[L.W_BAG] = word(s.bag)
    a[L.W_TOWER] = word(s.tower)
    a[L.W_SUPPLY] = word(s.supply)
    for f, tiles in enumerate(s.factories):
        a[L.W_FACTORY + f] = word(tiles)
    for p, b in enumerate(s.boards):
        base = L.player_word(p, 0)
        a[base + L.P_SPACES] = sum(1 << (6 * star + k - 1) for star, k in b.covered)
        a[base + L.P_CENTRE_COLOURS] = sum(1 << c for c in b.centre_colours)
        a[base + L.P_HAND] = word(b.hand)
        a[base + L.P_KEPT] = word(b.kept)
        a[base + L.P_SCORE] = b.score
    return a
