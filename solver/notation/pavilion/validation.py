"""Checking a Summer Pavilion state array is a position the rules can reach, each failure
a PositionError naming the field; the checks, in order, are listed in
docs/pavilion-notation.md ("Validation")."""

import tessera.kernels.pavilion.layout as pavilion_layout
from tessera.errors import PositionError
from tessera.kernels.pavilion.layout import (
    CENTRE_STAR,
    COLOUR_NAMES,
    FACTORY_SIZE,
    GAME_ID,
    KEEP_AT_MOST,
    LANES_ALL,
    MAX_REWARD,
    NCOLOURS,
    NSPACES,
    P_CENTRE_COLOURS,
    P_HAND,
    P_KEPT,
    P_SCORE,
    P_SPACES,
    PHASE_BONUS,
    PHASE_DRAFT,
    PHASE_KEEP,
    PHASE_OVER,
    PHASE_PLACE,
    PHASE_REFILL,
    PHASE_RESUPPLY,
    PLAYER_COUNTS,
    ROUNDS,
    STAR_MASK,
    STAR_SPACES,
    STATE_SIZE,
    SUPPLY_SIZE,
    TILES_PER_COLOUR,
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
    factories_for,
    player_word,
)
from tessera.notation.fields import check_array, check_unused_words, filling_factory, part_filled_factory
from tessera.notation.pavilion.words import PHASES, TILES, tile_set_text

ALL_COLOURS = (1 << NCOLOURS) - 1


def validate(state):
    """Raise PositionError unless ``state`` is a position the rules can reach.

    The checks, in order, are listed in docs/pavilion-notation.md ("Validation").
    """
    check_array(state, STATE_SIZE, GAME_ID, "Summer Pavilion")
    _check_header(state)
    check_unused_words(state, pavilion_layout)
    _check_tile_sets(state)
    for p in range(int(state[W_PLAYERS])):
        _check_board(state, p)
    _check_tile_totals(state)
    _check_turn_words(state)
    _PHASE_CHECKS[int(state[W_PHASE])](state)


def _check_header(state):
    players = int(state[W_PLAYERS])
    if players not in PLAYER_COUNTS:
        raise PositionError("players", f"Summer Pavilion has 2 to 4 players, not {players}")
    if not 0 <= state[W_PHASE] < len(PHASES):
        raise PositionError("phase", f"unknown phase {state[W_PHASE]}")
    if not 1 <= state[W_ROUND] <= ROUNDS:
        raise PositionError("round", f"rounds are 1 to {ROUNDS}, not {state[W_ROUND]}")
    for field, word in (("turn", W_TO_MOVE), ("starter", W_STARTER)):
        if not 0 <= state[word] < players:
            raise PositionError(field, f"no player {state[word] + 1} in a {players}-player game")
    if not (state[W_TOKEN] == TOKEN_IN_CENTRE or 0 <= state[W_TOKEN] < players):
        raise PositionError("token", f"no player {state[W_TOKEN] + 1} in a {players}-player game")
    if not 0 <= state[W_PASSED] < 1 << players:
        raise PositionError("passed", f"a player outside the {players}-player game passed")
    if not 0 <= state[W_REWARD] <= MAX_REWARD:
        raise PositionError("reward", f"a placement earns at most {MAX_REWARD} supply tiles, not {state[W_REWARD]}")
    if state[W_ROUND] == 1 and state[W_STARTER] != 0:
        raise PositionError("starter", "player 1 starts round 1")


def _check_tile_sets(state):
    sets = [
        ("centre", "the centre", W_CENTRE),
        ("supply", "the supply", W_SUPPLY),
        ("bag", "the bag", W_BAG),
        ("tower", "the tower", W_TOWER),
    ]
    sets += [("factories", f"factory {f + 1}", W_FACTORY + f) for f in range(factories_for(int(state[W_PLAYERS])))]
    for p in range(int(state[W_PLAYERS])):
        sets += [
            (f"player {p + 1} hand", "the hand", player_word(p, P_HAND)),
            (f"player {p + 1} kept", "the corners", player_word(p, P_KEPT)),
        ]
    for field, name, index in sets:
        word = int(state[index])
        if word & ~LANES_ALL:
            raise PositionError(field, f"{name} has bits outside the colour lanes")
        TILES.check_counts(field, name, word)
    limits = [
        ("factories", f"factory {f + 1}", W_FACTORY + f, FACTORY_SIZE)
        for f in range(factories_for(int(state[W_PLAYERS])))
    ]
    limits.append(("supply", "the supply", W_SUPPLY, SUPPLY_SIZE))
    limits += [
        (f"player {p + 1} kept", "the corners", player_word(p, P_KEPT), KEEP_AT_MOST)
        for p in range(int(state[W_PLAYERS]))
    ]
    for field, name, index, limit in limits:
        if TILES.tiles(state[index]) > limit:
            raise PositionError(field, f"{name} holds {TILES.tiles(state[index])} tiles (at most {limit})")


