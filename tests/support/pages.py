"""Helpers of the browser tests of the HTML pages (headless Chromium, idsbench.leaderboard.browser)."""
import json
from contextlib import contextmanager

from idsbench.leaderboard.browser import Chromium

WIDTH = 1000  # the width the pages must read at


@contextmanager
def browser_at(width: int = WIDTH):
    with Chromium() as page:
        page.viewport(width)
        yield page


def fresh(page, path):
    """Open a page with a clean console and request log, and wait for its script to finish."""
    page.console.clear()
    page.requests.clear()
    page.open(path)
    page.wait_for("document.body.dataset.ready === 'true'")


def outside_requests(page):
    return [u for u in page.requests if not u.startswith(("file://", "data:", "about:"))]


def set_control(page, element, value):
    """Set an input or select and fire its input event, as typing or choosing does."""
    page.evaluate(f"(() => {{ const e = document.getElementById({element!r}); e.value = {json.dumps(value)};"
                  " e.dispatchEvent(new Event('input')); })()")
