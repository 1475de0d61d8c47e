"""The hand-written Azul final-round positions of bench/solver_speed.py (the exact solver's
speed bar): two boards in round 5, where player 1's white on pattern line 1 completes
wall row 1, so the game ends this round; only the tiles on the table differ."""
from tessera.games import get_game

BOARDS = (
    "player 1 score 30 wall BYRK./.BY../..BY./...B./..... lines W/../.../..../..... floor -",
    "player 2 score 28 wall BYR.W/WB.../.W.../..W../..... lines ./../.../..../..... floor -",
)
# Tiles on the table -> the factories and the bag (every tile not shown is in the bag).
TABLES = {
    8: ("BYRK YRKW - - -", "13/14/16/17/14"),
    12: ("BYRK YRKW BBKW - -", "11/14/16/16/13"),
}


def final_round(tiles):
    """The final-round position with ``tiles`` (8 or 12) on the table, the marker in the centre."""
    factories, bag = TABLES[tiles]
    return get_game("azul").parse_position("\n".join([
        "azul players 2 wall colour round 5 phase draft turn 1 starter 1",
        f"factories {factories}", "centre 1", f"bag {bag}", "lid 0/0/0/0/0", *BOARDS]))
