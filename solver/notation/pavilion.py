"""Summer Pavilion positions and moves as text and JSON; the format is docs/pavilion-notation.md.

Text is read into the JSON form first, so both forms share one builder, and the
builder ends with ``validate``: a position that parses is one the rules can reach
(as far as the documented checks can tell) and formats back to the same array.
"""
import numpy as np

import tessera.kernels.pavilion as pavilion_kernels
import tessera.kernels.pavilion.layout as pavilion_layout
from tessera.kernels.pavilion.layout import (
    CENTRE_STAR, CHANCE_BASE, CHOICE_MASK, COLOUR_LETTERS, COLOUR_NAMES, FACTORY_SIZE, GAME_ID,
    KEEP_AT_MOST, KEEP_BASE, LANE_BITS, LANE_MASK, LANES_ALL, LONE_WILD, MAX_FACTORIES,
    MAX_REWARD, NCOLOURS, NSPACES, NSTARS, P_CENTRE_COLOURS, P_HAND,
    P_KEPT, P_SCORE, P_SPACES, PASS_MOVE, PHASE_BONUS, PHASE_DRAFT, PHASE_KEEP, PHASE_OVER,
    PHASE_PLACE, PHASE_REFILL, PHASE_RESUPPLY, PLACE_BASE, PLAYER_COUNTS, ROUNDS,
    SOURCE_CENTRE, STAR_MASK, STAR_SPACES, STATE_SIZE, SUPPLY_SIZE, TAKE_BASE, TILES_PER_COLOUR,
    TOKEN_IN_CENTRE, W_BAG, W_CENTRE, W_FACTORY, W_GAME, W_PASSED, W_PHASE, W_PLAYERS,
    W_REWARD, W_ROUND, W_STARTER, W_SUPPLY, W_TO_MOVE, W_TOKEN, W_TOWER, choice_code,
    choice_counts, draft_move, factories_for, place_move, player_word, split_draft_move,
    split_place_move, wild_of_round,
)
from tessera.errors import MoveError, PositionError
from tessera.notation.fields import (
    check_array, check_game, check_keys, check_unused_words, choice, counts_text, json_counts,
    legal_move, letter_counts, letters_text, list_of, move_code, move_colour, move_number,
    move_words, player_boards, position_tokens, shown, slash_list, text_counts, text_json,
    text_number, text_sections, text_value, whole_number,
)

GAME = "pavilion"
PHASES = ("refill", "draft", "place", "bonus", "keep", "resupply", "over")
COLOUR_OF_LETTER = {letter: c for c, letter in enumerate(COLOUR_LETTERS)}
NO_TILES = "-"
EMPTY_SPACE = "."
CENTRE_WORD = "centre"
WILD_WORD = "wild"
ALL_COLOURS = (1 << NCOLOURS) - 1

JSON_KEYS = ("game", "players", "round", "wild", "phase", "turn", "starter", "token", "passed",
             "reward", "factories", "centre", "supply", "bag", "tower", "boards")
HEADER_KEYS = JSON_KEYS[1:-1]     # the text header: everything but game and boards
NUMBER_KEYS = ("players", "round", "turn", "starter", "reward")
COUNT_KEYS = ("bag", "tower")
BOARD_KEYS = ("score", "stars", "hand", "kept")
TEXT_HEADER_LINE = ("players", "round", "wild", "phase", "turn", "starter", "token", "passed",
                    "reward")


# ---- text form -----------------------------------------------------------------------

def parse_position(text):
    """The state array of a position in text form; raises PositionError."""
    tokens = position_tokens(text, GAME, "a Summer Pavilion position")
    header, boards = text_sections(tokens, HEADER_KEYS, BOARD_KEYS)
    return position_from_json(text_json(GAME, header, boards, HEADER_READERS, BOARD_READERS))


def format_position(state):
    """The canonical text: a header line, the table, then one line per player."""
    obj = position_to_json(state)
    header = " ".join(f"{key} {_header_text(key, obj[key])}" for key in TEXT_HEADER_LINE)
    lines = [
        f"{GAME} {header}",
        "factories " + " ".join(obj["factories"]),
        f"centre {obj['centre']}",
        f"supply {obj['supply']}",
        "bag " + counts_text(obj["bag"], COLOUR_NAMES),
        "tower " + counts_text(obj["tower"], COLOUR_NAMES),
    ]
    for number, board in enumerate(obj["boards"], 1):
        lines.append(f"player {number} score {board['score']} stars {'/'.join(board['stars'])}"
                     f" hand {board['hand']} kept {board['kept']}")
    return "\n".join(lines)


