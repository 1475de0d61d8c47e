"""The board's comfort in a real browser (Debian's headless chromium against a real `tessera
serve`): light and dark themes following the system, the keyboard shortcuts the page lists
each doing what the list says, and a narrow window without horizontal scrolling.
`TESSERA_SCREENSHOTS=1` writes docs/web-dark.png (the dark theme)."""

import os
from pathlib import Path

import pytest

from tests.browser_page import BROWSER_MARKS, colour, contrast, luminance

playwright_api = pytest.importorskip("playwright.sync_api")

DOCS = Path(__file__).resolve().parents[1] / "docs"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
WAIT_MS = 60_000
NARROW = 400

pytestmark = BROWSER_MARKS


def save_screenshot(page, name):
    """The page as a PNG, into docs/``name`` when TESSERA_SCREENSHOTS is set."""
    image = page.screenshot(full_page=True)
    assert image.startswith(PNG_SIGNATURE)
    if os.environ.get("TESSERA_SCREENSHOTS"):
        DOCS.joinpath(name).write_bytes(image)


def test_the_theme_follows_the_system_and_both_read(page):
    looks = {}
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        looks[scheme] = {
            "page": colour(page, "body", "backgroundColor"),
            "ink": colour(page, "body", "color"),
            "panel": colour(page, "aside section", "backgroundColor"),
            "board": colour(page, "#board", "backgroundColor"),
        }
    light, dark = looks["light"], looks["dark"]
    assert light["page"] != dark["page"]
    assert luminance(dark["page"]) < 0.05 < 0.8 < luminance(light["page"])
    for look in (light, dark):
        assert contrast(look["ink"], look["page"]) >= 7  # text on the page
        assert contrast(look["ink"], look["panel"]) >= 7  # text in the side panels
        # The board's drawings carry their own dark ink and colours: it stays light.
        assert luminance(look["board"]) > 0.7
    page.wait_for_selector("#warmup", state="hidden", timeout=WAIT_MS)  # every game loaded
    save_screenshot(page, "web-dark.png")
    page.emulate_media(color_scheme="light")


def play_moves(page, count):
    for played in range(count):
        page.locator("#moves button").first.click()
        page.wait_for_function(f"ui.index === {played + 1} && current().doc", timeout=WAIT_MS)


def test_every_listed_key_does_what_the_list_says(page):
    """Each shortcut the Keys panel lists, pressed, and its effect seen on the page."""
    page.keyboard.press("?")
    assert page.locator("#keys-panel").is_visible()
    listed = page.eval_on_selector_all("#keys-panel kbd", "(keys) => keys.map((k) => k.dataset.key)")
    said = dict(
        zip(
            page.eval_on_selector_all("#keys-panel kbd", "(keys) => keys.map((k) => k.textContent)"),
            page.eval_on_selector_all("#keys-panel dd", "(items) => items.map((i) => i.textContent)"),
        )
    )
    assert said["←"].startswith("back one move") and said["Home"] == "the game's first position"
    play_moves(page, 3)

    def index_after(key):
        page.keyboard.press(key)
        return page.evaluate("ui.index")

    def arrows():
        assert index_after("ArrowLeft") == 2
        assert index_after("ArrowRight") == 3

    def home_end():
        assert index_after("Home") == 0
        page.wait_for_function("ui.index === 0 && current().doc")
        assert index_after("End") == 3

    def analysis():
        page.keyboard.press("a")
        page.wait_for_selector("#analysis tbody tr", timeout=WAIT_MS)
        assert page.inner_text("#analyse") == "Stop"
        page.keyboard.press("a")
        page.wait_for_function("document.getElementById('analyse').textContent === 'Start'")
        assert page.inner_text("#analysis-state") == "stopped"

    def copy():
        page.keyboard.press("c")
        page.wait_for_function("document.getElementById('position-text').value === current().doc.text")

    def panel():
        page.keyboard.press("Escape")
        assert page.locator("#keys-panel").is_hidden()
        page.keyboard.press("?")
        assert page.locator("#keys-panel").is_visible()
        page.keyboard.press("?")
        assert page.locator("#keys-panel").is_hidden()

    checks = {
        "ArrowLeft": arrows,
        "ArrowRight": arrows,
        "Home": home_end,
        "End": home_end,
        "a": analysis,
        "c": copy,
        "Escape": panel,
        "?": panel,
    }
    assert set(listed) == set(checks), "a listed key without a check here, or the reverse"
    for check in dict.fromkeys(checks[key] for key in listed):
        check()
    # A key typed into a field is the field's.
    page.click("#seed")
    page.keyboard.press("End")
    page.keyboard.press("a")
    assert page.evaluate("ui.index") == 3 and page.inner_text("#analyse") == "Start"


def test_a_narrow_window_does_not_scroll_sideways(page):
    page.set_viewport_size({"width": NARROW, "height": 800})
    page.wait_for_function("document.getElementById('board').getAttribute('viewBox').startsWith('0 0 500 ')")
    play_moves(page, 1)
    page.fill("#analysis-seconds", "1")
    page.click("#analyse")
    page.wait_for_selector("#analysis tbody tr", timeout=WAIT_MS)
    page.click("#keys-button")
    widths = page.evaluate(
        "({scroll: document.documentElement.scrollWidth, view: document.documentElement.clientWidth})"
    )
    wide = page.evaluate(
        """(view) => [...document.querySelectorAll('body *')]
        .filter((node) => node.getClientRects().length && node.getBoundingClientRect().right > view + 0.5)
        .map((node) => node.id || node.tagName)""",
        widths["view"],
    )
    assert widths["scroll"] <= widths["view"], f"wider than the window: {wide}"
    assert wide == []
    # The header's controls wrap onto more rows instead.
    tops = page.eval_on_selector_all(
        "header button, header select", "(nodes) => nodes.map((n) => n.getBoundingClientRect().top)"
    )
    assert len(set(round(top) for top in tops)) > 1
    page.set_viewport_size({"width": 1400, "height": 1000})
