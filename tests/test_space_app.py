"""The metric Space (ids_metric/app.py): three examples to click (gold, near miss, broken output), the audit
codes' meanings in the details, no Flag button; served on 127.0.0.1 and used in headless Chromium."""
import os
import socket

import pytest

pytest.importorskip("gradio")
os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")

from ids_metric import app  # noqa: E402
from idsbench.audit.rules import meaning  # noqa: E402
from idsbench.leaderboard.browser import Chromium, find_chromium  # noqa: E402


def headline(text):
    return dict(line.strip().split(": ", 1) for line in text.splitlines() if not line.startswith("signature"))


def test_the_examples_score_as_their_labels_say():
    rows, labels = app.examples()
    assert labels == ["gold (scores 1)", "near miss", "broken output"]
    scores = {label: app.score_pair(*row) for label, row in zip(labels, rows)}
    assert headline(scores["gold (scores 1)"][0])["facet_f1"] == "1.0"
    near = scores["near miss"]
    assert headline(near[0])["content"] == "0.0" and 0 < float(headline(near[0])["facet_f1"]) < 1
    assert f'"103": "{meaning(103)}"' in near[1]
    assert headline(scores["broken output"][0])["processability"] == "0.0"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


BUTTONS = "[...document.querySelectorAll('button')].map(b => b.textContent.trim())"


def click_button(page, text):
    page.evaluate(f"[...document.querySelectorAll('button')].find(b => b.textContent.trim() === {text!r}).click()")


@pytest.mark.skipif(find_chromium() is None, reason="chromium is not installed")
def test_the_space_in_a_browser(tmp_path):
    demo, port = app.build_interface(), free_port()
    demo.launch(server_name="127.0.0.1", server_port=port, prevent_thread_lock=True, quiet=True)
    try:
        with Chromium(timeout=60) as page:
            page.open(f"http://127.0.0.1:{port}/")
            page.wait_for(f"{BUTTONS}.includes('near miss')", timeout=30)
            buttons = page.evaluate(BUTTONS)
            assert {"gold (scores 1)", "near miss", "broken output", "Submit"} <= set(buttons)
            assert not [b for b in buttons if "flag" in b.lower()]
            click_button(page, "near miss")
            page.wait_for("[...document.querySelectorAll('textarea')].some(t => t.value.includes('IFCDOORS'))")
            click_button(page, "Submit")
            page.wait_for("[...document.querySelectorAll('textarea')].some(t => t.value.includes('facet_f1'))",
                          timeout=60)
            details = page.wait_for("[...document.querySelectorAll('.cm-content')].map(c => c.innerText)"
                                    ".find(t => t.includes('audit_codes_explained'))", timeout=30)
            assert meaning(103) in " ".join(details.split())
            shot = page.screenshot(tmp_path / "space.png")
            assert shot.stat().st_size > 20_000
            assert page.console == []
            assert not [u for u in page.requests if not u.startswith(("data:", f"http://127.0.0.1:{port}/"))]
    finally:
        demo.close()
