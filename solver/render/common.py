"""Drawing pieces the games share: coloured tiles or cards, the factories, the players'
board panels and the winner line."""

import numpy as np
from rich.columns import Columns
from rich.console import Group
from rich.panel import Panel
from rich.text import Text

from tessera.kernels.games import payoffs

BOARD_WIDTH = 25  # fits "▶ Player 4 · 100 pts"; three fit in 80 columns


class Palette:
    """A game's tiles (or cards): each letter drawn in its style, ``gap`` between the
    letters of a row, and ``none`` (dim) where there are none."""

    def __init__(self, styles, none, gap=" "):
        self.styles = styles
        self.none = none
        self.gap = gap

    def tile(self, letter):
        return Text(letter, style=self.styles[letter])

    def row(self, letters):
        if letters == self.none:
            return Text(self.none, style="dim")
        return Text(self.gap).join(self.tile(letter) for letter in letters)

    def count(self, letters):
        return 0 if letters == self.none else len(letters)

    def counts(self, letters, numbers):
        """`` B3 Y0 …``: each letter followed by its number."""
        text = Text()
        for letter, n in zip(letters, numbers):
            text += Text(" ") + self.tile(letter) + Text(str(n))
        return text

    def total(self, letters, counts):
        """``12: B3 Y0 …``: the total of ``counts`` (in ``letters`` order), then each."""
        return Text(f"{sum(counts.values())}:") + self.counts(letters, counts.values())


def tabletop(title, who_acts, table, boards):
    """The title over who acts, the table, then the players' boards side by side."""
    return Group(Group(title, Text(who_acts)), Text(), table, Text(), Columns(boards, padding=(0, 1)))


def factories(palette, tiles):
    """The heading ``Factories`` over the numbered factories in columns."""
    cells = [Text.assemble((f"{f} ", "dim"), palette.row(factory)) for f, factory in enumerate(tiles, 1)]
    return Group(Text("Factories", style="bold"), Columns(cells, padding=(0, 3)))


def board_panel(body, number, score, acting):
    """A player's board, titled with the player and score; bold with ▶ for the one acting."""
    title = f"{'▶ ' if acting else ''}Player {number} · {score} pts"
    return Panel(body, title=title, width=BOARD_WIDTH, border_style="bold" if acting else "dim")


def result(state, players):
    """Who won the finished game in ``state``: one player, or players sharing the win."""
    shares = np.zeros(players, np.float64)
    payoffs(state, shares)
    winners = [str(p) for p, share in enumerate(shares, 1) if share > 0]
    if len(winners) == 1:
        return f"player {winners[0]} wins"
    return f"players {' and '.join(winners)} share the win"
