"""The README as a newcomer uses it: each ```python block runs in a fresh interpreter and
exits 0 (the API tour printing what it found), its set-up commands stay the two the
project documents, its links lead to files, and its index names every document."""

import importlib.util
import json
import re
import subprocess
import sys

import pytest

from tests.limits import COLD_START_SECONDS
from tests.repo import REPO, repo_text

pytestmark = pytest.mark.repo

README = repo_text("README.md")
PYTHON_BLOCKS = re.findall(r"```python\n(.*?)```", README, re.S)


def needs_rl_extra(code):
    return "tessera.rl" in code


def test_the_readme_has_python_examples():
    assert len(PYTHON_BLOCKS) >= 2
    assert any("import tessera\n" in code for code in PYTHON_BLOCKS)


@pytest.mark.parametrize("index", range(len(PYTHON_BLOCKS)))
def test_a_readme_python_example_runs(index):
    code = PYTHON_BLOCKS[index]
    if needs_rl_extra(code) and importlib.util.find_spec("pettingzoo") is None:
        pytest.skip("the rl extra (pettingzoo) is not installed")
    run = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=COLD_START_SECONDS
    )
    assert run.returncode == 0, run.stderr
    if "import tessera\n" in code:  # the API tour prints what it found
        assert re.search(r"^best \S+ .* win \d+% margin [+-]\d", run.stdout, re.M), run.stdout
        assert re.search(r"^final scores \[\d+, \d+\]$", run.stdout, re.M), run.stdout


def test_the_set_up_commands_are_the_documented_two():
    setup = README.split("## Set up", 1)[1].split("\n## ", 1)[0]
    commands = re.findall(r"```sh\n(.*?)```", setup, re.S)
    assert [c.strip() for c in commands] == [
        "pip install -e . && tessera new azul --seed 1 | tessera best - --iterations 20000",
        "bash .ci/run",
    ]


def test_the_documentation_index_names_every_document():
    linked = set(re.findall(r"\]\((docs/[^)#]+)\)", README))
    documents = {str(path.relative_to(REPO)) for path in (REPO / "docs").rglob("*") if path.suffix in (".md", ".json")}
    assert documents <= linked, sorted(documents - linked)


def test_every_link_of_the_readme_leads_to_a_file():
    links = re.findall(r"\]\(([^)#:]+)\)", README)
    assert links
    missing = sorted(link for link in links if not (REPO / link).exists())
    assert not missing, missing


def result(name):
    return json.loads(repo_text(f"results/{name}"))


def set_up_section():
    return README.split("## Set up", 1)[1].split("\n## ", 1)[0]


def test_the_set_up_figures_are_those_of_results():
    """The first answer, the warm one, the compile without the shipped kernels, the core
    install's size and the test command's time, as the README's set-up section gives them, are
    the figures of the files in results/ (each written by the command it records)."""
    text = " ".join(set_up_section().split())
    start = result("start.json")["figures"]
    installed_in = re.search(r"the set-up command above installs in ([0-9]+) s", text).group(1)
    assert installed_in == f"{start['readme_fresh_clone']['install_median_s']:.0f}"
    first, warm = re.search(r"answers in ([0-9.]+) s the first time and ([0-9.]+) s after", text).groups()
    assert first == f"{start['readme_fresh_clone']['median_s']:.1f}"
    assert warm == f"{start['readme_warm']['median_s']:.1f}"
    compiling = re.search(r"compiles the kernels it needs and caches them \(([0-9]+) s for this one\)", text)
    assert compiling.group(1) == f"{start['readme_compiling']['median_s']:.0f}"
    installed = re.search(r"([0-9]+) MB added to a fresh virtual environment", text).group(1)
    assert installed == f"{result('install.json')['installs']['core']['install_mb']:.0f}"
    minutes = re.search(r"`bash \.ci/run` takes ([0-9.]+) minutes on a clean clone", text).group(1)
    assert minutes == f"{result('ci.json')['wall_s'] / 60:.1f}"
