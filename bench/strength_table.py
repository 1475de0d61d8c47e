"""A markdown table of the bench/versus.py reports in a folder (results/strength/).

    python bench/strength_table.py [FOLDER]

One row per report, sorted by file name: game, players, the pairing, games, A's win
rate with its Wilson 95% interval, mean margin with its 95% interval, the split by A's
seat, and the command that made it.
"""

import json
import sys
from pathlib import Path


def row(report):
    lo, hi = report["win_interval"]
    margin = report["mean_margin"]
    span = report["margin_interval"]
    seats = ", ".join(f"{s['wins']:g}/{s['games']}" for s in report["by_seat"])
    note = " (see the report's note)" if "note" in report else ""
    return (
        f"| {report['game']} | {report['players']} | `{report['agent']}` vs `{report['opponent']}`{note} "
        f"| {report['games']} | {report['win_rate']:.3f} [{lo:.3f}, {hi:.3f}] "
        f"| {margin:+.1f} [{span[0]:+.1f}, {span[1]:+.1f}] | {seats} | `{report['command']}` |"
    )


def table(folder):
    lines = [
        "| game | players | A vs B | games | A's win rate [95%] | mean margin [95%] | A's wins by seat | command |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for path in sorted(Path(folder).glob("*.json")):
        report = json.loads(path.read_text())
        if "agent" in report and "win_interval" in report:
            lines.append(row(report))
    return "\n".join(lines)


if __name__ == "__main__":
    print(table(sys.argv[1] if len(sys.argv) > 1 else "results/strength"))
