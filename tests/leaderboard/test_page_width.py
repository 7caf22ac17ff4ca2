"""The leaderboard page in headless Chromium at 1,000 px: the common signature once, rows flag only a
difference, one line per ranked row with its intervals, no horizontal scrolling, the paper's figures in a
titled table of their own below the ranking, with their notes. The screenshot stays in tmp_path."""
import json

import pytest

from idsbench.cli import main
from idsbench.leaderboard.browser import find_chromium
from tests.support.pages import WIDTH, browser_at, fresh, outside_requests
from tests.support.smalldata import write_data

pytestmark = pytest.mark.skipif(find_chromium() is None, reason="chromium is not installed")


def build_board(tmp_path):
    data = write_data(tmp_path / "data", copies=5)
    results = tmp_path / "results"
    for system in ("gold", "rule-based", "copy-previous"):
        assert main(["run", "--system", system, "--data", str(data), "--out", str(tmp_path / system),
                     "--no-progress"]) == 0
        assert main(["leaderboard", "results", str(tmp_path / system), "--out", str(results / f"{system}.json"),
                     "--resamples", "200"]) == 0
    flagged = json.loads((results / "copy-previous.json").read_text(encoding="utf-8"))
    flagged["signature"] += "|prompt:0123abcd"  # a model-specific part: ranked, and flagged
    (results / "copy-previous.json").write_text(json.dumps(flagged), encoding="utf-8")
    site = tmp_path / "site"
    assert main(["leaderboard", "build", str(results), "--out", str(site)]) == 0
    return site


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """One board (and the three runs behind it, each with its report.html) for the tests of this module."""
    folder = tmp_path_factory.mktemp("board")
    return folder, build_board(folder)


@pytest.fixture
def page():
    with browser_at(WIDTH) as browser:
        yield browser


def test_leaderboard_at_1000_px(page, built, tmp_path):
    fresh(page, built[1] / "index.html")
    assert page.evaluate("document.documentElement.scrollWidth") <= WIDTH  # no horizontal scrolling
    assert page.evaluate("[...document.querySelectorAll('#rows tr')].map(r => r.dataset.name)") == \
        ["gold", "rule-based", "copy-previous"]
    text = page.evaluate("document.body.innerText")
    assert text.count("ids_metric:") == 1  # the common signature, shown once
    flags = page.evaluate("[...document.querySelectorAll('#rows tr')].map(r => (r.querySelector('.flag') || {})"
                          ".textContent || '')")
    assert flags == ["", "", "prompt:0123abcd"]
    heights = page.evaluate("[...document.querySelectorAll('#rows tr')].map(r => r.getBoundingClientRect().height)")
    line = page.evaluate("parseFloat(getComputedStyle(document.querySelector('#rows td')).lineHeight) || 20")
    assert max(heights[:2]) < 1.5 * line + 12  # one line of text per ranked row (plus padding)
    assert heights[2] < 2.5 * line + 12  # the flag may take a second line
    assert page.evaluate("[...document.querySelectorAll('#rows .ci')].every(s => s.getClientRects().length === 1)")
    refs = page.evaluate("[...document.querySelectorAll('#refs tr')].map(r => r.getBoundingClientRect().height)")
    assert refs and max(refs) < 3 * line + 12  # reference names may wrap once; their notes sit under the table
    assert "FacetF1 84.8% multi-turn" in page.evaluate("document.querySelector('ol.refnotes').innerText")
    # the paper's figures: a table of their own, below the ranking, under a title and a sentence saying why
    assert page.evaluate("document.querySelectorAll('#board tr[data-reference]').length") == 0
    assert page.evaluate("document.getElementById('references').getBoundingClientRect().top > "
                         "document.getElementById('board').getBoundingClientRect().bottom")
    heading = page.evaluate("document.getElementById('references').previousElementSibling.previousElementSibling"
                            ".textContent")
    note = page.evaluate("document.getElementById('references').previousElementSibling.textContent")
    assert heading == "Reported in the paper, on other data" and "measured on the official release" in note
    shot = page.screenshot(tmp_path / "leaderboard-1000.png")
    assert shot.stat().st_size > 30_000
    assert page.console == [] and outside_requests(page) == []


SIGNATURE_LINES = """[...document.querySelectorAll('.sig')].map(sig => {
  const parts = [...sig.querySelectorAll('.part')];
  const line = Math.min(...parts.map(p => p.getBoundingClientRect().height));  // a part on one line
  return {text: sig.textContent, split: parts.filter(p => p.getBoundingClientRect().height > 1.5 * line).length,
          lines: new Set(parts.map(p => Math.round(p.getBoundingClientRect().top))).size,
          right: Math.max(...parts.map(p => p.getBoundingClientRect().right))};
})"""


def test_signatures_break_only_after_a_pipe_at_800_px(built):
    """At 800 px the signature takes several lines, each ending after a `|`, never inside a part (the old
    pages cut `audit:ids-tool-1.0.96` or a hash anywhere), and it stays within the window."""
    folder, site = built
    with browser_at(800) as page:
        for path in (site / "index.html", folder / "rule-based" / "report.html"):
            fresh(page, path)
            (signature,) = page.evaluate(SIGNATURE_LINES)
            assert signature["lines"] > 1 and signature["split"] == 0, (path.name, signature)
            assert signature["text"].startswith("ids_metric:") and "|audit:" in signature["text"]
            assert signature["right"] <= 800
