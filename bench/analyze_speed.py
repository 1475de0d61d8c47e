"""`tessera analyze` against separate `tessera best` runs, 2 search processes against 1,
and the first answer of a warm engine.

    python bench/analyze_speed.py [--queries 1000] [--visits 200] [--sample 20]
                                  [--out results/analyze.json]

The queries are random positions of all three games, in turn (``random_decisions``:
a seeded random game, one of its decisions picked by the query's seed), each searched
by MCTS with ``maxVisits`` visits. Throughput is queries per wall second from the
first query sent to the last answer read, the engine warm; the engines with 1 and 2
search processes run in turn ``--rounds`` times (odd) and the median run of each
counts, its range reported beside it. Separate runs: ``--sample``
of the same positions, each a `tessera best POS -n VISITS` process; their mean time
times the query count is the extrapolated time of all of them (running them all would
take an hour). Latency: a 1-visit query to a warm engine that has nothing else to do,
from writing the line to reading the answer.
"""

import argparse
import random
import statistics
import subprocess
import sys
import time

from tessera.analysis.client import AnalysisProcess
from tessera.bench import load_average, machine, random_decisions, write_report
from tessera.games import get_game

GAMES = ("azul", "pavilion", "azure")
TARGETS = {"throughput_vs_separate_runs": 5.0, "two_threads_vs_one": 1.8, "first_answer_ms": 50.0}


def positions(count):
    """``count`` position texts, the games in turn."""
    texts = []
    for i in range(count):
        name = GAMES[i % len(GAMES)]
        decisions = random_decisions(name, seed=i)
        state = decisions[random.Random(i).randrange(len(decisions))]
        texts.append(get_game(name).format_position(state))
    return texts


def throughput(texts, visits, threads):
    """(seconds, CPU milliseconds per query) of all ``texts`` through one engine.

    CPU time is counted for the engine's main process, its search processes (with
    the fork server, idle), and this process (which writes the queries and reads the
    answers)."""
    with AnalysisProcess(threads=threads) as engine:
        for i, name in enumerate(GAMES * threads):  # warm every process
            engine.send({"id": f"warm{i}", "game": name, "maxVisits": visits})
        engine.answers_to([f"warm{i}" for i in range(len(GAMES) * threads)], timeout=300)
        before = cpu_seconds(engine.process.pid)
        started = time.perf_counter()
        for i, text in enumerate(texts):
            engine.send({"id": str(i), "position": text, "maxVisits": visits})
        answers = engine.answers_to([str(i) for i in range(len(texts))], timeout=600)
        seconds = time.perf_counter() - started
        after = cpu_seconds(engine.process.pid)
        engine.close()
    failed = [a for a in answers.values() if "error" in a]
    if failed:
        raise SystemExit(f"{len(failed)} queries failed, e.g. {failed[0]}")
    return seconds, {part: round(1000 * (after[part] - before[part]) / len(texts), 2) for part in before}


def cpu_seconds(pid):
    """CPU seconds so far of the engine's main process, of its descendants, and of this one."""
    import psutil

    engine = psutil.Process(pid)

    def used(process):
        times = process.cpu_times()
        return times.user + times.system

    return {
        "engine_main": used(engine),
        "search_processes": sum(used(child) for child in engine.children(recursive=True)),
        "this_client": time.process_time(),
    }


def separate_runs(texts, visits):
    """Wall seconds of one `tessera best` process per text."""
    times = []
    for text in texts:
        started = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "tessera", "best", text, "-n", str(visits), "--seed", "0", "--json"],
            check=True,
            capture_output=True,
        )
        times.append(time.perf_counter() - started)
    return times


