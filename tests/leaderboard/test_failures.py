"""Failure analysis: audit tallies by group, and missed/spurious facet blocks that add up with the scorer."""
import json

import pytest

from idsbench.audit.rules import RULES
from idsbench.cli import main
from idsbench.extract import extract_candidate
from idsbench.facets.counts import score_documents
from idsbench.leaderboard.failures import diff_example, error_kind, failure_report, format_report, run_diffs
from idsbench.leaderboard.results import load_any
from tests.leaderboard.runs import add_attribute, drop_property, make_run, references, variant

KINDS = ["gold", "missing", "spurious", "not-xml", "none"]


@pytest.mark.parametrize("kind", KINDS)
def test_missed_and_spurious_add_up_to_the_scorer_counts(kind):
    for ref in references(12):
        raw = variant(kind, ref.gold)
        diff = diff_example(raw, ref.gold)
        score = score_documents(extract_candidate(raw) if raw else "", ref.gold)
        if score.error is None:
            assert sum(diff.missed.values()) == score.gold_total - score.matched
            assert sum(diff.spurious.values()) == score.pred_total - score.matched
        else:
            assert not diff.scored and not diff.spurious and sum(diff.missed.values()) > 0


def test_the_facet_types_are_named():
    ref = references(1)[0]
    assert diff_example(drop_property(ref.gold), ref.gold).missed == {("requirements", "property"): 1}
    assert diff_example(add_attribute(ref.gold), ref.gold).spurious == {("requirements", "attribute"): 1}
    fenced = f"<think>hm</think>```xml\n{ref.gold}\n```"
    assert diff_example(fenced, ref.gold).missed == {} and diff_example(fenced, ref.gold).spurious == {}


def test_error_kinds_drop_the_details():
    assert error_kind("prediction: not well-formed XML: syntax error: line 1, column 0") == \
        "prediction: not well-formed XML"
    assert error_kind("empty output") == "empty output" and error_kind(None) is None


def test_report_tallies_statuses_codes_and_facets_per_group(tmp_path):
    folder = make_run(tmp_path / "run", references(20), KINDS)
    loaded = load_any(folder)
    report = failure_report("run", loaded.rows, run_diffs(folder / "predictions.jsonl", ids=[r["id"] for r in loaded.rows]))
    overall = report.overall
    assert overall.n == 20 and dict(overall.statuses) == {"Ok": 8, "IdsContentError": 4, "NotImplementedError": 4,
                                                          "EmptyOutput": 4}
    assert dict(overall.codes)[201] == 4 and overall.codes[0] == (201, 4)
    assert ("requirements", "attribute") in dict(overall.spurious)
    assert dict(overall.errors) == {"empty output": 4, "prediction: not well-formed XML": 4}
    by_language = report.groups["language"]
    assert sum(g.n for g in by_language.values()) == 20
    assert sum(dict(g.statuses).get("Ok", 0) for g in by_language.values()) == 8
    text = format_report(report)
    assert "audit codes" in text and f"201 ({RULES[201].meaning})" in text and "requirements/property" in text
    assert "by domain:" in text and report.to_json()["overall"]["codes"][0]["meaning"] == RULES[201].meaning


def test_failures_cli(tmp_path, capsys):
    folder = make_run(tmp_path / "run", references(10), KINDS)
    assert main(["failures", str(folder)]) == 0
    assert "facet blocks most often missed" in capsys.readouterr().out
    assert main(["failures", str(folder), "--json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["overall"]["facets"]["missed"][0]["count"] > 0 and "turn_type" in document["breakdowns"]
    (folder / "predictions.jsonl").unlink()
    assert main(["failures", str(folder)]) == 0
    assert "not computed" in capsys.readouterr().out
