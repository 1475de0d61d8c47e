"""The Summer Pavilion board, read from ``summer-pavilion-board.json`` (packaged in kernels/data/).

Everything printed on the board (colours, wild colour by round, bonus regions, end
bonuses, factories by player count) comes from that file; nothing is retyped here.
The kernels see the arrays below as compile-time constants.

The file is read when Summer Pavilion's kernels are first imported. Numba's cache does
not notice a changed data file: clear the cache after editing it.
"""

import numpy as np

from tessera.kernels.boarddata import BoardDataError, board_json

BOARD_FILE = "summer-pavilion-board.json"
CENTRE_NAME = "center"  # the file's name for the multicoloured centre star
STAR_SPACES = 6


def _colour_index(names, name, where):
    if name not in names:
        raise BoardDataError(f"{BOARD_FILE}: {where}: unknown colour {name!r}")
    return names.index(name)


def _star_index(names, name, where):
    """Outer stars are numbered by their colour; the centre star comes last."""
    return len(names) if name == CENTRE_NAME else _colour_index(names, name, where)


def _region_mask(names, region, where):
    mask = 0
    for star_name, space in region:
        star = _star_index(names, star_name, where)
        if type(space) is not int or not 1 <= space <= STAR_SPACES:
            raise BoardDataError(f"{BOARD_FILE}: {where}: no space {space!r} on a star")
        mask |= 1 << (STAR_SPACES * star + space - 1)
    return mask


_DATA, _ = board_json(BOARD_FILE, "Summer Pavilion board data")

COLOUR_NAMES = tuple(_DATA["colors"])
NCOLOURS = len(COLOUR_NAMES)
COLOUR_LETTERS = "".join(name[0].upper() for name in COLOUR_NAMES)
if len(set(COLOUR_LETTERS)) != NCOLOURS:
    raise BoardDataError(f"{BOARD_FILE}: colour names need distinct first letters")
TILES_PER_COLOUR = int(_DATA["tiles_per_color"])
SUPPLY_SIZE = int(_DATA["supply_spaces"])
SCORE_START = int(_DATA["score_start"])
KEEP_AT_MOST = int(_DATA["keep_at_most"])
# FACTORIES_BY_PLAYERS[n]: displays in an n-player game (0 where n is not a player count).
FACTORIES_BY_PLAYERS = np.zeros(1 + max(int(n) for n in _DATA["factories_by_players"]), np.int64)
for _players, _count in _DATA["factories_by_players"].items():
    FACTORIES_BY_PLAYERS[int(_players)] = _count
PLAYER_COUNTS = tuple(int(n) for n in sorted(_DATA["factories_by_players"], key=int))

# WILD_BY_ROUND[r - 1]: the wild colour of round r; the game has one round per entry.
WILD_BY_ROUND = np.array(
    [_colour_index(COLOUR_NAMES, name, "wild_color_by_round") for name in _DATA["wild_color_by_round"]], np.int64
)
ROUNDS = len(WILD_BY_ROUND)

# Stars: star s < NCOLOURS is the outer star of colour s, star NCOLOURS the centre star.
NSTARS = NCOLOURS + 1
CENTRE_STAR = NCOLOURS

# Bonus regions: a mask over the 6 * NSTARS spaces (bit 6 * star + space - 1) and a reward.
REGION_KINDS = tuple(_DATA["bonus"])
_regions = [
    (kind, _region_mask(COLOUR_NAMES, region, f"bonus {kind}"), int(entry["reward"]))
    for kind, entry in _DATA["bonus"].items()
    for region in entry["regions"]
]
REGION_KIND = tuple(kind for kind, _, _ in _regions)
REGION_MASKS = np.array([mask for _, mask, _ in _regions], np.int64)
REGION_REWARDS = np.array([reward for _, _, reward in _regions], np.int64)

# End bonuses: STAR_BONUS[star] for a complete star; NUMBER_BONUS[k - 1] for space k
# covered on every star (0 where the board gives nothing).
STAR_BONUS = np.zeros(NSTARS, np.int64)
for _name, _points in _DATA["end_bonus"]["complete_star"].items():
    STAR_BONUS[_star_index(COLOUR_NAMES, _name, "end_bonus complete_star")] = _points
NUMBER_BONUS = np.zeros(STAR_SPACES, np.int64)
for _number, _points in _DATA["end_bonus"]["all_spaces_numbered"].items():
    if not 1 <= int(_number) <= STAR_SPACES:
        raise BoardDataError(f"{BOARD_FILE}: end_bonus: no space {_number!r} on a star")
    NUMBER_BONUS[int(_number) - 1] = _points