def first_answers(repeats):
    """Milliseconds to the answer of a 1-visit query, the engine warm and idle."""
    with AnalysisProcess(threads=1) as engine:
        engine.send({"id": "warm", "game": "azul", "maxVisits": 1})
        engine.answer_to("warm", timeout=300)
        times = []
        for i in range(repeats):
            name = GAMES[i % len(GAMES)]
            started = time.perf_counter()
            engine.send({"id": f"q{i}", "game": name, "startSeed": i, "maxVisits": 1})
            engine.answer_to(f"q{i}")
            times.append(1000 * (time.perf_counter() - started))
        engine.close()
    return times


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=1000)
    parser.add_argument("--visits", type=int, default=200)
    parser.add_argument("--sample", type=int, default=20, help="separate `tessera best` runs timed")
    parser.add_argument(
        "--rounds", type=int, default=3, help="runs of each engine (odd), 1 and 2 threads in turn; the median counts"
    )
    parser.add_argument("--latency-repeats", type=int, default=60)
    parser.add_argument("--out", help="write the figures as JSON here")
    args = parser.parse_args()
    load_before = load_average()
    texts = positions(args.queries)
    if args.rounds % 2 == 0:
        parser.error("--rounds must be odd (the median run counts)")
    runs, cpu_runs = {1: [], 2: []}, {1: [], 2: []}
    for _ in range(args.rounds):  # interleaved, so both see the same machine
        for threads in runs:
            seconds, cpu_ms = throughput(texts, args.visits, threads)
            runs[threads].append(seconds)
            cpu_runs[threads].append(cpu_ms)
    median_run = {threads: runs[threads].index(statistics.median(runs[threads])) for threads in runs}
    cpu = {threads: cpu_runs[threads][median_run[threads]] for threads in runs}
    one_seconds, two_seconds = (runs[threads][median_run[threads]] for threads in (1, 2))
    one_rate, two_rate = len(texts) / one_seconds, len(texts) / two_seconds
    sample = random.Random(0).sample(texts, min(args.sample, len(texts)))
    run_times = separate_runs(sample, args.visits)
    separate_seconds = statistics.mean(run_times) * len(texts)
    latencies = first_answers(args.latency_repeats)
    figures = {
        "queries": args.queries,
        "visits": args.visits,
        "engine_1_thread": {
            "seconds": round(one_seconds, 2),
            "queries_per_second": round(one_rate, 1),
            "every_round_seconds": [round(t, 2) for t in runs[1]],
            "cpu_ms_per_query": cpu[1],
        },
        "engine_2_threads": {
            "seconds": round(two_seconds, 2),
            "queries_per_second": round(two_rate, 1),
            "every_round_seconds": [round(t, 2) for t in runs[2]],
            "cpu_ms_per_query": cpu[2],
        },
        "separate_best_runs": {
            "timed": len(run_times),
            "mean_seconds": round(statistics.mean(run_times), 3),
            "extrapolated_seconds_for_all": round(separate_seconds, 1),
            "note": f"{len(run_times)} of the {args.queries} positions run as separate "
            "`tessera best` processes; the time for all is their mean times the count",
        },
        "throughput_vs_separate_runs": round(separate_seconds / one_seconds, 1),
        "throughput_2_threads_vs_separate_runs": round(separate_seconds / two_seconds, 1),
        "two_threads_vs_one": round(one_seconds / two_seconds, 2),
        "first_answer_ms": {
            "median": round(statistics.median(latencies), 1),
            "p90": round(sorted(latencies)[int(0.9 * len(latencies))], 1),
            "max": round(max(latencies), 1),
            "repeats": len(latencies),
        },
    }
    report = {
        "command": "python " + " ".join(sys.argv),
        "machine": machine(load_before),
        "targets": {
            "throughput_vs_separate_runs": f">= {TARGETS['throughput_vs_separate_runs']}",
            "two_threads_vs_one": f">= {TARGETS['two_threads_vs_one']}",
            "first_answer_ms": f"<= {TARGETS['first_answer_ms']} (median)",
        },
        "met": {
            "throughput_vs_separate_runs": figures["throughput_vs_separate_runs"]
            >= TARGETS["throughput_vs_separate_runs"],
            "two_threads_vs_one": figures["two_threads_vs_one"] >= TARGETS["two_threads_vs_one"],
            "first_answer_ms": figures["first_answer_ms"]["median"] <= TARGETS["first_answer_ms"],
        },
        **figures,
    }
    write_report(args.out, report)
    for name in (
        "engine_1_thread",
        "engine_2_threads",
        "separate_best_runs",
        "throughput_vs_separate_runs",
        "two_threads_vs_one",
        "first_answer_ms",
    ):
        print(f"{name}: {report[name]}")
    print("met:", report["met"])


if __name__ == "__main__":
    main()
