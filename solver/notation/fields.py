"""Reading the pieces every game's notation shares: key/value tokens, JSON fields,
factories, colour counts, tile lanes and moves.

Each position function raises ``PositionError`` naming the field it was reading; each
move function raises ``MoveError`` naming the move text.
"""

import re
from typing import NamedTuple

import numpy as np

from tessera.errors import MoveError, PositionError
from tessera.kernels.common import LANE_BITS, LANE_MASK
from tessera.kernels.constants import CHANCE, TERMINAL

MAX_NUMBER = 2**31 - 1  # keeps every word far inside int64
WHOLE_NUMBER = f"a whole number from 0 to {MAX_NUMBER}"
BYTE_ORDER_MARK = "\ufeff"  # some editors start UTF-8 files with it
SHOWN_CHARS = 40  # how much of a bad value an error quotes
PLAYER_KEY = "player"
LIST_KEY = "factories"  # the one key whose value is several tokens


def shown(value: object) -> str:
    """``value`` as an error message quotes it (repr: control characters escaped), cut
    to SHOWN_CHARS characters."""
    return cut(repr(value))


def cut(text: str) -> str:
    return text if len(text) <= SHOWN_CHARS else text[: SHOWN_CHARS - 3] + "..."


def position_text(text: object) -> str:
    """``text`` as the str a position is read from, without a byte-order mark."""
    if not isinstance(text, str):
        raise PositionError("position", f"expected text, got {type(text).__name__}")
    return text.removeprefix(BYTE_ORDER_MARK)


def position_tokens(text, game, what):
    """The tokens of a text position after its first, the game's name; ``what`` names
    the position in the error (``an Azul position``)."""
    tokens = position_text(text).replace(";", " ").split()
    if not tokens:
        raise PositionError("position", "empty input")
    if tokens[0] != game:
        raise PositionError("game", f"{what} starts with '{game}', not {shown(tokens[0])}")
    return tokens[1:]


def text_sections(tokens, header_keys, board_keys):
    """The header's {key: value} and the players' in seat order.

    Every key takes one token, except ``factories``, which takes tokens up to the
    next key (tile-set tokens never look like keys).
    """
    all_keys = set(header_keys) | set(board_keys) | {PLAYER_KEY}
    header, boards = {}, []
    section, prefix, keys = header, "", header_keys
    i = 0
    while i < len(tokens):
        key = tokens[i]
        if key == PLAYER_KEY:
            number = text_number(PLAYER_KEY, tokens[i + 1] if i + 1 < len(tokens) else "")
            if number != len(boards) + 1:
                raise PositionError(
                    f"player {number}", f"expected player {len(boards) + 1} next (players come in seat order)"
                )
            section, prefix, keys = {}, f"player {number} ", board_keys
            boards.append(section)
            i += 2
        elif key not in keys:
            raise PositionError(prefix.strip() or "position", f"unknown key '{key}'")
        elif key in section:
            raise PositionError(prefix + key, "given twice")
        elif key == LIST_KEY:
            end = i + 1
            while end < len(tokens) and tokens[end] not in all_keys:
                end += 1
            section[key] = tokens[i + 1 : end]
            i = end
        elif i + 1 == len(tokens) or tokens[i + 1] in all_keys:
            raise PositionError(prefix + key, "missing value")
        else:
            section[key] = tokens[i + 1]
            i += 2
    return header, boards


def section_json(section, readers, prefix=""):
    """A text section's {key: token} as JSON values: ``readers`` maps a key to
    ``read(field, token)``; a key without one keeps its token."""
    return {key: readers[key](prefix + key, token) if key in readers else token for key, token in section.items()}


def text_json(game, header, boards, header_readers, board_readers):
    """The JSON form of a text position's header and boards (from ``text_sections``),
    each section read by its readers (``section_json``)."""
    obj = {"game": game, **section_json(header, header_readers)}
    obj["boards"] = [section_json(board, board_readers, f"player {number} ") for number, board in enumerate(boards, 1)]
    return obj