def _header_text(key, value):
    if key == "passed":
        return ",".join(map(str, value)) or NO_TILES
    if key == "token":
        return NO_TILES if value is None else str(value)
    return str(value)


def _text_token(field, token):
    return None if token == NO_TILES else text_number(field, token)


def _text_passed(field, token):
    return [] if token == NO_TILES else [text_number(field, v) for v in token.split(",")]


HEADER_READERS = {
    **dict.fromkeys(NUMBER_KEYS, text_number),
    **dict.fromkeys(COUNT_KEYS, lambda field, token: text_counts(field, token, COLOUR_NAMES,
                                                                 COLOUR_LETTERS)),
    "token": _text_token,
    "passed": _text_passed,
}
BOARD_READERS = {"score": text_number, "stars": slash_list}


# ---- JSON form -----------------------------------------------------------------------

def position_from_json(obj):
    """The state array of a position in JSON form (a dict); raises PositionError."""
    obj = check_game(obj, GAME, JSON_KEYS)
    players = whole_number("players", obj["players"])
    if players not in PLAYER_COUNTS:
        raise PositionError("players", f"Summer Pavilion has 2 to 4 players, not {players}")
    round_number = whole_number("round", obj["round"])
    if not 1 <= round_number <= ROUNDS:
        raise PositionError("round", f"rounds are 1 to {ROUNDS}, not {round_number}")
    wild = COLOUR_NAMES[wild_of_round(round_number)]
    if obj["wild"] != wild:
        raise PositionError("wild", f"the wild colour of round {round_number} is {wild}, not"
                                    f" {shown(obj['wild'])}")
    state = np.zeros(STATE_SIZE, np.int64)
    state[W_GAME] = GAME_ID
    state[W_PLAYERS] = players
    state[W_ROUND] = round_number
    state[W_PHASE] = choice("phase", obj["phase"], PHASES)
    state[W_TO_MOVE] = _player_number("turn", obj["turn"], players) - 1
    state[W_STARTER] = _player_number("starter", obj["starter"], players) - 1
    token = obj["token"]
    state[W_TOKEN] = TOKEN_IN_CENTRE if token is None else \
        _player_number("token", token, players, "null (in the centre) or ") - 1
    state[W_PASSED] = _passed_word(obj["passed"], players)
    state[W_REWARD] = whole_number("reward", obj["reward"])
    factories = list_of("factories", obj["factories"], factories_for(players),
                         f"factories (a {players}-player game has {factories_for(players)})")
    for f, text in enumerate(factories):
        state[W_FACTORY + f] = _tile_set_word("factories", text)
    state[W_CENTRE] = _tile_set_word("centre", obj["centre"])
    state[W_SUPPLY] = _tile_set_word("supply", obj["supply"])
    state[W_BAG] = _counts_word("bag", obj["bag"])
    state[W_TOWER] = _counts_word("tower", obj["tower"])
    for p, board in enumerate(player_boards(obj["boards"], players)):
        _encode_board(state, p, board)
    validate(state)
    return state


def position_to_json(state):
    """The JSON form of a position, as a dict ready for ``json.dumps``."""
    players = int(state[W_PLAYERS])
    round_number = int(state[W_ROUND])
    token = int(state[W_TOKEN])
    return {
        "game": GAME,
        "players": players,
        "round": round_number,
        "wild": COLOUR_NAMES[wild_of_round(round_number)],
        "phase": PHASES[int(state[W_PHASE])],
        "turn": int(state[W_TO_MOVE]) + 1,
        "starter": int(state[W_STARTER]) + 1,
        "token": None if token == TOKEN_IN_CENTRE else token + 1,
        "passed": [p + 1 for p in range(players) if int(state[W_PASSED]) >> p & 1],
        "reward": int(state[W_REWARD]),
        "factories": [_tile_set_text(state[W_FACTORY + f]) for f in range(factories_for(players))],
        "centre": _tile_set_text(state[W_CENTRE]),
        "supply": _tile_set_text(state[W_SUPPLY]),
        "bag": _counts_json(state[W_BAG]),
        "tower": _counts_json(state[W_TOWER]),
        "boards": [_board_json(state, p) for p in range(players)],
    }