def _check_board(state, p):
    prefix = f"player {p + 1} "
    spaces = int(state[player_word(p, P_SPACES)])
    colours = int(state[player_word(p, P_CENTRE_COLOURS)])
    if not 0 <= spaces < 1 << NSPACES:
        raise PositionError(prefix + "stars", "covered spaces outside the seven stars")
    if not 0 <= colours <= ALL_COLOURS:
        raise PositionError(prefix + "stars", "centre star colours outside the six colours")
    on_centre = (spaces >> (STAR_SPACES * CENTRE_STAR) & STAR_MASK).bit_count()
    if colours.bit_count() != on_centre:
        raise PositionError(
            prefix + "stars", f"the centre star covers {on_centre} spaces but holds {colours.bit_count()} colours"
        )
    if state[player_word(p, P_SCORE)] < 1:
        raise PositionError(prefix + "score", "a score never drops below 1")


def _board_tiles(state, p):
    """Tiles per colour on a player's stars."""
    spaces = int(state[player_word(p, P_SPACES)])
    colours = int(state[player_word(p, P_CENTRE_COLOURS)])
    return [(spaces >> (STAR_SPACES * c) & STAR_MASK).bit_count() + (colours >> c & 1) for c in range(NCOLOURS)]


def _check_tile_totals(state):
    counts = [0] * NCOLOURS
    words = [W_CENTRE, W_SUPPLY, W_BAG, W_TOWER]
    words += [W_FACTORY + f for f in range(factories_for(int(state[W_PLAYERS])))]
    for p in range(int(state[W_PLAYERS])):
        words += [player_word(p, P_HAND), player_word(p, P_KEPT)]
        counts = [a + b for a, b in zip(counts, _board_tiles(state, p))]
    for index in words:
        counts = [a + b for a, b in zip(counts, TILES.counts(state[index]))]
    wrong = [f"{count} {name}" for name, count in zip(COLOUR_NAMES, counts) if count != TILES_PER_COLOUR]
    if wrong:
        raise PositionError(
            "tiles", f"each colour has {TILES_PER_COLOUR} tiles in all, but there are {', '.join(wrong)}"
        )


def _check_turn_words(state):
    """Passing, kept tiles and the pending reward belong to the placing phase."""
    phase = int(state[W_PHASE])
    players = int(state[W_PLAYERS])
    passed = int(state[W_PASSED])
    placing = phase in (PHASE_PLACE, PHASE_BONUS, PHASE_KEEP, PHASE_RESUPPLY)
    if passed and not placing and phase != PHASE_OVER:
        raise PositionError("passed", f"players pass only in the placing phase, not in phase {PHASES[phase]}")
    if (state[W_REWARD] != 0) != (phase == PHASE_BONUS):
        raise PositionError("reward", "a reward is pending exactly in phase bonus")
    for p in range(players):
        has_passed = passed >> p & 1
        keeping = phase == PHASE_KEEP and p == state[W_TO_MOVE]
        if state[player_word(p, P_KEPT)] and (not has_passed or keeping):
            raise PositionError(
                f"player {p + 1} kept", "tiles on the corners, but the player has not passed and chosen them"
            )
        if state[player_word(p, P_HAND)] and has_passed and not keeping:
            raise PositionError(
                f"player {p + 1} hand", "tiles beside the board after passing (they are kept or discarded)"
            )


def _check_table_empty(state, phase):
    for f in range(factories_for(int(state[W_PLAYERS]))):
        if state[W_FACTORY + f]:
            raise PositionError("factories", f"factory {f + 1} has tiles in phase {phase}")
    if state[W_CENTRE]:
        raise PositionError("centre", f"tiles in the centre in phase {phase}")


def _draws_left(state):
    return TILES.tiles(state[W_BAG]) + TILES.tiles(state[W_TOWER]) > 0


def _check_supply_topped_up(state, phase):
    if TILES.tiles(state[W_SUPPLY]) < SUPPLY_SIZE and _draws_left(state):
        raise PositionError(
            "supply",
            f"{TILES.tiles(state[W_SUPPLY])} tiles in phase {phase} while"
            " the bag or tower has tiles (it is topped up to"
            f" {SUPPLY_SIZE})",
        )


def _factory_tiles(state):
    return [TILES.tiles(state[W_FACTORY + f]) for f in range(factories_for(int(state[W_PLAYERS])))]


