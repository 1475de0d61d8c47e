"""An Azure position drawn with rich: a header, the realm as a grid, the cosmos track,
the cards and the players.

The grid has a column per realm column (a-f, a-h with Cosmos) and a row per realm row
(1-6, 1-8), as in the notation: ``a1`` is the top-left cell. Each cell is two lines
on its domain's colour:

- a space: its symbols (``WW`` two white qi cards, ``+2`` two points, ``☼`` a cosmos
  step, ``~`` a serpent space), then its domain's letter and its stone (``●1`` a
  common stone of player 1, ``◆2`` player 2's gifted stone) or, when empty, its card
  cost (``A (3)``: three azure cards);
- a mountain: its beast, then ``▲`` and who holds the beast (``free`` while on the
  mountain) and, on the Black mountain, the stone there.

Letters and marks carry everything, so the drawing still reads without colour.
The realm is read from the state's realm words; the rest from the JSON form.
"""

from rich import box
from rich.console import Group
from rich.table import Table
from rich.text import Text

from tessera.kernels.azure.layout import (
    BEAST_NAMES,
    BLACK,
    CELL_COSMOS,
    CELL_COST,
    CELL_DOMAIN,
    CELL_KIND,
    CELL_QI,
    CELL_QI_COLOUR,
    CELL_SERPENT,
    CELL_WISDOM,
    COLOUR_LETTERS,
    COLOUR_NAMES,
    GIFTED_COST,
    GRID,
    KIND_MOUNTAIN,
    KIND_NONE,
    P_GIFTED,
    P_STONES,
    PLAYERS,
    S_CELL,
    S_COSMOS,
    S_GIFTED,
    S_THRESHOLDS,
    S_TRACK_END,
    W_BLACK_STONE,
    W_HOLDER,
    cell_field,
    player_word,
)
from tessera.notation.azure import COLUMNS, NONE, UNKNOWN, position_to_json
from tessera.render.common import Palette

DOMAIN_STYLES = ("bold white on dodger_blue3", "bold black on grey85", "bold white on red3", "bold white on grey19")
CARDS = Palette({**dict(zip(COLOUR_LETTERS, DOMAIN_STYLES)), UNKNOWN: "bold"}, NONE, gap="")
PLAYER_STYLES = ("bold black on yellow", "bold white on magenta")
COMMON, GIFTED = "●", "◆"
MOUNTAIN = "▲"
COSMOS_MARK = "☼"
SERPENT_MARK = "~"
CELL_WIDTH = 8
BEAST_TITLES = ("Dragon", "Tiger", "Bird", "Tortoise")  # by mountain colour
BEAST_FULL = ("Azure Dragon", "White Tiger", "Vermillion Bird", "Black Tortoise")
STANDIN_NOTE = (
    "Cosmos boards: STAND-IN. The printed Cosmos large domains and track are not"
    " known to Tessera; these are invented boards of the same shape"
    " (azure-cosmos-standin.json, packaged with Tessera). Set TESSERA_AZURE_COSMOS to a file with"
    " the printed boards."
)


def render_position(state):
    obj = position_to_json(state)
    parts = [_header(obj, state), Text(), _realm(state)]
    if obj["cosmos"]:
        parts += [_track(state, obj["track"]), _cosmos_note()]
    parts += [Text(), _cards(obj), Text(), _players(obj)]
    return Group(*parts)


# ---- header --------------------------------------------------------------------------


def _header(obj, state):
    title = "Azure"
    if obj["gifted"] != "none":
        cost = GIFTED_COST[int(state[S_GIFTED])]
        title += f" · Gifted: {obj['gifted']} (+{cost} card{'s' if cost > 1 else ''})"
    if obj["cosmos"]:
        title += " · Cosmos"
    lines = [Text(title, style="bold"), Text(who_acts(obj))]
    if obj["view"] is not None:
        lines.append(
            Text(
                f"player {obj['view']}'s view: player {3 - obj['view']}'s cards that"
                f" player {obj['view']} cannot name are {UNKNOWN}, and so is the hidden"
                " deck",
                style="italic",
            )
        )
    return Group(*lines)


