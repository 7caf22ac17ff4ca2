"""Behaviour in the pipeline, the evaluate function, the command line, the reports, the leaderboard and the
dataset gate: present only when asked for, and never changing the paper metrics."""
import json

from idsbench.behaviour import SIGNATURE
from idsbench.behaviour.gate import witness_problems
from idsbench.behaviour.result import BehaviourScore
from idsbench.cli import main
from idsbench.example import Reference
from idsbench.harness.html_report import render_report
from idsbench.leaderboard.board import board_metrics, comparable
from idsbench.leaderboard.results import build_results
from idsbench.metric import compute
from idsbench.pipeline import _unscored_behaviour, evaluate_one, score
from idsbench.report.aggregate import PAPER_METRICS
from tests.behaviour.golds import gold_text
from tests.behaviour.test_witnesses import CONTRADICTION

EXAMPLES = ["s012-en", "s081-en"]


def _golds():
    return [gold_text(e) for e in EXAMPLES]


def test_compute_adds_behaviour_only_when_asked_and_keeps_the_paper_metrics():
    golds = _golds()
    predictions = [golds[0], golds[1].replace('minOccurs="0" maxOccurs="0"', 'minOccurs="1" maxOccurs="unbounded"')]
    plain = compute(predictions, golds, return_per_example=True)
    with_behaviour = compute(predictions, golds, return_per_example=True, behaviour=True)
    assert "behaviour" not in plain and all("behaviour" not in row for row in plain["per_example"])
    assert [row["behaviour"] for row in with_behaviour["per_example"]][0] == 1.0
    assert with_behaviour["per_example"][1]["behaviour"] < 1.0
    assert with_behaviour["behaviour"] == sum(r["behaviour"] for r in with_behaviour["per_example"]) / 2
    assert with_behaviour["signature"] == plain["signature"] + "|" + SIGNATURE
    for key in ("processability", "structure", "content", "facet_f1", "facet_precision", "facet_recall", "ag_facet_f1"):
        assert with_behaviour[key] == plain[key]


def test_a_failed_generation_and_an_unfinished_example_score_zero_in_behaviour():
    reference = Reference("x", _golds()[0])
    assert evaluate_one(None, reference, behaviour=True).behaviour == BehaviourScore(0.0, reason="empty output")
    unfinished = _unscored_behaviour(evaluate_one("", reference))  # as a worker's timeout result

    assert unfinished.behaviour.value == 0.0 and unfinished.behaviour.reason


def test_table_and_report_show_behaviour_only_when_computed():
    golds = _golds()
    references = [Reference(e, g, {"language": "en"}) for e, g in zip(EXAMPLES, golds)]
    with_behaviour = score(golds, references, audit_profile=None, behaviour=True)
    plain = score(golds, references, audit_profile=None)
    assert "Behaviour" in with_behaviour.table() and "Behaviour" not in plain.table()
    assert with_behaviour.overall.behaviour == 1.0 and plain.overall.behaviour is None
    html = render_report(with_behaviour, with_behaviour.summary(), golds, {})
    assert "<th>Behaviour</th>" in html
    assert "<th>Behaviour</th>" not in render_report(plain, plain.summary(), golds, {})


def test_score_command_with_behaviour(tmp_path, capsys):
    golds = _golds()
    data = tmp_path / "test-all.jsonl"
    data.write_text("".join(json.dumps({"id": e, "gold_ids": g, "language": "en"}) + "\n"
                            for e, g in zip(EXAMPLES, golds)), encoding="utf-8")
    preds = tmp_path / "preds.jsonl"
    preds.write_text(json.dumps({"id": EXAMPLES[0], "prediction": golds[0]}) + "\n"
                     + json.dumps({"id": EXAMPLES[1], "prediction": "not an IDS"}) + "\n", encoding="utf-8")
    out = tmp_path / "out"
    assert main(["score", "--predictions", str(preds), "--data", str(data), "--out", str(out),
                 "--audit-profile", "none", "--no-progress", "--behaviour"]) == 0
    assert "Behaviour" in capsys.readouterr().out
    rows = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert [r["behaviour"] for r in rows] == [1.0, 0.0] and "unparsable" in rows[1]["behaviour_reason"]
    summary = json.loads((out / "summary.json").read_text())
    assert summary["overall"]["behaviour"] == 0.5 and summary["signature"].endswith(SIGNATURE)


def _rows(behaviour):
    base = {"language": "en", "processability": 1, "structure": 1, "content": 1, "precision": 1.0,
            "recall": 1.0, "f1": 1.0}
    return [{**base, "id": f"x{i}", **({"behaviour": value} if behaviour else {})}
            for i, value in enumerate((1.0, 0.5))]


def test_results_files_and_board_carry_behaviour_only_when_computed():
    signature = "ids_metric:0.1.0|audit:a|facets:paper|data:d|n:2"
    scored = build_results(_rows(True), name="a", scoring_signature=f"{signature}|{SIGNATURE}", provenance={})
    plain = build_results(_rows(False), name="b", scoring_signature=signature, provenance={})
    assert scored["overall"]["metrics"]["behaviour"]["value"] == 0.75
    assert "behaviour" not in plain["overall"]["metrics"]
    assert comparable(scored["signature"]) == comparable(plain["signature"])  # rank together
    assert board_metrics([plain]) == PAPER_METRICS and board_metrics([plain, scored]) == (*PAPER_METRICS, "behaviour")


def test_gate_reports_a_gold_that_fails_its_witnesses():
    problems, note = witness_problems({"ok": _golds()[0], "bad": CONTRADICTION})
    assert note.startswith("1/2 golds proven") and problems and all(p.startswith("bad: ") for p in problems)
