"""Legal moves and chance outcomes of a Summer Pavilion position."""

from tessera.kernels.common import draw_moves, draw_outcomes, sample_draw
from tessera.kernels.jit import njit
from tessera.kernels.pavilion.layout import (
    CENTRE_STAR,
    CHANCE_BASE,
    CHOICE_BITS,
    CHOICE_MASK,
    DRAFT_COLOURS,
    FACTORIES_BY_PLAYERS,
    KEEP_AT_MOST,
    KEEP_BASE,
    LONE_WILD,
    NCOLOURS,
    NSTARS,
    P_CENTRE_COLOURS,
    P_HAND,
    P_SPACES,
    PASS_MOVE,
    PHASE_BONUS,
    PHASE_DRAFT,
    PHASE_KEEP,
    PHASE_PLACE,
    PHASE_REFILL,
    PHASE_RESUPPLY,
    PLACE_BASE,
    PLAYER_BASE,
    PLAYER_WORDS,
    SOURCE_CENTRE,
    STAR_MASK,
    STAR_SPACES,
    TAKE_BASE,
    W_BAG,
    W_CENTRE,
    W_FACTORY,
    W_PHASE,
    W_PLAYERS,
    W_REWARD,
    W_ROUND,
    W_SUPPLY,
    W_TO_MOVE,
    W_TOWER,
    WILD_BY_ROUND,
)
from tessera.kernels.pavilion.tiles import count_of, total
from tessera.kernels.rng import below


@njit(cache=True)
def player_base(player):
    return PLAYER_BASE + player * PLAYER_WORDS


@njit(cache=True)
def wild_colour(state):
    return WILD_BY_ROUND[state[W_ROUND] - 1]


@njit(cache=True)
def is_chance_phase(phase):
    return phase == PHASE_REFILL or phase == PHASE_RESUPPLY


# ---- drafting ------------------------------------------------------------------------


@njit(cache=True, inline="always")
def source_moves(tiles, source, wild, moves, n):
    """Name each non-wild colour present; a source of wild tiles only gives the lone wild."""
    named = False
    for c in range(NCOLOURS):
        if c != wild and count_of(tiles, c) > 0:
            moves[n] = source * DRAFT_COLOURS + c
            n += 1
            named = True
    if not named and count_of(tiles, wild) > 0:
        moves[n] = source * DRAFT_COLOURS + LONE_WILD
        n += 1
    return n


@njit(cache=True)
def draft_moves(state, moves):
    wild = wild_colour(state)
    n = 0
    for f in range(FACTORIES_BY_PLAYERS[state[W_PLAYERS]]):
        n = source_moves(state[W_FACTORY + f], f, wild, moves, n)
    return source_moves(state[W_CENTRE], SOURCE_CENTRE, wild, moves, n)


# ---- placing -------------------------------------------------------------------------


@njit(cache=True, inline="always")
def colour_placements(star, empty, colour, hand, wild, moves, n):
    """Placements of ``colour`` on the empty spaces of ``star``, one per way to pay.

    Space k costs k tiles: at least one of the colour, wild tiles standing in for the
    rest. The wild colour placed as itself is paid with its own tiles only.
    """
    real = count_of(hand, colour)
    if real == 0:
        return n
    wilds = count_of(hand, wild)
    for i in range(STAR_SPACES):
        if ((empty >> i) & 1) == 0:
            continue
        number = i + 1
        code = PLACE_BASE + ((STAR_SPACES * star + i) * NCOLOURS + colour) * STAR_SPACES
        if colour == wild:
            if real >= number:
                moves[n] = code
                n += 1
            continue
        for paid_wild in range(max(0, number - real), min(number - 1, wilds) + 1):
            moves[n] = code + paid_wild
            n += 1
    return n


@njit(cache=True)
def place_moves(state, moves):
    """Every placement, then the pass."""
    base = player_base(state[W_TO_MOVE])
    hand = state[base + P_HAND]
    spaces = state[base + P_SPACES]
    wild = wild_colour(state)
    n = 0
    for star in range(NSTARS):
        empty = ~(spaces >> (STAR_SPACES * star)) & STAR_MASK
        if empty == 0:
            continue
        if star != CENTRE_STAR:
            n = colour_placements(star, empty, star, hand, wild, moves, n)
            continue
        used = state[base + P_CENTRE_COLOURS]
        for colour in range(NCOLOURS):
            if ((used >> colour) & 1) == 0:
                n = colour_placements(star, empty, colour, hand, wild, moves, n)
    moves[n] = PASS_MOVE
    return n + 1


# ---- choices: supply tiles for a bonus, tiles to keep ---------------------------------


@njit(cache=True)
def choice_moves(pool, smallest, largest, code_base, moves, n):
    """Append ``code_base + choice`` for every sub-multiset of ``pool`` with a size in
    ``smallest .. largest``, each once (tiles of a colour are alike).

    An odometer over the per-colour counts, kept in the choice code itself; a count
    that cannot grow resets to 0 and carries into the next colour.
    """
    code = 0
    size = 0
    while True:
        if size >= smallest:
            moves[n] = code_base + code
            n += 1
        c = 0
        while c < NCOLOURS:
            shift = CHOICE_BITS * c
            held = (code >> shift) & CHOICE_MASK
            if size < largest and held < count_of(pool, c):
                code += 1 << shift
                size += 1
                break
            code -= held << shift
            size -= held
            c += 1
        if c == NCOLOURS:
            return n


# ---- every phase ---------------------------------------------------------------------


@njit(cache=True)
def draw_pool(state):
    """The tiles the next draw comes from: the bag, or the tower when the bag is empty."""
    bag = state[W_BAG]
    if total(bag) == 0:
        return state[W_TOWER]
    return bag


@njit(cache=True)
def legal_moves(state, moves):
    """Write the moves of whoever acts (a player, or chance) into ``moves``; return the count."""
    phase = state[W_PHASE]
    if phase == PHASE_PLACE:
        return place_moves(state, moves)
    if phase == PHASE_DRAFT:
        return draft_moves(state, moves)
    if phase == PHASE_BONUS:
        reward = state[W_REWARD]
        return choice_moves(state[W_SUPPLY], reward, reward, TAKE_BASE, moves, 0)
    if phase == PHASE_KEEP:
        hand = state[player_base(state[W_TO_MOVE]) + P_HAND]
        return choice_moves(hand, 0, KEEP_AT_MOST, KEEP_BASE, moves, 0)
    if is_chance_phase(phase):
        return draw_moves(draw_pool(state), NCOLOURS, CHANCE_BASE, moves)
    return 0


@njit(cache=True)
def chance_outcomes(state, moves, probs):
    """The chance moves with their probabilities; 0 when a player acts."""
    if not is_chance_phase(state[W_PHASE]):
        return 0
    pool = draw_pool(state)
    return draw_outcomes(pool, total(pool), NCOLOURS, CHANCE_BASE, moves, probs)


@njit(cache=True)
def sample_chance(state, rng):
    """The next tile drawn: colour ``c`` with probability count / total of the pool."""
    pool = draw_pool(state)
    return sample_draw(pool, total(pool), NCOLOURS, CHANCE_BASE, rng)


@njit(cache=True)
def random_move(state, rng, moves):
    """A uniformly random legal move of the player to act."""
    return moves[below(rng, legal_moves(state, moves))]