def _board_json(state, p):
    return {
        "score": int(state[player_word(p, P_SCORE)]),
        "stars": _stars_text(int(state[player_word(p, P_SPACES)]),
                             int(state[player_word(p, P_CENTRE_COLOURS)])),
        "hand": _tile_set_text(state[player_word(p, P_HAND)]),
        "kept": _tile_set_text(state[player_word(p, P_KEPT)]),
    }


def _player_number(field, value, players, alternative=""):
    if type(value) is not int or not 1 <= value <= players:
        raise PositionError(field, f"expected {alternative}a player from 1 to {players},"
                                   f" got {shown(value)}")
    return value


def _passed_word(value, players):
    if not isinstance(value, list):
        raise PositionError("passed", f"expected a list of players, got {shown(value)}")
    word = 0
    for number in value:
        _player_number("passed", number, players)
        if word >> (number - 1) & 1:
            raise PositionError("passed", f"player {number} is listed twice")
        word |= 1 << (number - 1)
    return word


def _encode_board(state, p, board):
    prefix = f"player {p + 1} "
    board = check_keys(board, BOARD_KEYS, prefix)
    state[player_word(p, P_SCORE)] = whole_number(prefix + "score", board["score"])
    spaces, colours = _stars_words(prefix + "stars", board["stars"])
    state[player_word(p, P_SPACES)] = spaces
    state[player_word(p, P_CENTRE_COLOURS)] = colours
    state[player_word(p, P_HAND)] = _tile_set_word(prefix + "hand", board["hand"])
    state[player_word(p, P_KEPT)] = _tile_set_word(prefix + "kept", board["kept"])


# ---- field codecs --------------------------------------------------------------------

def _tile_set_word(field, text):
    """A tile set like ``PPGO`` (``-`` for none) as a byte-lane word."""
    text = text_value(field, text)
    if text == NO_TILES:
        return 0
    if not text or set(text) - set(COLOUR_LETTERS):
        raise PositionError(field, f"{shown(text)} is not a tile set (letters"
                                   f" {' '.join(COLOUR_LETTERS)}, {NO_TILES} for none)")
    # At most TILES_PER_COLOUR also keeps each count inside its byte lane.
    counts = letter_counts(field, text, COLOUR_LETTERS, COLOUR_NAMES, TILES_PER_COLOUR, "tiles")
    return _lanes_word(counts)


def _tile_set_text(word):
    return letters_text(_lane_counts(word), COLOUR_LETTERS) or NO_TILES


def _counts_word(field, counts):
    return _lanes_word(json_counts(field, counts, COLOUR_NAMES, TILES_PER_COLOUR, "tiles"))


def _counts_json(word):
    return dict(zip(COLOUR_NAMES, _lane_counts(word)))


def _lane_counts(word):
    return [int(word) >> (LANE_BITS * c) & LANE_MASK for c in range(NCOLOURS)]


def _lanes_word(counts):
    return sum(count << (LANE_BITS * c) for c, count in enumerate(counts))


def _tiles(word):
    return sum(_lane_counts(word))


def _stars_words(field, stars):
    """(covered-space mask, centre colour mask) from the seven star strings."""
    stars = list_of(field, stars, NSTARS, "stars (the outer stars in colour order, then the"
                                           " centre star)")
    spaces = colours = 0
    for star, cells in enumerate(stars):
        name = _star_name(star)
        if len(cells) != STAR_SPACES:
            raise PositionError(field, f"the {name} star {shown(cells)} needs {STAR_SPACES} spaces")
        for i, cell in enumerate(cells):
            if cell == EMPTY_SPACE:
                continue
            if star != CENTRE_STAR and cell != COLOUR_LETTERS[star]:
                raise PositionError(field, f"the {name} star space {i + 1}: {shown(cell)} is not"
                                           f" '{COLOUR_LETTERS[star]}' or '{EMPTY_SPACE}'")
            if star == CENTRE_STAR:
                if cell not in COLOUR_OF_LETTER:
                    raise PositionError(field, f"the centre star space {i + 1}: {shown(cell)}"
                                               f" is not a colour letter or '{EMPTY_SPACE}'")
                if colours >> COLOUR_OF_LETTER[cell] & 1:
                    raise PositionError(field, f"the centre star holds {cell} twice (its six"
                                               " tiles are six different colours)")
                colours |= 1 << COLOUR_OF_LETTER[cell]
            spaces |= 1 << (STAR_SPACES * star + i)
    return spaces, colours


