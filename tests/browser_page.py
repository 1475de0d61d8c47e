"""Debian's build of Chromium's headless shell on the web board, for the board's browser
tests: the marks that skip them where it is missing, one browser a test process with a
fresh profile (context) for each test module (the ``browser`` fixture of conftest.py), and
pages on the board that keep the page's script errors."""

from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.web_server import HEADLESS_SHELL, launch_headless_shell

needs_chromium = pytest.mark.skipif(
    not Path(HEADLESS_SHELL).exists(), reason="Debian's chromium-headless-shell is not installed (.ci/run installs it)"
)
BROWSER_MARKS = [pytest.mark.browser, needs_chromium]
BOARD_DRAWN_MS = 60_000
DESKTOP = {"width": 1400, "height": 1000}
# The viewports the board is tried at: a desktop's (mouse) and a phone's (touch).
SIZES = {"desktop": DESKTOP, "phone": {"width": 390, "height": 844}}


@contextmanager
def chromium():
    """Chromium's headless shell as a Playwright browser (the test is skipped where
    Playwright is not installed)."""
    playwright_api = pytest.importorskip("playwright.sync_api")
    with playwright_api.sync_playwright() as playwright:
        browser = launch_headless_shell(playwright)
        yield browser
        browser.close()


@contextmanager
def fresh_profile(browser):
    """A context of ``browser`` with a profile of its own (no storage, cookies or cache
    shared with another), its pages at a desktop size."""
    context = browser.new_context(viewport=DESKTOP)
    yield context
    context.close()


def open_board(browser, url):
    """A new page of ``browser`` on ``url`` once the board is drawn, the script errors it
    raises collected in ``page.errors``."""
    page = browser.new_page()
    page.errors = []
    page.on("pageerror", lambda err: page.errors.append(str(err)))
    page.goto(url)
    page.wait_for_selector("#board [data-pick]", timeout=BOARD_DRAWN_MS)
    return page


@contextmanager
def error_free(page):
    """``page`` for the time of a test: closed after it, which fails if the page raised a
    script error."""
    yield page
    page.close()
    assert not page.errors, page.errors
