"""The test tiers (tests/README.md): ``python -m pytest --quick`` leaves out the tests
carrying a marker of ``QUICK_LEAVES_OUT``, as the default run leaves out ``slow``, and a
slow test has an hour before it counts as hung. And the browser tests' fixtures: one
chromium a test process, a fresh profile of it a module, a board server a test process
(unless a module serves its own), a page on the module's ``server``."""

import pytest

from tests import tiers
from tests.browser_page import chromium, error_free, fresh_profile, open_board
from tests.web_server import running_server

# Markers (pyproject.toml lists them) of the tests the quick tier does not run.
QUICK_LEAVES_OUT = ("browser", "packaging", "cold", "long")
# Seconds before a slow test counts as hung (the others: `timeout` in pyproject.toml).
SLOW_TIMEOUT = 3600


def pytest_addoption(parser):
    parser.addoption(
        "--quick",
        action="store_true",
        help="the quick tier: leave out the tests marked " + ", ".join(QUICK_LEAVES_OUT) + " (tests/README.md)",
    )


def pytest_configure(config):
    # Before the test modules are imported: the checks of random games read it (tests/tiers.py).
    tiers.QUICK = config.getoption("--quick")


# Markers of the tests that take a second or more (those the quick tier leaves out): their
# modules start first (``costly_first``).
COSTLY = QUICK_LEAVES_OUT


def pytest_collection_modifyitems(config, items):
    for item in items:
        if item.get_closest_marker("slow") and not item.get_closest_marker("timeout"):
            item.add_marker(pytest.mark.timeout(SLOW_TIMEOUT))
    costly_first(items)
    if not config.getoption("--quick"):
        return
    kept, left_out = [], []
    for item in items:
        marked = any(item.get_closest_marker(name) for name in QUICK_LEAVES_OUT)
        (left_out if marked else kept).append(item)
    if left_out:
        config.hook.pytest_deselected(items=left_out)
        items[:] = kept


@pytest.fixture(scope="session")
def chromium_browser():
    """Chromium's headless shell, started once in a test process (tests/browser_page.py)."""
    with chromium() as browser:
        yield browser


@pytest.fixture(scope="module")
def browser(chromium_browser):
    """A fresh profile of the test process's chromium for a test module: its pages share
    storage with each other, with no other module's."""
    with fresh_profile(chromium_browser) as context:
        yield context


@pytest.fixture(scope="session")
def board_server():
    """A real `tessera serve` with its default options, started once in a test process."""
    with running_server() as (url, _):
        yield url


@pytest.fixture(scope="module")
def server(board_server):
    """The URL of the board a module's pages open: the test process's ``board_server``,
    unless the module defines a ``server`` of its own (a server with options of its own)."""
    return board_server


@pytest.fixture
def page(browser, server):
    """A page on the board that the module's ``server`` fixture serves, failing the test if
    it raises a script error."""
    with error_free(open_board(browser, server)) as page:
        yield page


def costly_first(items):
    """Order the modules holding a test marked ``COSTLY`` before the others, each module's
    tests kept together and in order. The workers take modules in this order
    (``--dist loadscope``), so the last to be handed out are short and the workers end
    together, instead of one running a long module while the other waits."""
    module = {item: item.nodeid.split("::")[0] for item in items}
    costly = {module[item] for item in items if any(item.get_closest_marker(name) for name in COSTLY)}
    position = {}
    for item in items:
        position.setdefault(module[item], len(position))
    items.sort(key=lambda item: (module[item] not in costly, position[module[item]]))