def _check_refill(state):
    if state[W_CENTRE]:
        raise PositionError("centre", "tiles in the centre in phase refill")
    for p in range(int(state[W_PLAYERS])):
        if TILES.tiles(state[player_word(p, P_HAND)]) > KEEP_AT_MOST:
            raise PositionError(
                f"player {p + 1} hand", "more tiles than could be kept from the last round in phase refill"
            )
    if state[W_TOKEN] != TOKEN_IN_CENTRE:
        raise PositionError("token", "the token is back in the centre for the refill")
    if state[W_TO_MOVE] != state[W_STARTER]:
        raise PositionError("turn", "in phase refill the player to move is the starter")
    filling = filling_factory(_factory_tiles(state), FACTORY_SIZE)
    if filling is not None and TILES.tiles(state[W_SUPPLY]) > 0 and int(state[W_ROUND]) == 1:
        raise PositionError("supply", "the first supply is drawn after the factories")
    if filling is None and TILES.tiles(state[W_SUPPLY]) >= SUPPLY_SIZE:
        raise PositionError("factories", "factories and supply are full, so the refill is over")
    if not _draws_left(state):
        raise PositionError("bag", "bag and tower are empty, so the refill is over")


def _check_draft(state):
    counts = _factory_tiles(state)
    if not any(counts) and not state[W_CENTRE]:
        raise PositionError("factories", "no tiles on the factories or in the centre in phase draft")
    short = part_filled_factory(counts, FACTORY_SIZE)
    if short is not None and _draws_left(state):
        raise PositionError(
            "factories",
            f"factory {short + 1} is part-filled but the bag or"
            " tower has tiles (a refill stops only when both are"
            " empty)",
        )
    if short is not None and any(counts[short + 1 :]):
        raise PositionError("factories", f"factory {short + 1} is part-filled but a later factory has tiles")
    _check_supply_topped_up(state, "draft")


def _check_place(state):
    _check_table_empty(state, "place")
    _check_mover_active(state, "place")
    _check_supply_topped_up(state, "place")


def _check_mover_active(state, phase):
    if int(state[W_PASSED]) >> int(state[W_TO_MOVE]) & 1:
        raise PositionError("turn", f"player {state[W_TO_MOVE] + 1} has passed, so cannot move in phase {phase}")


def _check_bonus(state):
    _check_table_empty(state, "bonus")
    _check_mover_active(state, "bonus")
    supply = int(state[W_SUPPLY])
    colours = sum(1 for n in TILES.counts(supply) if n)
    if state[W_REWARD] >= TILES.tiles(supply) or colours < 2:
        raise PositionError(
            "reward",
            f"taking {state[W_REWARD]} of supply {tile_set_text(supply)} is no choice (it is made without a move)",
        )


def _check_keep(state):
    _check_table_empty(state, "keep")
    player = int(state[W_TO_MOVE])
    if not int(state[W_PASSED]) >> player & 1:
        raise PositionError("passed", f"player {player + 1} keeps tiles but has not passed")
    if not state[player_word(player, P_HAND)]:
        raise PositionError(f"player {player + 1} hand", "no tiles to keep in phase keep")


def _check_resupply(state):
    _check_table_empty(state, "resupply")
    if int(state[W_PASSED]) == (1 << int(state[W_PLAYERS])) - 1:
        raise PositionError("passed", "everyone has passed, so the round is over")
    if TILES.tiles(state[W_SUPPLY]) >= SUPPLY_SIZE:
        raise PositionError("supply", "the supply is full in phase resupply")
    if not _draws_left(state):
        raise PositionError("bag", "bag and tower are empty in phase resupply")


def _check_over(state):
    _check_table_empty(state, "over")
    if state[W_ROUND] != ROUNDS:
        raise PositionError("round", f"the game ends after round {ROUNDS}")
    players = int(state[W_PLAYERS])
    if int(state[W_PASSED]) != (1 << players) - 1:
        raise PositionError("passed", "everyone has passed when the game is over")
    for p in range(players):
        if state[player_word(p, P_HAND)] or state[player_word(p, P_KEPT)]:
            raise PositionError(f"player {p + 1} hand", "tiles left when the game is over (they go to the tower)")


_PHASE_CHECKS = {
    PHASE_REFILL: _check_refill,
    PHASE_DRAFT: _check_draft,
    PHASE_PLACE: _check_place,
    PHASE_BONUS: _check_bonus,
    PHASE_KEEP: _check_keep,
    PHASE_RESUPPLY: _check_resupply,
    PHASE_OVER: _check_over,
}
