"""The web board's speed: the first page load of a warm `tessera serve` and a move's board
update, in headless chromium (Debian's, as the browser tests drive it).

    python bench/web_speed.py [--loads 5] [--games 2] [--out results/web.json]

A server is started and warmed (one page loaded and one move played per game). Then:

- **first page load**: a fresh browser profile (nothing cached) opens the page, timed
  from the navigation to the board drawn with its moves (the page, its five scripts and
  style sheet, the games' options and the first position from the API); ``--loads``
  times, each in a new profile;
- **board update**: a whole Azul game (``--games`` of them, seeds 1, 2, ...), each move
  played as a click plays it (``play``: the API call, then the board, move list and
  history drawn again), timed inside the page with ``performance.now()``; the same
  for a Summer Pavilion and an Azure game.

Figures are medians with the 90th percentile and the maximum; the machine's load
average is recorded before and after (the machine is shared: a busy one slows both).
"""

import argparse
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.web_server import launch_chromium, running_server  # noqa: E402

PLAY_TIMED = """async (move) => {
  const start = performance.now();
  await play(move);
  return performance.now() - start;
}"""


def first_load(playwright, url):
    with tempfile.TemporaryDirectory(prefix="tessera-bench-") as profile:
        context = launch_chromium(playwright, profile)
        try:
            page = context.new_page()
            start = time.perf_counter()
            page.goto(url)
            page.wait_for_selector("#moves button")
            return (time.perf_counter() - start) * 1000
        finally:
            context.close()


def game_updates(page, game, seed):
    """Milliseconds of each move's update over a whole game (the first legal move each time)."""
    page.select_option("#game", game)
    page.fill("#seed", str(seed))
    page.click("#new")
    page.wait_for_function(f"current().doc.game === '{game}' && ui.history.length === 1")
    times = []
    while not page.evaluate("current().doc.is_over"):
        move = page.evaluate("current().doc.moves[0].text")
        times.append(page.evaluate(PLAY_TIMED, move))
    return times


def summary(values):
    ordered = sorted(values)
    return {
        "median_ms": round(statistics.median(ordered), 1),
        "p90_ms": round(ordered[int(0.9 * (len(ordered) - 1))], 1),
        "max_ms": round(ordered[-1], 1),
        "count": len(ordered),
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--loads", type=int, default=5)
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--out")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    load_before = os.getloadavg()
    with (
        running_server() as (url, _),
        sync_playwright() as playwright,
        tempfile.TemporaryDirectory(prefix="tessera-bench-") as profile,
    ):
        warm = launch_chromium(playwright, profile)
        page = warm.new_page()
        page.goto(url)
        page.wait_for_selector("#moves button")
        for game in ("azul", "pavilion", "azure"):
            game_updates(page, game, 0)  # loads every kernel the pages use
        loads = [first_load(playwright, url) for _ in range(args.loads)]
        updates = {
            game: [ms for seed in range(1, args.games + 1) for ms in game_updates(page, game, seed)]
            for game in ("azul", "pavilion", "azure")
        }
        warm.close()
    result = {
        "command": "python bench/web_speed.py " + " ".join(sys.argv[1:]),
        "machine": {
            "cpus": os.cpu_count(),
            "platform": platform.platform(),
            "load_average_before": [round(x, 2) for x in load_before],
            "load_average_after": [round(x, 2) for x in os.getloadavg()],
        },
        "first_page_load": summary(loads),
        "board_update": {game: summary(times) for game, times in updates.items()},
    }
    text = json.dumps(result, indent=2)
    print(text)
    if args.out:
        Path(args.out).write_text(text + "\n")


if __name__ == "__main__":
    main()
