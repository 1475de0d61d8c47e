"""Applying moves: drafting, placing, bonuses, passing, the refills and the end of a round."""

from tessera.kernels.jit import njit
from tessera.kernels.pavilion.layout import (
    CENTRE_STAR,
    CHANCE_BASE,
    DRAFT_COLOURS,
    FACTORIES_BY_PLAYERS,
    FACTORY_SIZE,
    KEEP_BASE,
    NCOLOURS,
    P_CENTRE_COLOURS,
    P_HAND,
    P_KEPT,
    P_SCORE,
    P_SPACES,
    PASS_MOVE,
    PHASE_BONUS,
    PHASE_DRAFT,
    PHASE_KEEP,
    PHASE_OVER,
    PHASE_PLACE,
    PHASE_REFILL,
    PHASE_RESUPPLY,
    PLACE_BASE,
    ROUNDS,
    SOURCE_CENTRE,
    STAR_SPACES,
    SUPPLY_SIZE,
    TAKE_BASE,
    TOKEN_IN_CENTRE,
    W_BAG,
    W_CENTRE,
    W_FACTORY,
    W_PASSED,
    W_PHASE,
    W_PLAYERS,
    W_REWARD,
    W_ROUND,
    W_STARTER,
    W_SUPPLY,
    W_TO_MOVE,
    W_TOKEN,
    W_TOWER,
)
from tessera.kernels.pavilion.moves import is_chance_phase, player_base, sample_chance, wild_colour
from tessera.kernels.pavilion.stars import completed_reward, end_bonus, lose_points, placement_points
from tessera.kernels.pavilion.tiles import colours_present, drafted, one_of, tiles_of_choice, total