class TextForm(NamedTuple):
    """The text form of a game whose position is a header and a line per player (Azul,
    Summer Pavilion), read into the game's JSON form."""

    game: str
    title: str  # names the position in errors: "an Azul position"
    json_keys: tuple  # the header's keys are all but the first and the last
    board_keys: tuple
    header_readers: dict  # section_json's readers of each section's tokens
    board_readers: dict

    def json(self, text):
        """The JSON form of a position's text; raises PositionError."""
        tokens = position_tokens(text, self.game, self.title)
        header, boards = text_sections(tokens, self.json_keys[1:-1], self.board_keys)
        return text_json(self.game, header, boards, self.header_readers, self.board_readers)


def slash_list(field, token):
    """A ``/``-separated token (wall rows, pattern lines, stars) as its list of parts."""
    return token.split("/")


def text_number(field, token):
    if not re.fullmatch(r"[0-9]{1,10}", token) or int(token) > MAX_NUMBER:
        raise PositionError(field, f"expected {WHOLE_NUMBER}, got {shown(token)}")
    return int(token)


class JsonFields(dict):
    """A JSON object whose missing key is reported as its own field when it is read, so
    fields are checked in the order they are read (a bad `players` before a missing
    `wall`)."""

    def __init__(self, obj, prefix):
        super().__init__(obj)
        self.prefix = prefix

    def __missing__(self, key):
        raise PositionError(self.prefix + key, "missing")


def check_keys(obj, keys, prefix=""):
    """``obj`` as JsonFields; an unknown key names its object."""
    owner = prefix.strip() or "position"
    if not isinstance(obj, dict):
        raise PositionError(owner, "expected a JSON object")
    for key in obj:
        if key not in keys:
            raise PositionError(owner, f"unknown key {shown(key)}")
    return JsonFields(obj, prefix)


def whole_number(field, value):
    # bool is an int in Python; JSON true is not a number.
    if type(value) is not int or not 0 <= value <= MAX_NUMBER:
        raise PositionError(field, f"expected {WHOLE_NUMBER}, got {shown(value)}")
    return value


def text_value(field, value):
    if not isinstance(value, str):
        raise PositionError(field, f"expected a string, got {shown(value)}")
    return value


def list_of(field, value, length, what):
    """A list of ``length`` strings."""
    if not isinstance(value, list) or len(value) != length:
        got = len(value) if isinstance(value, list) else repr(value)
        raise PositionError(field, f"expected {length} {what}, got {got}")
    return [text_value(field, item) for item in value]


def player_boards(boards, players):
    """The JSON list of player boards, one per player."""
    if not isinstance(boards, list):
        raise PositionError("boards", f"expected a list of player boards, got {shown(boards)}")
    if len(boards) < players:
        raise PositionError(f"player {len(boards) + 1}", "missing")
    if len(boards) > players:
        raise PositionError(f"player {players + 1}", f"no such player in a {players}-player game")
    return boards


def check_game(obj, game, keys):
    """A JSON position's keys and its game; ``obj`` as JsonFields."""
    obj = check_keys(obj, keys)
    if obj["game"] != game:
        raise PositionError("game", f"expected '{game}', got {shown(obj['game'])}")
    return obj


def choice(field, value, names):
    """The index of ``value`` among ``names``."""
    if value not in names:
        raise PositionError(field, f"expected {', '.join(names)}; got {shown(value)}")
    return names.index(value)


def check_array(state, size, game_id, title):
    """An int64 array of ``size`` words whose word 0 is the game's id; ``title`` names
    the game."""
    if not (isinstance(state, np.ndarray) and state.dtype == np.int64 and state.shape == (size,)):
        raise PositionError("position", f"expected an int64 array of {size} words")
    if state[0] != game_id:
        raise PositionError("game", f"word 0 is {state[0]}, not {title}'s id {game_id}")


