"""The two HTML pages in headless Chromium, at 1,000 px: a run's report.html (failure summary and banners on
top, the paper table with intervals on one line, charts per metadata group, codes with their meanings, an
examples table that filters and sorts inside a bounded box) and the leaderboard (the signature once, rows
flag only a difference, one line per ranked row, no horizontal scrolling). Screenshots stay in tmp_path."""
import json

import pytest

from idsbench.audit.rules import meaning
from idsbench.cli import main
from idsbench.harness.html_report import write_report
from idsbench.leaderboard.browser import Chromium, find_chromium
from idsbench.pipeline import score
from idsbench.records import load_references
from smalldata import GOLD, write_data

pytestmark = pytest.mark.skipif(find_chromium() is None, reason="chromium is not installed")
WIDTH = 1000
COPIES = 20  # 80 examples: enough for the page length to depend on the layout, not on the count


@pytest.fixture(scope="module")
def page():
    with Chromium() as browser:
        browser.viewport(WIDTH)
        yield browser


def fresh(page, path):
    page.console.clear()
    page.requests.clear()
    page.open(path)
    page.wait_for("document.body.dataset.ready === 'true'")


def outside_requests(page):
    return [u for u in page.requests if not u.startswith(("file://", "data:", "about:"))]


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


def set_control(page, element, value):
    page.evaluate(f"(() => {{ const e = document.getElementById({element!r}); e.value = {json.dumps(value)};"
                  " e.dispatchEvent(new Event('input')); })()")


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


def test_leaderboard_at_1000_px(page, tmp_path, capsys):
    site = build_board(tmp_path)
    capsys.readouterr()
    fresh(page, site / "index.html")
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
    shot = page.screenshot(tmp_path / "leaderboard-1000.png")
    assert shot.stat().st_size > 30_000
    assert page.console == [] and outside_requests(page) == []
