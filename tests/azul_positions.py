"""Hand-made 2-player Azul positions for the tests that work values out by hand."""

from tessera.notation.azul import parse_position

COLOURS = "BYRKW"
EMPTY_BOARD = "score 0 wall ...../...../...../...../..... lines ./../.../..../..... floor -"
# Row 1: blue, yellow; row 2: blue (column 2). A yellow waits in the 2-tile line.
BOARD = "score 5 wall BY.../.B.../...../...../..... lines ./Y./.../..../..... floor -"


def azul_position(variant, factories, player_one, player_two=EMPTY_BOARD, phase="draft", centre="1"):
    """A 2-player Azul position of round 3, player 1 to move (a draft by default, the marker
    in the centre); the bag holds every tile not on the table or a board."""
    used = [0] * 5
    for text in (factories, player_one, player_two):
        words = text.split()
        for key in ("wall", "lines", "floor"):
            if key in words:
                for ch in words[words.index(key) + 1]:
                    if ch in COLOURS:
                        used[COLOURS.index(ch)] += 1
        if "wall" not in words:
            for ch in text:
                if ch in COLOURS:
                    used[COLOURS.index(ch)] += 1
    bag = "/".join(str(20 - n) for n in used)
    return parse_position(
        "\n".join(
            [
                f"azul players 2 wall {variant} round 3 phase {phase} turn 1 starter 1",
                f"factories {factories}",
                f"centre {centre}",
                f"bag {bag}",
                "lid 0/0/0/0/0",
                f"player 1 {player_one}",
                f"player 2 {player_two}",
            ]
        )
    )
