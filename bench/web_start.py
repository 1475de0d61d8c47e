"""The board's first start on an empty numba cache: how soon it draws, and how soon it analyses.

    python bench/web_start.py [--runs 3] [--out results/web-start.json]

Each run starts `tessera serve` with a fresh ``NUMBA_CACHE_DIR`` (the kernels shipped
compiled load from the package, ``tessera.kernels.prebuilt``) and, once the server says
where it listens, opens the page in headless chromium (Debian's, as the browser tests
drive it, in a fresh profile) and times, from the page's opening:

- ``board_s``: the first position drawn with its moves (what a player can click);
- ``analysis_s``: Start clicked as soon as the board is drawn, to the first analysis line;

and from the server's start (the browser already running), ``analysis_from_start_s``, to
set beside the CLI's first answer on an empty cache (``cli_first_answer_s``: the README's
command, timed in the same run). Each time is when the page's document first holds what
is waited for (a MutationObserver in the page notes it), not when the browser driver's
polling notices. Figures are medians with their ranges, wall seconds.
"""

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench.start_speed import README, run_shell  # noqa: E402
from tessera.bench import load_average, machine, write_report  # noqa: E402
from tests.web_server import launch_chromium, running_server  # noqa: E402

TIMEOUT_MS = 600_000
# What is waited for: the board's pieces and its moves, and the first analysis line.
SHOWN = {"pieces": "#board [data-pick]", "moves": "#moves button", "analysis": "#analysis tbody tr"}
# Notes the wall time (ms since the epoch) at which each of SHOWN first matches.
NOTE_SHOWN = """
window.shownAt = {};
new MutationObserver(() => {
  for (const [name, selector] of Object.entries(%s))
    if (!(name in window.shownAt) && document.querySelector(selector)) window.shownAt[name] = Date.now();
}).observe(document, {subtree: true, childList: true});
""" % json.dumps(SHOWN)


def one_start(playwright, workdir):
    cache = tempfile.mkdtemp(dir=workdir)
    browser = launch_chromium(playwright, tempfile.mkdtemp(dir=workdir))  # running, as a user's is
    page = browser.new_page()
    page.add_init_script(NOTE_SHOWN)
    started = time.time()
    with running_server("--searches", "1", env={"NUMBA_CACHE_DIR": cache}) as (url, _):
        opened = time.time()
        page.goto(url)
        page.wait_for_selector(SHOWN["pieces"], timeout=TIMEOUT_MS)
        page.wait_for_selector(SHOWN["moves"], timeout=TIMEOUT_MS)
        page.click("#analyse")
        page.wait_for_selector(SHOWN["analysis"], timeout=TIMEOUT_MS)
        shown = {name: at / 1000 for name, at in page.evaluate("window.shownAt").items()}
        browser.close()
    drawn = max(shown["pieces"], shown["moves"])
    return {
        "board_s": drawn - opened,
        "analysis_s": shown["analysis"] - drawn,
        "analysis_from_start_s": shown["analysis"] - started,
    }


def cli_first_answer(workdir):
    wall, _, _ = run_shell(README, tempfile.mkdtemp(dir=workdir), workdir, None)
    return wall


def summary(values):
    return {"median_s": round(statistics.median(values), 2), "range_s": [round(min(values), 2), round(max(values), 2)]}


def main():
    from playwright.sync_api import sync_playwright

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    load_before = load_average()
    runs = []
    with tempfile.TemporaryDirectory() as workdir, sync_playwright() as playwright:
        for i in range(args.runs):
            run = one_start(playwright, workdir)
            run["cli_first_answer_s"] = cli_first_answer(workdir)
            print(f"run {i + 1}: " + ", ".join(f"{key} {value:.2f}" for key, value in run.items()), file=sys.stderr)
            runs.append(run)
    figures = {key: summary([run[key] for run in runs]) for key in runs[0]}
    figures["board_s"]["target_s"] = 3.0
    figures["analysis_from_start_s"]["target_s"] = "at most 2 s after cli_first_answer_s"
    report = {
        "command": "python bench/web_start.py " + " ".join(sys.argv[1:]),
        "cli_command": README,
        "machine": machine(load_before),
        "runs": args.runs,
        "figures": figures,
    }
    for key, figure in figures.items():
        print(f"{key:24} {figure['median_s']:6.2f} s  ({figure['range_s'][0]}-{figure['range_s'][1]})")
    write_report(args.out, report)


if __name__ == "__main__":
    main()
