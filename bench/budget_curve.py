"""One agent's score against a fixed opponent as its time a move grows: does it ever fall?

    python bench/budget_curve.py REPORT... [--out results/FILE.json]

The REPORTs are bench/versus.py reports of one pairing, the agent's time a move varied
(its spec's ``time=``), the opponent and the game the same; reports of the same time (chunks
of one match under different seeds) are added up. For each time: the games, the agent's
score (a draw is half a win) with its Wilson 95% interval, and the step from the time
before: the change in score with its 95% interval (normal, the two independent), and
whether it is a fall beyond the noise (the interval wholly below zero).
"""

import argparse
import json
import math
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tessera.bench import write_report  # noqa: E402
from tessera.selfplay.stats import Z95, wilson  # noqa: E402

TIME = re.compile(r"time=([0-9.]+)")


def agent_seconds(report):
    found = TIME.search(report["agent"])
    if found is None:
        raise SystemExit(f"{report['agent']}: no time= in the agent's spec")
    return float(found.group(1))


def combine(reports):
    """{seconds: {"games", "wins", "commands"}} of reports of one pairing."""
    pairings = {
        (report["game"], report["players"], report["opponent"], TIME.sub("time=T", report["agent"]))
        for report in reports
    }
    if len(pairings) != 1:
        raise SystemExit(f"the reports are of more than one pairing: {sorted(pairings)}")
    by_time = {}
    for report in reports:
        entry = by_time.setdefault(agent_seconds(report), {"games": 0, "wins": 0.0, "commands": []})
        entry["games"] += report["games"]
        entry["wins"] += report["wins"]
        entry["commands"].append(report["command"])
    return dict(sorted(by_time.items()))


def curve(by_time):
    rows, before = [], None
    for seconds, entry in by_time.items():
        score = entry["wins"] / entry["games"]
        lo, hi = wilson(entry["wins"], entry["games"])
        row = {
            "ms": round(seconds * 1000, 3),
            "games": entry["games"],
            "score": round(score, 4),
            "interval": [round(lo, 4), round(hi, 4)],
            "commands": entry["commands"],
        }
        if before is not None:
            change = score - before[0]
            spread = Z95 * math.sqrt(score * (1 - score) / entry["games"] + before[0] * (1 - before[0]) / before[1])
            row["change"] = round(change, 4)
            row["change_interval"] = [round(change - spread, 4), round(change + spread, 4)]
            row["falls"] = change + spread < 0
        rows.append(row)
        before = (score, entry["games"])
    return rows


def describe(row):
    """One line of the curve: the time, the games, the score and the step from the time before."""
    lo, hi = row["interval"]
    line = f"{row['ms']:7g} ms  {row['games']:4d} games  {row['score']:.3f} [{lo:.3f}, {hi:.3f}]"
    if "change" in row:
        low, high = row["change_interval"]
        line += f"  change {row['change']:+.3f} [{low:+.3f}, {high:+.3f}]" + ("  FALLS" if row["falls"] else "")
    return line


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("reports", nargs="+")
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    reports = [json.loads(Path(path).read_text()) for path in args.reports]
    rows = curve(combine(reports))
    first = reports[0]
    report = {
        "command": "python bench/budget_curve.py " + " ".join(sys.argv[1:]),
        "game": first["game"],
        "players": first["players"],
        "opponent": first["opponent"],
        "baseline": first.get("baseline"),
        "curve": rows,
        "falls_beyond_noise": [row["ms"] for row in rows if row.get("falls")],
    }
    for row in rows:
        print(describe(row))
    write_report(args.out, report)


if __name__ == "__main__":
    main()