def _stars_text(spaces, colours):
    """Outer stars as their letter on covered spaces; the centre star's colours in colour
    order on its covered spaces (the engine does not keep which space holds which)."""
    stars = []
    for star in range(NCOLOURS):
        cells = spaces >> (STAR_SPACES * star) & STAR_MASK
        stars.append("".join(COLOUR_LETTERS[star] if cells >> i & 1 else EMPTY_SPACE
                             for i in range(STAR_SPACES)))
    letters = iter([COLOUR_LETTERS[c] for c in range(NCOLOURS) if colours >> c & 1])
    cells = spaces >> (STAR_SPACES * CENTRE_STAR) & STAR_MASK
    stars.append("".join(next(letters, "?") if cells >> i & 1 else EMPTY_SPACE
                         for i in range(STAR_SPACES)))
    return stars


def _star_name(star):
    return "centre" if star == CENTRE_STAR else COLOUR_NAMES[star]


# ---- validation ----------------------------------------------------------------------

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
        raise PositionError("reward", f"a placement earns at most {MAX_REWARD} supply tiles,"
                                      f" not {state[W_REWARD]}")
    if state[W_ROUND] == 1 and state[W_STARTER] != 0:
        raise PositionError("starter", "player 1 starts round 1")


def _check_tile_sets(state):
    sets = [("centre", "the centre", W_CENTRE), ("supply", "the supply", W_SUPPLY),
            ("bag", "the bag", W_BAG), ("tower", "the tower", W_TOWER)]
    sets += [("factories", f"factory {f + 1}", W_FACTORY + f)
             for f in range(factories_for(int(state[W_PLAYERS])))]
    for p in range(int(state[W_PLAYERS])):
        sets += [(f"player {p + 1} hand", "the hand", player_word(p, P_HAND)),
                 (f"player {p + 1} kept", "the corners", player_word(p, P_KEPT))]
    for field, name, index in sets:
        word = int(state[index])
        if word & ~LANES_ALL:
            raise PositionError(field, f"{name} has bits outside the colour lanes")
        for colour, count in zip(COLOUR_NAMES, _lane_counts(word)):
            if count > TILES_PER_COLOUR:
                raise PositionError(field, f"{name} holds {count} {colour} tiles"
                                           f" ({TILES_PER_COLOUR} exist)")
    limits = [("factories", f"factory {f + 1}", W_FACTORY + f, FACTORY_SIZE)
              for f in range(factories_for(int(state[W_PLAYERS])))]
    limits.append(("supply", "the supply", W_SUPPLY, SUPPLY_SIZE))
    limits += [(f"player {p + 1} kept", "the corners", player_word(p, P_KEPT), KEEP_AT_MOST)
               for p in range(int(state[W_PLAYERS]))]
    for field, name, index, limit in limits:
        if _tiles(state[index]) > limit:
            raise PositionError(field, f"{name} holds {_tiles(state[index])} tiles (at most"
                                       f" {limit})")


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
        raise PositionError(prefix + "stars", f"the centre star covers {on_centre} spaces but"
                                              f" holds {colours.bit_count()} colours")
    if state[player_word(p, P_SCORE)] < 1:
        raise PositionError(prefix + "score", "a score never drops below 1")


def _board_tiles(state, p):
    """Tiles per colour on a player's stars."""
    spaces = int(state[player_word(p, P_SPACES)])
    colours = int(state[player_word(p, P_CENTRE_COLOURS)])
    return [(spaces >> (STAR_SPACES * c) & STAR_MASK).bit_count() + (colours >> c & 1)
            for c in range(NCOLOURS)]