def check_unused_words(state, layout):
    """No words set for factories or players beyond the game's player count; ``layout``
    is the game's kernel layout module (Azul, Summer Pavilion)."""
    players = int(state[layout.W_PLAYERS])
    factories = layout.factories_for(players)
    for f in range(factories, layout.MAX_FACTORIES):
        if state[layout.W_FACTORY + f]:
            raise PositionError("factories", f"factory {f + 1} is set but a {players}-player game has {factories}")
    for p in range(players, layout.MAX_PLAYERS):
        if state[layout.player_word(p, 0) : layout.player_word(p, layout.PLAYER_WORDS)].any():
            raise PositionError(f"player {p + 1}", f"set in a {players}-player game")


# ---- factories -----------------------------------------------------------------------


def filling_factory(counts, size):
    """The factory a refill is filling (the first with fewer than ``size`` tiles), or None
    once all are full; ``counts`` are the factories' tiles. A later factory with tiles is
    an error: factories fill in order."""
    filling = next((f for f, n in enumerate(counts) if n < size), None)
    if filling is not None and any(counts[filling + 1 :]):
        raise PositionError(
            "factories", f"factory {filling + 1} is not full but a later one has tiles (factories fill in order)"
        )
    return filling


def part_filled_factory(counts, size):
    """The factory holding some tiles but fewer than ``size``, or None; a second one is an
    error (only a refill that ran dry leaves one, its last)."""
    short = [f for f, n in enumerate(counts) if 0 < n < size]
    if len(short) > 1:
        raise PositionError(
            "factories",
            f"factories {short[0] + 1} and {short[1] + 1} are part-filled (only a refill's last factory can be)",
        )
    return short[0] if short else None


# ---- colour counts ---------------------------------------------------------------------


def text_counts(field, token, names, letters):
    """Counts like ``3/0/2/1/5`` as {colour name: count}, colours in ``names`` order."""
    parts = token.split("/")
    if len(parts) != len(names):
        raise PositionError(field, f"expected {len(names)} counts {'/'.join(letters)}, got '{token}'")
    return {name: text_number(field, part) for name, part in zip(names, parts)}


def counts_text(counts, names):
    """{colour name: count} as ``3/0/2/1/5``, colours in ``names`` order."""
    return "/".join(str(counts[name]) for name in names)


def json_counts(field, counts, names, most, what):
    """The counts of a JSON {colour name: count} in ``names`` order, each at most ``most``
    (``what``: tiles or cards)."""
    if not isinstance(counts, dict) or sorted(counts) != sorted(names):
        raise PositionError(field, f"expected counts of {', '.join(names)}, got {shown(counts)}")
    result = []
    for name in names:
        count = whole_number(field, counts[name])
        if count > most:
            raise PositionError(field, f"{count} {name} {what} ({most} exist)")
        result.append(count)
    return result


def letter_counts(field, text, letters, names, most, what):
    """How many of each colour's letter ``text`` holds, each at most ``most``."""
    counts = [text.count(letter) for letter in letters]
    for name, count in zip(names, counts):
        if count > most:
            raise PositionError(field, f"{shown(text)} has {count} {name} {what} ({most} exist)")
    return counts


def letters_text(counts, letters):
    """Counts by colour as letters, colour by colour (``BBYR``); empty for none."""
    return "".join(letter * n for letter, n in zip(letters, counts))


# ---- colours and tile lanes ----------------------------------------------------------


class Colours:
    """A game's colours by name and letter, as its notation reads and writes them."""

    def __init__(self, names, letters):
        self.names = names
        self.letters = letters
        self.of_letter = {letter: c for c, letter in enumerate(letters)}

    def move_colour(self, text, word):
        """The colour a move word names (``move_colour``)."""
        return move_colour(text, word, self.names, self.letters)


