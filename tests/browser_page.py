"""Debian's headless chromium on the web board, for the board's browser tests: the marks
that skip them where chromium is missing, a browser for a test module (the ``browser``
fixture of conftest.py) and pages on the board that keep the page's script errors."""

from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.web_server import CHROMIUM, launch_chromium

needs_chromium = pytest.mark.skipif(
    not Path(CHROMIUM).exists(), reason="Debian's chromium is not installed (.ci/run installs it)"
)
BROWSER_MARKS = [pytest.mark.browser, needs_chromium]
BOARD_DRAWN_MS = 60_000


@contextmanager
def chromium(profile_dir):
    """Debian's chromium as a Playwright context with a fresh profile in ``profile_dir``
    (the test is skipped where Playwright is not installed)."""
    playwright_api = pytest.importorskip("playwright.sync_api")
    with playwright_api.sync_playwright() as playwright:
        context = launch_chromium(playwright, profile_dir)
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