@njit(cache=True)
def apply_move(state, move):
    """Play ``move`` (assumed legal) in place."""
    if move >= KEEP_BASE:
        keep(state, move - KEEP_BASE)
    elif move >= TAKE_BASE:
        take(state, tiles_of_choice(move - TAKE_BASE))
    elif move >= CHANCE_BASE:
        draw_tile(state, move - CHANCE_BASE)
    elif move == PASS_MOVE:
        pass_turn(state)
    elif move >= PLACE_BASE:
        place(state, move - PLACE_BASE)
    else:
        draft(state, move // DRAFT_COLOURS, move % DRAFT_COLOURS)


# ---- drafting ------------------------------------------------------------------------


@njit(cache=True)
def draft(state, source, colour):
    """Take every tile of the named colour plus one wild tile if the source has one
    (or the lone wild of an all-wild source); a display's rest slides to the centre."""
    player = state[W_TO_MOVE]
    base = player_base(player)
    wild = wild_colour(state)
    tiles = state[W_CENTRE] if source == SOURCE_CENTRE else state[W_FACTORY + source]
    taken = drafted(tiles, colour, wild)
    state[base + P_HAND] += taken
    if source == SOURCE_CENTRE:
        state[W_CENTRE] = tiles - taken
        if state[W_TOKEN] == TOKEN_IN_CENTRE:
            # The first to take from the centre: the token, and a point per tile taken.
            state[W_TOKEN] = player
            state[base + P_SCORE] = lose_points(state[base + P_SCORE], total(taken))
    else:
        state[W_CENTRE] += tiles - taken
        state[W_FACTORY + source] = 0
    if table_empty(state):
        start_placing(state)
    else:
        state[W_TO_MOVE] = (player + 1) % state[W_PLAYERS]


@njit(cache=True)
def table_empty(state):
    if state[W_CENTRE]:
        return False
    for f in range(FACTORIES_BY_PLAYERS[state[W_PLAYERS]]):
        if state[W_FACTORY + f]:
            return False
    return True


@njit(cache=True)
def start_draft(state):
    """Drafting begins with the starter; with nothing on the displays it is skipped."""
    state[W_PHASE] = PHASE_DRAFT
    state[W_TO_MOVE] = state[W_STARTER]
    if table_empty(state):
        start_placing(state)


@njit(cache=True)
def start_placing(state):
    """The token's holder places first; the round's starter if nobody took it."""
    state[W_PHASE] = PHASE_PLACE
    token = state[W_TOKEN]
    state[W_TO_MOVE] = state[W_STARTER] if token == TOKEN_IN_CENTRE else token


# ---- placing -------------------------------------------------------------------------


@njit(cache=True)
def place(state, code):
    """Cover a space: pay its number in tiles, one onto the space, the rest to the tower."""
    paid_wild = code % STAR_SPACES
    colour = (code // STAR_SPACES) % NCOLOURS
    space = code // (STAR_SPACES * NCOLOURS)
    number = space % STAR_SPACES + 1
    base = player_base(state[W_TO_MOVE])
    paid = (number - paid_wild) * one_of(colour) + paid_wild * one_of(wild_colour(state))
    state[base + P_HAND] -= paid
    state[W_TOWER] += paid - one_of(colour)
    spaces = state[base + P_SPACES] | (1 << space)
    state[base + P_SPACES] = spaces
    if space // STAR_SPACES == CENTRE_STAR:
        state[base + P_CENTRE_COLOURS] |= 1 << colour
    state[base + P_SCORE] += placement_points(spaces, space)
    start_bonus(state, completed_reward(spaces, space))


@njit(cache=True)
def start_bonus(state, reward):
    """The supply tiles a placement earned: a choice of the player, unless there is only one."""
    supply = state[W_SUPPLY]
    size = total(supply)
    count = min(reward, size)
    if count == 0:
        end_turn(state)
    elif count == size:
        take(state, supply)
    elif colours_present(supply) == 1:
        take(state, supply // size * count)  # supply // size: one tile of its colour
    else:
        state[W_PHASE] = PHASE_BONUS
        state[W_REWARD] = count


@njit(cache=True)
def take(state, tiles):
    base = player_base(state[W_TO_MOVE])
    state[base + P_HAND] += tiles
    state[W_SUPPLY] -= tiles
    state[W_REWARD] = 0
    end_turn(state)


# ---- passing -------------------------------------------------------------------------


@njit(cache=True)
def pass_turn(state):
    """Done for the round; a player holding tiles then chooses which to keep."""
    player = state[W_TO_MOVE]
    state[W_PASSED] |= 1 << player
    if state[player_base(player) + P_HAND]:
        state[W_PHASE] = PHASE_KEEP
    else:
        end_turn(state)


@njit(cache=True)
def keep(state, choice):
    """The kept tiles go to the corners; each other one to the tower, costing a point."""
    base = player_base(state[W_TO_MOVE])
    kept = tiles_of_choice(choice)
    discarded = state[base + P_HAND] - kept
    state[W_TOWER] += discarded
    state[base + P_SCORE] = lose_points(state[base + P_SCORE], total(discarded))
    state[base + P_KEPT] = kept
    state[base + P_HAND] = 0
    end_turn(state)


# ---- turns, refills, rounds ----------------------------------------------------------


@njit(cache=True)
def end_turn(state):
    """After a placing-phase turn: the round ends, the supply is topped up, or the next
    player who has not passed moves."""
    players = state[W_PLAYERS]
    if state[W_PASSED] == (1 << players) - 1:
        end_round(state)
    elif total(state[W_SUPPLY]) < SUPPLY_SIZE and draws_left(state):
        state[W_PHASE] = PHASE_RESUPPLY
    else:
        next_player(state)


@njit(cache=True)
def next_player(state):
    players = state[W_PLAYERS]
    player = state[W_TO_MOVE]
    state[W_PHASE] = PHASE_PLACE
    for step in range(1, players + 1):
        other = (player + step) % players
        if ((state[W_PASSED] >> other) & 1) == 0:
            state[W_TO_MOVE] = other
            return


@njit(cache=True)
def draws_left(state):
    return total(state[W_BAG]) + total(state[W_TOWER]) > 0


@njit(cache=True)
def next_factory(state):
    """The first display that is not full, or -1."""
    for f in range(FACTORIES_BY_PLAYERS[state[W_PLAYERS]]):
        if total(state[W_FACTORY + f]) < FACTORY_SIZE:
            return f
    return -1


@njit(cache=True)
def refill_done(state):
    full = next_factory(state) < 0 and total(state[W_SUPPLY]) >= SUPPLY_SIZE
    return full or not draws_left(state)


@njit(cache=True)
def draw_tile(state, colour):
    """One chance step: a tile of ``colour`` from the bag (the tower tipped into it when
    empty) to the next display at the start of a round, else to the supply."""
    if total(state[W_BAG]) == 0:
        state[W_BAG] = state[W_TOWER]
        state[W_TOWER] = 0
    state[W_BAG] -= one_of(colour)
    if state[W_PHASE] == PHASE_REFILL:
        factory = next_factory(state)
        if factory >= 0:
            state[W_FACTORY + factory] += one_of(colour)
        else:
            state[W_SUPPLY] += one_of(colour)
        if refill_done(state):
            start_draft(state)
    else:
        state[W_SUPPLY] += one_of(colour)
        if total(state[W_SUPPLY]) >= SUPPLY_SIZE or not draws_left(state):
            next_player(state)


@njit(cache=True)
def random_refill(state, rng):
    """The rest of a refill drawn at random: the same draws as repeated ``sample_chance``."""
    while is_chance_phase(state[W_PHASE]):
        draw_tile(state, sample_chance(state, rng) - CHANCE_BASE)


@njit(cache=True)
def end_round(state):
    """Everyone passed: the game ends after the last round, else the next one is prepared."""
    if state[W_ROUND] == ROUNDS:
        finish_game(state)
        return
    for p in range(state[W_PLAYERS]):
        base = player_base(p)
        state[base + P_HAND] = state[base + P_KEPT]
        state[base + P_KEPT] = 0
    if state[W_TOKEN] != TOKEN_IN_CENTRE:
        state[W_STARTER] = state[W_TOKEN]
    state[W_TOKEN] = TOKEN_IN_CENTRE
    state[W_PASSED] = 0
    state[W_ROUND] += 1
    state[W_TO_MOVE] = state[W_STARTER]
    state[W_PHASE] = PHASE_REFILL
    if refill_done(state):
        start_draft(state)


@njit(cache=True)
def finish_game(state):
    """End bonuses, then a point lost per tile left on the corners (never below 1)."""
    for p in range(state[W_PLAYERS]):
        base = player_base(p)
        kept = state[base + P_KEPT]
        score = state[base + P_SCORE] + end_bonus(state[base + P_SPACES])
        state[base + P_SCORE] = lose_points(score, total(kept))
        state[W_TOWER] += kept
        state[base + P_KEPT] = 0
    state[W_PHASE] = PHASE_OVER