class TileLanes(Colours):
    """Tiles counted by colour in one word, a byte lane per colour (Azul, Summer
    Pavilion), and the forms the notation gives such a word: counts like ``3/0/2/1/5``,
    a JSON {colour name: count} and letters like ``BBYR``. ``most`` is how many tiles of
    a colour exist; it also keeps each count inside its lane."""

    def __init__(self, names, letters, most):
        super().__init__(names, letters)
        self.most = most

    def counts(self, word):
        """The tiles of each colour in ``word``."""
        return [int(word) >> (LANE_BITS * c) & LANE_MASK for c in range(len(self.names))]

    def word(self, counts):
        """The word of tile counts by colour."""
        return sum(count << (LANE_BITS * c) for c, count in enumerate(counts))

    def tiles(self, word):
        """All tiles in ``word``."""
        return sum(self.counts(word))

    def read_counts(self, field, token):
        """A text token like ``3/0/2/1/5`` as its JSON {colour name: count}."""
        return text_counts(field, token, self.names, self.letters)

    def counts_text(self, counts):
        """A JSON {colour name: count} as ``3/0/2/1/5``."""
        return counts_text(counts, self.names)

    def json_word(self, field, counts):
        """The word of a JSON {colour name: count}."""
        return self.word(json_counts(field, counts, self.names, self.most, "tiles"))

    def json_counts(self, word):
        """The JSON {colour name: count} of a word."""
        return dict(zip(self.names, self.counts(word)))

    def letters_word(self, field, text):
        """The word of the colour letters in ``text`` (``BBYR``)."""
        return self.word(letter_counts(field, text, self.letters, self.names, self.most, "tiles"))

    def letters_text(self, word):
        """A word's tiles as letters, colour by colour; empty for none."""
        return letters_text(self.counts(word), self.letters)

    def check_counts(self, field, name, word):
        """No colour in ``word`` has more tiles than exist; ``name`` names the place."""
        for colour, count in zip(self.names, self.counts(word)):
            if count > self.most:
                raise PositionError(field, f"{name} holds {count} {colour} tiles ({self.most} exist)")


# ---- moves ---------------------------------------------------------------------------


def move_words(text):
    """The lower-case words of a move text."""
    if not isinstance(text, str):
        raise MoveError(cut(str(text)), f"expected move text, got {type(text).__name__}")
    return text.lower().split()


def move_code(move, title):
    """``move`` as a Python int; ``title`` names the game in the error."""
    if isinstance(move, bool) or not isinstance(move, (int, np.integer)):
        raise MoveError(cut(str(move)), f"not {title} move code")
    return int(move)


def legal_move(state, text, move, kernels, why_illegal):
    """``move``, the code ``text`` names, if it is legal in ``state``; otherwise MoveError
    saying ``why_illegal(state)``. ``kernels`` is the game's kernel package."""
    if move not in legal_moves(state, kernels):
        raise MoveError(text, why_illegal(state))
    return move


def legal_moves(state, kernels):
    """The moves of whoever acts (a player, or chance) as a list; none once the game is
    over."""
    who = kernels.to_move(state)
    if who == TERMINAL:
        return []
    moves = np.empty(kernels.MAX_MOVES, np.int64)
    if who == CHANCE:
        probabilities = np.empty(len(moves), np.float64)
        return moves[: kernels.chance_outcomes(state, moves, probabilities)].tolist()
    return moves[: kernels.legal_moves(state, moves)].tolist()


def move_colour(text, word, names, letters):
    """The colour a move word names: its name, or its letter in lower case."""
    for c, (name, letter) in enumerate(zip(names, letters)):
        if word in (name, letter.lower()):
            return c
    raise MoveError(text, f"'{word}' is not a colour ({', '.join(names)} or {' '.join(letters)})")


def move_source(text, word, factories, centre, otherwise):
    """The tiles a draft move takes from: ``c`` for the centre (the game's code
    ``centre``) or ``f1``..``f<factories>`` (codes from 0); MoveError ``otherwise`` for
    any other word."""
    if word == "c":
        return centre
    if word.startswith("f"):
        return move_number(text, word[1:], factories, "factory") - 1
    raise MoveError(text, otherwise)


def move_number(text, word, highest, what, lowest=1):
    """A one-digit number from ``lowest`` to ``highest`` in a move."""
    if not re.fullmatch(r"[0-9]", word) or not lowest <= int(word) <= highest:
        raise MoveError(text, f"'{word}' is not a {what} ({lowest}..{highest})")
    return int(word)