def who_acts(obj):
    """One line: who acts and what they do (under the drawing's title; the web board's status)."""
    phase, turn = obj["phase"], obj["turn"]
    if phase == "setup":
        drawer = 1 if obj["draws"] and CARDS.count(obj["players"][0]["hand"]) < 2 else 2
        return f"setup: chance deals player {drawer}'s starting hand ({obj['draws']} more from the hidden deck)"
    if phase == "place":
        return f"place: player {turn} places a stone"
    if phase == "boon":
        return f"boon: player {turn} chooses Bountiful's extra boon for {obj['placed']}"
    if phase == "take":
        return f"take: player {turn} takes a face-up card (a cosmos threshold crossed)"
    if phase == "return":
        return f"return: player {3 - turn} returns a card (a cosmos threshold crossed back)"
    if phase == "bird-draw":
        holder = next(p for p, player in enumerate(obj["players"], 1) if "bird" in player["beasts"])
        return f"bird-draw: chance deals player {holder} {obj['draws']} card(s) for the Bird"
    if phase == "bird-return":
        return f"bird-return: player {obj['bird_loser']} returns two cards for losing the Bird"
    return f"game over: player {obj['winner']} wins"


# ---- the realm -----------------------------------------------------------------------


def _realm(state):
    size = GRID if state[S_COSMOS] else 6
    table = Table(box=box.SQUARE, show_lines=True, pad_edge=False, padding=0, show_header=True, header_style="bold")
    table.add_column("", justify="right", no_wrap=True)
    for col in range(size):
        table.add_column(COLUMNS[col], justify="center", width=CELL_WIDTH, no_wrap=True)
    for row in range(size):
        cells = [_cell(state, GRID * row + col) for col in range(size)]
        table.add_row(Text(f"{row + 1} ", style="bold"), *cells)
    legend = Text.assemble(
        ("legend: ", "bold"),
        "WW two white cards, +2 two points, ",
        f"{COSMOS_MARK} a cosmos step, " if state[S_COSMOS] else "",
        f"{SERPENT_MARK} serpent, A (3) an azure space costing 3 azure cards; ",
        (f"{COMMON}1", PLAYER_STYLES[0]),
        " ",
        (f"{COMMON}2", PLAYER_STYLES[1]),
        " stones, ",
        (f"{GIFTED}1", PLAYER_STYLES[0]),
        " gifted stone; ",
        f"{MOUNTAIN} a mountain, its beast free or with P1/P2",
        style="dim",
    )
    return Group(table, legend)


def _cell(state, cell):
    packed = int(state[S_CELL + cell])
    kind = cell_field(packed, CELL_KIND)
    if kind == KIND_NONE:
        return Text("\n")
    colour = cell_field(packed, CELL_DOMAIN)
    style = DOMAIN_STYLES[colour]
    if kind == KIND_MOUNTAIN:
        holder = int(state[W_HOLDER + colour])
        second = Text(f"{MOUNTAIN} ")
        if holder < 0:
            second.append("free")
        else:
            second.append(f"P{holder + 1}", style=PLAYER_STYLES[holder])
        if colour == BLACK and state[W_BLACK_STONE] >= 0:
            owner = int(state[W_BLACK_STONE])
            second.append(" ")
            second.append(f"{COMMON}{owner + 1}", style=PLAYER_STYLES[owner])
        return _two_lines([Text(BEAST_TITLES[colour]), second], style)
    symbols = ""
    qi = cell_field(packed, CELL_QI)
    if qi:
        symbols += COLOUR_LETTERS[cell_field(packed, CELL_QI_COLOUR)] * qi
    wisdom = cell_field(packed, CELL_WISDOM)
    if wisdom:
        symbols += f"+{wisdom}"
    symbols += COSMOS_MARK * cell_field(packed, CELL_COSMOS)
    if cell_field(packed, CELL_SERPENT):
        symbols += SERPENT_MARK
    owner = _stone_owner(state, cell)
    second = Text(f"{COLOUR_LETTERS[colour]} ")
    if owner is None:
        second.append(f"({cell_field(packed, CELL_COST)})")
    else:
        player, gifted = owner
        second.append(f"{GIFTED if gifted else COMMON}{player + 1}", style=PLAYER_STYLES[player])
    return _two_lines([Text(symbols), second], style)


