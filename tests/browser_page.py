"""Debian's build of Chromium's headless shell on the web board, for the board's browser
tests: the marks that skip them where it is missing, one browser a test process with a
fresh profile (context) for each test module (the ``browser`` fixture of conftest.py), and
pages on the board that keep the page's script errors."""

import re
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
# The colour scheme a page of each size asks for: between the two sizes, each point a test
# makes about the board is made in the light theme and in the dark one.
SCHEMES = {"desktop": "light", "phone": "dark"}
# The least contrast of text on its background (WCAG's AA for normal text).
READABLE = 4.5
TAP_PX = 40  # the least width and height of a control or piece a player taps on a phone


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


def open_board(browser, url, size="desktop", scheme=None):
    """A new page of ``browser`` at ``size`` (``size_page``) on ``url`` once the board is
    drawn, the script errors it raises collected in ``page.errors``."""
    page = browser.new_page()
    size_page(page, size, scheme)
    page.errors = []
    page.on("pageerror", lambda err: page.errors.append(str(err)))
    page.goto(url)
    page.wait_for_selector("#board [data-pick]", timeout=BOARD_DRAWN_MS)
    return page


def new_game(page, game, seed=1):
    """A new game of ``game`` started from the header (its seed typed), once it is shown."""
    page.select_option("#game", game)
    page.fill("#seed", str(seed))
    page.click("#new")
    page.wait_for_function(f"current().doc.game === '{game}' && ui.history.length === 1", timeout=BOARD_DRAWN_MS)


@contextmanager
def error_free(page):
    """``page`` for the time of a test: closed after it, which fails if the page raised a
    script error."""
    yield page
    page.close()
    assert not page.errors, page.errors


def size_page(page, size, scheme=None):
    """Give ``page`` the viewport of ``size`` (a key of SIZES) and the colour scheme
    ``scheme``, by default the size's (SCHEMES)."""
    page.set_viewport_size(SIZES[size])
    page.emulate_media(color_scheme=scheme or SCHEMES[size])


def colour(page, selector, prop):
    """The computed colour ``prop`` of ``selector`` as (r, g, b)."""
    text = page.eval_on_selector(selector, f"(node) => getComputedStyle(node)['{prop}']")
    return tuple(int(part) for part in re.findall(r"\d+", text)[:3])


def luminance(rgb):
    """WCAG's relative luminance of an sRGB colour."""

    def linear(channel):
        c = channel / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = map(linear, rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(first, second):
    """WCAG's contrast ratio of two colours (1 to 21)."""
    light, dark = sorted((luminance(first), luminance(second)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def text_contrast(page, selector):
    """The contrast of the text of the first visible ``selector`` with the background it is
    drawn on: the nearest of it and its ancestors' backgrounds that is not transparent."""
    ink, ground = page.evaluate(
        r"""(selector) => {
            const node = [...document.querySelectorAll(selector)].find((n) => n.getClientRects().length);
            let under = node;
            while (under && /rgba\(.*, 0\)$|transparent/.test(getComputedStyle(under).backgroundColor)) {
                under = under.parentElement;
            }
            const ground = under ? getComputedStyle(under).backgroundColor : "rgb(255, 255, 255)";
            return [getComputedStyle(node).color, ground];
        }""",
        selector,
    )
    ink, ground = (tuple(int(part) for part in re.findall(r"\d+", text)[:3]) for text in (ink, ground))
    return contrast(ink, ground)