def _check_tile_totals(state):
    counts = [0] * NCOLOURS
    words = [W_CENTRE, W_SUPPLY, W_BAG, W_TOWER]
    words += [W_FACTORY + f for f in range(factories_for(int(state[W_PLAYERS])))]
    for p in range(int(state[W_PLAYERS])):
        words += [player_word(p, P_HAND), player_word(p, P_KEPT)]
        counts = [a + b for a, b in zip(counts, _board_tiles(state, p))]
    for index in words:
        counts = [a + b for a, b in zip(counts, _lane_counts(state[index]))]
    wrong = [f"{count} {name}" for name, count in zip(COLOUR_NAMES, counts)
             if count != TILES_PER_COLOUR]
    if wrong:
        raise PositionError("tiles", f"each colour has {TILES_PER_COLOUR} tiles in all, but"
                                     f" there are {', '.join(wrong)}")


def _check_turn_words(state):
    """Passing, kept tiles and the pending reward belong to the placing phase."""
    phase = int(state[W_PHASE])
    players = int(state[W_PLAYERS])
    passed = int(state[W_PASSED])
    placing = phase in (PHASE_PLACE, PHASE_BONUS, PHASE_KEEP, PHASE_RESUPPLY)
    if passed and not placing and phase != PHASE_OVER:
        raise PositionError("passed", f"players pass only in the placing phase, not in phase"
                                      f" {PHASES[phase]}")
    if (state[W_REWARD] != 0) != (phase == PHASE_BONUS):
        raise PositionError("reward", "a reward is pending exactly in phase bonus")
    for p in range(players):
        has_passed = passed >> p & 1
        keeping = phase == PHASE_KEEP and p == state[W_TO_MOVE]
        if state[player_word(p, P_KEPT)] and (not has_passed or keeping):
            raise PositionError(f"player {p + 1} kept", "tiles on the corners, but the player"
                                                        " has not passed and chosen them")
        if state[player_word(p, P_HAND)] and has_passed and not keeping:
            raise PositionError(f"player {p + 1} hand", "tiles beside the board after passing"
                                                        " (they are kept or discarded)")


def _check_table_empty(state, phase):
    for f in range(factories_for(int(state[W_PLAYERS]))):
        if state[W_FACTORY + f]:
            raise PositionError("factories", f"factory {f + 1} has tiles in phase {phase}")
    if state[W_CENTRE]:
        raise PositionError("centre", f"tiles in the centre in phase {phase}")


def _draws_left(state):
    return _tiles(state[W_BAG]) + _tiles(state[W_TOWER]) > 0


def _check_supply_topped_up(state, phase):
    if _tiles(state[W_SUPPLY]) < SUPPLY_SIZE and _draws_left(state):
        raise PositionError("supply", f"{_tiles(state[W_SUPPLY])} tiles in phase {phase} while"
                                      " the bag or tower has tiles (it is topped up to"
                                      f" {SUPPLY_SIZE})")


def _check_refill(state):
    if state[W_CENTRE]:
        raise PositionError("centre", "tiles in the centre in phase refill")
    for p in range(int(state[W_PLAYERS])):
        if _tiles(state[player_word(p, P_HAND)]) > KEEP_AT_MOST:
            raise PositionError(f"player {p + 1} hand", "more tiles than could be kept from the"
                                                        " last round in phase refill")
    if state[W_TOKEN] != TOKEN_IN_CENTRE:
        raise PositionError("token", "the token is back in the centre for the refill")
    if state[W_TO_MOVE] != state[W_STARTER]:
        raise PositionError("turn", "in phase refill the player to move is the starter")
    counts = [_tiles(state[W_FACTORY + f]) for f in range(factories_for(int(state[W_PLAYERS])))]
    filling = next((f for f, n in enumerate(counts) if n < FACTORY_SIZE), None)
    if filling is not None and any(counts[filling + 1:]):
        raise PositionError("factories", f"factory {filling + 1} is not full but a later one"
                                         " has tiles (factories fill in order)")
    if filling is not None and _tiles(state[W_SUPPLY]) > 0 and int(state[W_ROUND]) == 1:
        raise PositionError("supply", "the first supply is drawn after the factories")
    if filling is None and _tiles(state[W_SUPPLY]) >= SUPPLY_SIZE:
        raise PositionError("factories", "factories and supply are full, so the refill is over")
    if not _draws_left(state):
        raise PositionError("bag", "bag and tower are empty, so the refill is over")