def _two_lines(lines, style):
    out = Text(style=style, justify="center")
    for i, line in enumerate(lines):
        if i:
            out.append("\n")
        out.append_text(line)
    return out


def _stone_owner(state, cell):
    for p in range(PLAYERS):
        if int(state[player_word(p, P_STONES)]) >> cell & 1:
            return p, int(state[player_word(p, P_GIFTED)]) == cell
    return None


# ---- the cosmos track ----------------------------------------------------------------


def _track(state, track):
    end = int(state[S_TRACK_END])
    thresholds = int(state[S_THRESHOLDS])
    text = Text.assemble(("Cosmos track  ", "bold"), ("player 2 ", PLAYER_STYLES[1]), "◀ ")
    for step in range(-end, end + 1):
        if step == track:
            text.append("Y", style="bold black on yellow")
        else:
            text.append("■" if abs(step) == end else "·")
        after = step + 1
        if after <= end:
            # a threshold between steps k and k + 1 from the middle, on either side
            k = step if step >= 0 else -after
            text.append("|" if k >= 1 and thresholds >> k & 1 else " ")
    text.append(" ▶ ")
    text.append("player 1", style=PLAYER_STYLES[0])
    where = (
        "in the middle"
        if track == 0
        else f"{abs(track)} step{'s' if abs(track) > 1 else ''} toward player {1 if track > 0 else 2}"
    )
    return Group(text, Text(f"Yellow Dragon {where}; | a threshold, ■ an end (reaching it wins)", style="dim"))


def _cosmos_note():
    from tessera.kernels.azure.realm import BoardDataError, load_cosmos

    try:
        boards = load_cosmos()
    except BoardDataError as err:
        return Text(f"Cosmos boards: {err}", style="bold red")
    if boards.standin:
        return Text(STANDIN_NOTE, style="bold")
    return Text(f"Cosmos boards: {boards.source}", style="dim")


# ---- cards and players ---------------------------------------------------------------


def _cards(obj):
    faceup = Text.assemble(
        ("Face-up decks ", "bold"), CARDS.counts(COLOUR_LETTERS, [obj["faceup"][n] for n in COLOUR_NAMES])
    )
    deck = obj["deck"]
    return Group(faceup, Text.assemble(("Hidden deck   ", "bold"), f"{CARDS.count(deck)} cards  ", CARDS.row(deck)))


def _players(obj):
    rows = []
    acting = _acting_player(obj)
    for number, player in enumerate(obj["players"], 1):
        marker = "▶ " if number == acting else "  "
        beasts = ", ".join(BEAST_FULL[BEAST_NAMES.index(b)] for b in player["beasts"]) or NONE
        gifted = f", gifted stone on {player['gifted']}" if player["gifted"] else ""
        rows.append(
            Text.assemble(
                marker,
                (f"Player {number}", PLAYER_STYLES[number - 1]),
                (f"  {player['score']} points", "bold"),
                f" · {len(player['stones'])} stones on the realm, {player['supply']} in supply{gifted}",
            )
        )
        hand = player["hand"]
        rows.append(
            Text.assemble(
                "    hand ",
                CARDS.row(hand),
                f" ({CARDS.count(hand)} cards; known to the opponent: ",
                CARDS.row(player["known"]),
                ")",
            )
        )
        rows.append(Text(f"    beasts: {beasts}"))
    return Group(*rows)


def _acting_player(obj):
    phase, turn = obj["phase"], obj["turn"]
    if phase in ("place", "boon", "take"):
        return turn
    if phase == "return":
        return 3 - turn
    if phase == "bird-return":
        return obj["bird_loser"]
    return None
