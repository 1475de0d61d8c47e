"""tessera.strength and bench/versus.py: seeded matches against a baseline source tree in a
worker process."""

import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tessera.strength import Baseline, VersusError, match
from tessera.strength.baseline import export_commit
from tests.limits import CHILD_SECONDS

pytestmark = pytest.mark.repo  # the checkout's source tree serves as the baseline; bench/versus.py

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def here_as_baseline():
    """This checkout serving as its own baseline (its numba cache is shared: nothing recompiles)."""
    with Baseline(REPO) as baseline:
        yield baseline


def test_a_seeded_match_is_reproducible_and_its_figures_add_up(here_as_baseline):
    first, records = match("pavilion", "greedy", "greedy@base", 2, seed=5, baseline=here_as_baseline, warm=False)
    again, records_again = match("pavilion", "greedy", "greedy@base", 2, seed=5, baseline=here_as_baseline, warm=False)
    assert [r.moves for _, r in records] == [r.moves for _, r in records_again]
    assert [r.scores for _, r in records] == [r.scores for _, r in records_again]
    assert [seat for seat, _ in records] == [0, 1]  # seats alternate
    assert records[0][1].agents == ["greedy", "greedy@base"]
    assert records[1][1].agents == ["greedy@base", "greedy"]
    assert sum(row["games"] for row in first["by_seat"]) == first["games"] == 2
    assert first["won"] + first["drawn"] + first["lost"] == 2
    margins = [r.scores[s] - r.scores[1 - s] for s, r in records]
    assert first["mean_margin"] == pytest.approx(sum(margins) / 2)
    timings = ("seconds", "ms_a_move")
    assert {k: v for k, v in first.items() if k not in timings} == {k: v for k, v in again.items() if k not in timings}
    for side in ("agent", "opponent"):  # both sides' moves were timed
        low, high = first["ms_a_move"][side]["quartiles"]
        assert 0 < low <= first["ms_a_move"][side]["median"] <= high


def test_the_same_agent_on_both_sides_plays_the_same_moves(here_as_baseline):
    """The baseline here is this very checkout: seat for seat, its greedy plays as ours does."""
    _, local = match("pavilion", "greedy", "greedy", 2, seed=9, warm=False)
    _, remote = match("pavilion", "greedy@base", "greedy@base", 2, seed=9, baseline=here_as_baseline, warm=False)
    assert [r.moves for _, r in local] == [r.moves for _, r in remote]


def _tree_with_an_agent_that_passes(root, layout):
    """A source tree whose package is this checkout's, but whose agents always answer 'pass'
    (illegal while drafting): the baseline side of the next test. ``layout``: "package-dir"
    (a pyproject.toml maps ``tessera`` to solver/ and ``tessera.kernels`` to kernels/, as
    this checkout's does) or "folders" (solver/ imported as ``solver``, as older versions were)."""
    package = root / "solver"
    package.mkdir()
    (package / "__init__.py").write_text(f"__path__.append({str(REPO / 'solver')!r})\n")
    (package / "agents.py").write_text(
        "from tessera.kernels.pavilion.layout import PASS_MOVE\n\n\n"
        "class Passer:\n"
        "    def choose(self, state):\n"
        "        return PASS_MOVE\n\n"
        "    def observe(self, move):\n"
        "        pass\n\n\n"
        "def parse_agent(spec, seed=0):\n"
        "    return Passer()\n"
    )
    (root / "kernels").symlink_to(REPO / "kernels")
    if layout == "package-dir":
        (root / "pyproject.toml").write_text(
            '[tool.setuptools]\npackage-dir = {"tessera" = "solver", "tessera.kernels" = "kernels"}\n'
        )


def test_the_worker_times_a_search_and_names_a_bad_position(here_as_baseline):
    """The worker's ``rate`` op (a speed comparison of two versions): simulations a CPU second
    of one default search; a position that does not parse is an error answer."""
    from tessera.games import get_game

    game = get_game("pavilion")
    position = game.format_position(game.new(1, players=2))
    rate = here_as_baseline.ask({"op": "rate", "position": position, "simulations": 300, "seed": 1})
    assert 100 < rate["simulations_per_s"] < 1e7
    with pytest.raises(VersusError, match="baseline"):
        here_as_baseline.ask({"op": "rate", "position": "pavilion nonsense", "simulations": 300, "seed": 1})


@pytest.mark.parametrize("layout", ["package-dir", "folders"])
def test_an_illegal_baseline_move_is_an_error_naming_it(tmp_path, layout):
    _tree_with_an_agent_that_passes(tmp_path, layout)
    with Baseline(tmp_path) as baseline:
        with pytest.raises(VersusError, match=r"greedy@base in seat 2 .* answered 'pass', which is not legal"):
            match("pavilion", "greedy", "greedy@base", 1, seed=3, baseline=baseline, warm=False)


def test_the_command_line_says_what_is_wrong_in_one_line(tmp_path):
    run = subprocess.run(
        [
            sys.executable,
            str(REPO / "bench" / "versus.py"),
            "pavilion",
            "greedy",
            "greedy@base",
            "--baseline",
            "no-such-commit",
        ],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=CHILD_SECONDS,
    )
    assert run.returncode == 2
    assert run.stderr.strip().splitlines() == [f"error: no commit 'no-such-commit' in {REPO}"]


def test_exports_of_one_commit_at_once_each_find_it_whole(tmp_path):
    """Matches started together against the same commit export it together: each finds
    the whole tree, and one copy stays."""
    with ThreadPoolExecutor(4) as pool:
        folders = set(pool.map(lambda _: export_commit(REPO, "HEAD", tmp_path), range(4)))
    assert len(folders) == 1
    folder = folders.pop()
    assert (folder / "src" / "pyproject.toml").is_file()
    assert [path.name for path in folder.iterdir()] == ["src"]
