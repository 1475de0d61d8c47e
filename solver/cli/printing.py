"""The text the commands print, made from what they computed: plain functions from a
search report (``tessera.search.report``) or a listing to lines or rich renderables,
for any front end to show. Nothing here writes; rich is imported only for a table."""

MCTS_ALGOS = ("mcts", "ismcts")  # the report's algo: ismcts on a player's view


def counted(n, noun):
    """``1 move``, ``2 moves``."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def rate(nodes, seconds):
    """Nodes per second as a whole number, or '-' when no time was measured."""
    return f"{nodes / seconds:.0f}" if seconds > 0 else "-"


def move_listing(heading, texts, chances):
    """The lines of `tessera moves`: the heading, then a move a line, with its probability
    at a chance step (``chances`` None otherwise)."""
    return [heading] + [f"{text}  p={chances[i]:.4f}" if chances else text for i, text in enumerate(texts)]


def score_changes(changes, scores):
    """One line: each player's score change and score."""
    return "score changes: " + ", ".join(
        f"player {p} {change:+d} (now {score})" for p, (change, score) in enumerate(zip(changes, scores), 1)
    )


# ---- search reports ------------------------------------------------------------------


def best_text(report, top):
    """What `tessera best` prints of ``report``, one renderable after another: the summary,
    the table of the ``top`` best moves (0: all), and the notes below it. The table's
    lines are cut to the console's width."""
    from rich.table import Table
    from rich.text import Text

    root = report["root"]
    parts = [_root_summary(report)]
    moves = report["moves"][: top or None]
    table = Table(box=None, pad_edge=False)
    columns = [("#", "right"), ("move", "left"), ("visits" if report["algo"] in MCTS_ALGOS else "nodes", "right")]
    optional = [("win_rate", "win %"), ("margin", "margin"), ("lcb", "LCB %"), ("prior", "prior %"), ("exact", "exact")]
    shown = [(key, title) for key, title in optional if any(m[key] is not None for m in moves)]
    for title, justify in columns + [(title, "right") for _, title in shown]:
        table.add_column(title, justify=justify, no_wrap=True)
    # The one wrappable column, so the line is what narrows to the width; each cell
    # itself does not wrap, so it is cut with an ellipsis.
    table.add_column("PV")
    for rank, move in enumerate(moves, 1):
        cells = [str(rank), move["move"], f"{move['visits']:,}"]
        cells += [_cell(key, move[key], report["settings"].get("mode")) for key, _ in shown]
        table.add_row(*cells, Text(", ".join(move["pv"]), no_wrap=True, overflow="ellipsis"))
    parts.append(table)
    if len(moves) < len(report["moves"]):
        parts.append(f"the best {len(moves)} of {len(report['moves'])} moves (--top 0 for all)")
    if root["exact"] is not None:
        parts.append("exact value: " + _exact_text(root["exact"], report["settings"].get("mode")))
    return parts


def _root_summary(report):
    root, settings = report["root"], report["settings"]
    value = [f"margin {_signed(root['margin'])}"]
    if root["win_rate"] is not None:
        value.insert(0, f"win {100 * root['win_rate']:.1f}%")
    lines = [
        f"{report['game']} · player {report['player']} to move · position hash {report['position_hash']}",
        f"algo {report['algo']} · threads {root['threads']}"
        + (f" · seed {settings['seed']}" if "seed" in settings else "")
        + (f" · depth {root['depth']}" if root["depth"] is not None else ""),
        "value: " + ", ".join(value) + _proof_note(report),
        f"{counted(root['visits'], 'visit' if report['algo'] in MCTS_ALGOS else 'node')} in "
        f"{root['seconds']:.2f} s · {root['nodes_per_second']:,.0f} nodes/s",
    ]
    if report["interrupted"]:
        lines.append("interrupted: the figures are those of the search so far")
    return "\n".join(lines)


def _proof_note(report):
    """Whether an alpha-beta value is exact or the estimate of a search cut short."""
    if report["algo"] in MCTS_ALGOS:
        return ""
    if report["proven"]:
        return " (exact)"
    return f" (an estimate: not proven at depth {report['root']['depth']})"


def _cell(key, value, mode):
    if value is None:
        return "-"
    if key == "margin":
        return _signed(value)
    if key == "exact":
        return _exact_text(value, mode, short=True)
    return f"{100 * value:.1f}"


def _signed(number):
    return f"{number:+.0f}" if float(number).is_integer() else f"{number:+.2f}"


def _exact_text(exact, mode, short=False):
    """A proven value: a score margin (round mode), a result or a win probability (game mode)."""
    margin = _signed(exact["margin"])
    if exact["horizon"] == "round":
        return f"{margin} round" if short else f"{margin} at the end of the round (the game goes on; docs/search.md)"
    if mode != "game":
        return (
            f"{margin} {exact['result']}" if short else f"{margin}, a {exact['result']} (the game ends within the line)"
        )
    if exact["result"] is None:
        chance = f"{100 * exact['win_rate']:.1f}%"
        return f"win {chance}" if short else f"a win probability of {chance} with best play (the draws decide)"
    return exact["result"] if short else f"a {exact['result']} with best play, whatever is drawn"


def _estimate_text(line, mode):
    """An unproven value: the win probability (game mode) or the searched margin."""
    if mode == "game":
        return f"win probability {100 * line['win_rate']:.1f}%"
    return f"margin {_signed(line['margin'])}"


def solve_text(report):
    """What `tessera solve` prints of ``report``: the value, the best moves and the line."""
    root = report["root"]
    lines = [f"{report['game']} · player {report['player']} to move · position hash {report['position_hash']}"]
    if report["proven"]:
        best_moves = report["best_moves"]
        lines.append("exact value: " + _exact_text(root["exact"], report["settings"]["mode"]))
        lines.append(("best move: " if len(best_moves) == 1 else "best moves: ") + ", ".join(best_moves))
    else:
        lines.append(
            f"not proven: the time limit of {report['settings']['time']:g} s ran out before the value was proven"
        )
        if report["moves"]:
            found = report["moves"][0]
            lines.append(
                f"best move found: {found['move']}, {_estimate_text(found, report['settings']['mode'])} (an estimate)"
            )
    lines.append("line: " + (", ".join(report["pv"]) or "-"))
    lines.append(
        f"{counted(root['visits'], 'node')} in {root['seconds']:.2f} s · {root['nodes_per_second']:,.0f} nodes/s"
    )
    return "\n".join(lines)
