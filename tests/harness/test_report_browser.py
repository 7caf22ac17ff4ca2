"""A run's report.html in headless Chromium at 1,000 px: failure banner and summary on top, the paper table
with each interval on one line, charts per metadata group, codes with their meanings, an examples table
that filters and sorts inside a bounded box. The screenshot stays in tmp_path."""
import pytest

from idsbench.audit.rules import meaning
from idsbench.harness.html_report import write_report
from idsbench.leaderboard.browser import find_chromium
from idsbench.pipeline import score
from idsbench.records import load_references
from tests.support.pages import WIDTH, browser_at, fresh, outside_requests, set_control
from tests.support.smalldata import write_data

pytestmark = pytest.mark.skipif(find_chromium() is None, reason="chromium is not installed")
COPIES = 20  # 80 examples: enough for the page length to depend on the layout, not on the count


@pytest.fixture(scope="module")
def page():
    with browser_at(WIDTH) as browser:
        yield browser


def near_miss(gold: str) -> str:
    return gold.replace("IFCWALL", "IFCWALLS").replace("IFCDOOR<", "IFCDOORS<")  # 103: not an IFC class


def mixed_predictions(references):
    """A gold, a near miss (content error 103), a failed generation and a truncated output, in turn."""
    kinds = (lambda g: g, near_miss, lambda g: None, lambda g: g[:300])
    return [kinds[i % 4](r.gold) for i, r in enumerate(references)]


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    folder = tmp_path_factory.mktemp("report")
    references = load_references(write_data(folder / "data", copies=COPIES))
    raws = mixed_predictions(references)
    scores = score(raws, references)
    failed = [r.id for r, raw in zip(references, raws) if raw is None]
    summary = scores.summary(model="mixed", data={"n": len(references)},
                             generation={"failed_ids": failed, "first_error": {"id": failed[0], "error": "HTTP 500"}})
    rows = {i: {"error": "HTTP 500", "finish_reason": None} for i in failed}
    write_report(folder / "report.html", scores, summary, raws, rows)
    return folder / "report.html", scores, raws


def visible_ids(page):
    return page.evaluate("[...document.querySelectorAll('#examples tbody tr')].filter(r => !r.hidden)"
                         ".map(r => r.dataset.id)")


def test_run_report_top_table_charts_and_codes(page, report, tmp_path):
    path, scores, raws = report
    fresh(page, path)
    banner = page.evaluate("document.getElementById('failure-banner').innerText")
    first = next(r.id for r, raw in zip(scores.results, raws) if raw is None)
    assert f"{COPIES} of {4 * COPIES} generations failed (first: {first}: HTTP 500)" in banner
    outcomes = page.evaluate("document.getElementById('outcomes').innerText")
    assert f"{COPIES} failed generations" in outcomes and f"{COPIES} with a content error" in outcomes
    # the paper table: every value with its interval, on one line (all cells of a row as tall as the first)
    cells = page.evaluate("[...document.querySelectorAll('#scores td.n')].filter(td => td.querySelector('.ci'))"
                          ".map(td => [td.querySelector('.ci').getClientRects().length, td.innerText])")
    assert cells and all(lines == 1 and "–" in text for lines, text in cells)
    heights = page.evaluate("[...document.querySelectorAll('#scores tr')].filter(r => r.querySelector('td'))"
                            ".map(r => Math.round(r.getBoundingClientRect().height))")
    assert max(heights) <= 1.3 * min(heights)
    assert page.evaluate("[...document.querySelectorAll('svg.chart')].map(s => s.dataset.breakdown)") == \
        ["language", "input_format", "turn_type", "domain", "ifc_versions"]
    assert page.evaluate("document.querySelectorAll('svg.chart rect').length") >= 2 * (2 + 2 + 1 + 1 + 2)
    codes = page.evaluate("[...document.querySelectorAll('#codes tr')].slice(1).map(r => r.innerText)")
    assert any(row.startswith("103") and meaning(103) in row for row in codes)
    titles = page.evaluate("[...new Set([...document.querySelectorAll('#examples abbr')].map(a => a.title))]")
    assert meaning(103) in titles
    shot = page.screenshot(tmp_path / "report.png")
    assert shot.stat().st_size > 30_000
    # 80 examples, and still a page of bounded height: the examples scroll inside their box
    assert page.evaluate("document.documentElement.scrollHeight") < 4000
    assert page.evaluate("document.documentElement.scrollWidth") <= WIDTH
    assert page.console == [] and outside_requests(page) == []


def test_run_report_examples_filter_and_sort(page, report):
    path, scores, raws = report
    fresh(page, path)
    everything = [r.id for r in scores.results]
    assert visible_ids(page) == everything
    assert page.evaluate("document.getElementById('shown').textContent") == f"{len(everything)} of {len(everything)}"
    set_control(page, "status", "ok")
    assert visible_ids(page) == [r.id for r in scores.results if r.facets.f1 == 1.0 and r.verdict == (1, 1, 1)]
    set_control(page, "status", "")
    set_control(page, "group", "language=ja")
    assert visible_ids(page) == [i for i in everything if i.startswith(("t01-ja", "t02-ja"))]
    set_control(page, "group", "")
    set_control(page, "filter", "103")  # a code (or its meaning) finds the examples that have it
    assert visible_ids(page) == [r.id for r in scores.results if r.audit and 103 in r.audit.codes]
    set_control(page, "filter", "")
    f1 = "[...document.querySelectorAll('#examples tbody tr')].map(r => Number(r.cells[6].dataset.sort))"
    page.evaluate("document.querySelector('#examples th[data-key=\"6\"]').click()")
    assert page.evaluate(f1) == sorted(page.evaluate(f1), reverse=True)  # numbers sort high to low first
    page.evaluate("document.querySelector('#examples th[data-key=\"6\"]').click()")
    assert page.evaluate(f1) == sorted(page.evaluate(f1))
    assert page.console == []