def _check_draft(state):
    counts = [_tiles(state[W_FACTORY + f]) for f in range(factories_for(int(state[W_PLAYERS])))]
    if not any(counts) and not state[W_CENTRE]:
        raise PositionError("factories", "no tiles on the factories or in the centre in phase"
                                         " draft")
    short = [f for f, n in enumerate(counts) if 0 < n < FACTORY_SIZE]
    if len(short) > 1:
        raise PositionError("factories", f"factories {short[0] + 1} and {short[1] + 1} are"
                                         " part-filled (only a refill's last factory can be)")
    if short and _draws_left(state):
        raise PositionError("factories", f"factory {short[0] + 1} is part-filled but the bag or"
                                         " tower has tiles (a refill stops only when both are"
                                         " empty)")
    if short and any(counts[short[0] + 1:]):
        raise PositionError("factories", f"factory {short[0] + 1} is part-filled but a later"
                                         " factory has tiles")
    _check_supply_topped_up(state, "draft")


def _check_place(state):
    _check_table_empty(state, "place")
    _check_mover_active(state, "place")
    _check_supply_topped_up(state, "place")


def _check_mover_active(state, phase):
    if int(state[W_PASSED]) >> int(state[W_TO_MOVE]) & 1:
        raise PositionError("turn", f"player {state[W_TO_MOVE] + 1} has passed, so cannot move"
                                    f" in phase {phase}")


def _check_bonus(state):
    _check_table_empty(state, "bonus")
    _check_mover_active(state, "bonus")
    supply = int(state[W_SUPPLY])
    colours = sum(1 for n in _lane_counts(supply) if n)
    if state[W_REWARD] >= _tiles(supply) or colours < 2:
        raise PositionError("reward", f"taking {state[W_REWARD]} of supply {_tile_set_text(supply)}"
                                      " is no choice (it is made without a move)")


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
    if _tiles(state[W_SUPPLY]) >= SUPPLY_SIZE:
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
            raise PositionError(f"player {p + 1} hand", "tiles left when the game is over (they"
                                                        " go to the tower)")


_PHASE_CHECKS = {
    PHASE_REFILL: _check_refill,
    PHASE_DRAFT: _check_draft,
    PHASE_PLACE: _check_place,
    PHASE_BONUS: _check_bonus,
    PHASE_KEEP: _check_keep,
    PHASE_RESUPPLY: _check_resupply,
    PHASE_OVER: _check_over,
}


# ---- moves ---------------------------------------------------------------------------

MOVE_FORMS = ("'F3 red', 'C wild', 'place red 3 wild 1', 'place centre 4 blue', 'pass',"
              " 'take BBY', 'keep PPG' or 'draw red'")


def format_move(state, move):
    """Canonical text of a move code. ``state`` is part of the Game interface; codes do
    not depend on it."""
    move = move_code(move, "a Summer Pavilion")
    if 0 <= move < PLACE_BASE:
        source, colour = split_draft_move(move)
        if source <= SOURCE_CENTRE and colour <= LONE_WILD:
            where = "C" if source == SOURCE_CENTRE else f"F{source + 1}"
            return f"{where} {WILD_WORD if colour == LONE_WILD else COLOUR_NAMES[colour]}"
    if PLACE_BASE <= move < PASS_MOVE:
        star, number, colour, wilds = split_place_move(move)
        # An outer star takes its own colour: a code with another names no move.
        if star == CENTRE_STAR or colour == star:
            text = f"place {_star_name(star)} {number}"
            if star == CENTRE_STAR:
                text += f" {COLOUR_NAMES[colour]}"
            return text + (f" wild {wilds}" if wilds else "")
    if move == PASS_MOVE:
        return "pass"
    if CHANCE_BASE <= move < CHANCE_BASE + NCOLOURS:
        return f"draw {COLOUR_NAMES[move - CHANCE_BASE]}"
    if TAKE_BASE <= move < 2 * KEEP_BASE:
        word, base = ("keep", KEEP_BASE) if move >= KEEP_BASE else ("take", TAKE_BASE)
        counts = choice_counts(move - base)
        # A bonus takes 1 to MAX_REWARD tiles; a pass keeps 0 to KEEP_AT_MOST.
        smallest, largest = (0, KEEP_AT_MOST) if word == "keep" else (1, MAX_REWARD)
        if smallest <= sum(counts) <= largest:
            return f"{word} " + (letters_text(counts, COLOUR_LETTERS) or NO_TILES)
    raise MoveError(str(move), "not a Summer Pavilion move code")


def parse_move(state, text):
    """The move code of ``text`` if it is legal in ``state``; raises MoveError."""
    return legal_move(state, text, _move_code(state, text), pavilion_kernels, _why_illegal)


def _move_code(state, text):
    words = move_words(text)
    if words == ["pass"]:
        return PASS_MOVE
    if len(words) == 2 and words[0] == "draw":
        return CHANCE_BASE + _move_colour(text, words[1])
    if len(words) == 2 and words[0] in ("take", "keep"):
        base = TAKE_BASE if words[0] == "take" else KEEP_BASE
        return base + choice_code(_move_tiles(text, words[1]))
    if words and words[0] == "place":
        return _place_code(state, text, words[1:])
    if len(words) == 2:
        return draft_move(_move_source(text, words[0]), _draft_colour(text, words[1]))
    raise MoveError(text, f"expected {MOVE_FORMS}")


def _place_code(state, text, words):
    """``<star> <number> [<colour>] [wild <n>]``; the colour is named on the centre star only."""
    wilds = 0
    if len(words) >= 2 and words[-2] == WILD_WORD:
        wilds = move_number(text, words[-1], STAR_SPACES - 1, "count of wild tiles", lowest=0)
        words = words[:-2]
    if len(words) not in (2, 3):
        raise MoveError(text, "expected 'place <star> <space> [wild <n>]' or 'place centre"
                              " <space> <colour> [wild <n>]'")
    star = CENTRE_STAR if words[0] == CENTRE_WORD else _move_colour(text, words[0])
    number = move_number(text, words[1], STAR_SPACES, "space")
    if star == CENTRE_STAR and len(words) == 3:
        colour = _move_colour(text, words[2])
    elif star != CENTRE_STAR and len(words) == 2:
        colour = star
    else:
        raise MoveError(text, "name the colour for the centre star only ('place centre 4"
                              " blue')")
    return place_move(star, number, colour, wilds)


def _move_source(text, word):
    if word == "c":
        return SOURCE_CENTRE
    if word.startswith("f"):
        return move_number(text, word[1:], MAX_FACTORIES, "factory") - 1
    raise MoveError(text, f"expected {MOVE_FORMS}")


def _draft_colour(text, word):
    return LONE_WILD if word == WILD_WORD else _move_colour(text, word)


def _move_colour(text, word):
    return move_colour(text, word, COLOUR_NAMES, COLOUR_LETTERS)


def _move_tiles(text, word):
    if word == NO_TILES:
        return [0] * NCOLOURS
    letters = word.upper()
    if set(letters) - set(COLOUR_LETTERS):
        raise MoveError(text, f"'{word}' is not tiles (letters {' '.join(COLOUR_LETTERS)},"
                              f" {NO_TILES} for none)")
    counts = [letters.count(letter) for letter in COLOUR_LETTERS]
    if max(counts) > CHOICE_MASK:
        raise MoveError(text, f"'{word}' has too many tiles of one colour")
    return counts


def _why_illegal(state):
    phase = int(state[W_PHASE])
    if phase == PHASE_OVER:
        return "the game is over"
    if phase in (PHASE_REFILL, PHASE_RESUPPLY):
        return f"not a possible draw (phase {PHASES[phase]}: 'draw <colour>' for a colour left)"
    kind = {PHASE_DRAFT: "'<source> <colour>' or '<source> wild'",
            PHASE_PLACE: "'place ...' or 'pass'",
            PHASE_BONUS: f"'take <{state[W_REWARD]} supply tiles>'",
            PHASE_KEEP: f"'keep <at most {KEEP_AT_MOST} of your tiles>'"}[phase]
    return f"not legal for player {state[W_TO_MOVE] + 1} in phase {PHASES[phase]} ({kind})"
