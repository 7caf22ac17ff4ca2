"""Repair protocols (validator in the loop) against a model that behaves like one (tests/support/
repairing_model.py): the findings sent hold nothing of the gold, rounds stop at Ok or N, the model fixes
exactly what it was sent, a resumed run continues at the round it reached, and round 0 scores what the
zero-shot protocol scores on the same outputs."""
import json

import pytest

from idsbench.audit.rules import meaning
from idsbench.cli import main
from idsbench.example import Reference
from idsbench.harness.conversation import Plan
from idsbench.harness.examples import load_examples
from idsbench.harness.feedback import load_feedback, render
from idsbench.harness.generate import generate
from idsbench.harness.journal import journal_path
from idsbench.harness.predictions import Generation
from idsbench.harness.protocol import PROTOCOLS, load_protocol, resolve
from idsbench.harness.review import Review, review
from idsbench.harness.systems import System
from idsbench.pipeline import evaluate_one, make_auditor
from idsbench.synthetic.corpus import synthetic_corpus
from idsbench.synthetic.documents import entity, ids, prop, spec
from tests.harness.records import DOORS_GOLD, FIXTURE, WALLS_GOLD, record, write_dataset
from tests.support.repairing_model import answering, conversation_key, fenced, lower_entities

PROSE = "I cannot write IDS files, sorry."
TWO_WRONG = ids(spec([entity("ifcwall")], [prop("Pset_WallCommon", "FireRating")], name="Walls"),
                spec([entity("ifcdoor")], [prop("Pset_DoorCommon", "FireRating")], name="Doors"))


def first_answers(records, special=None):
    """Each record's gold with its entity names in lower case (103 on each), or a given answer."""
    special = special or {}
    return {conversation_key(r["messages"][:-1]): special.get(r["id"], fenced(lower_entities(r["gold_ids"])))
            for r in records}


def serve(standin, answers):
    model = answering(answers)
    standin.default_answer = lambda request: model(request["messages"])


def run_cli(*argv):
    return main([*map(str, argv), "--no-progress"])


def run_endpoint(standin, data, out, protocol="repair-3", *extra):
    return run_cli("run", "--protocol", protocol, "--model", "m", "--base-url", standin.url, "--api-key-env", "none",
                   "--data", data, "--out", out, *extra)


def rows_of(path):
    return {r["id"]: r for r in map(json.loads, path.read_text(encoding="utf-8").splitlines())}


def summary_of(out):
    return json.loads((out / "summary.json").read_text(encoding="utf-8"))


def test_rounds_stop_at_ok_or_after_n_and_each_is_recorded(tmp_path, standin):
    data = write_dataset(tmp_path / "data")
    serve(standin, first_answers(FIXTURE, {"fx2-en": PROSE, "fx1-ja": fenced(WALLS_GOLD)}))
    out = tmp_path / "run"
    assert run_endpoint(standin, data, out) == 0
    rows = rows_of(out / "predictions.jsonl")
    assert [len(rows[i]["rounds"]) for i in ("fx1-en", "fx1-ja", "fx2-en")] == [2, 1, 4]  # fixed; Ok at once; never
    prose = rows["fx2-en"]["rounds"]
    assert all(r["feedback"].startswith("No IDS document found in your answer: the validator says") for r in prose[:3])
    assert prose[3]["feedback"] is None and prose[3]["audit"]["status_text"] == "NotImplementedError"
    fixed = rows["fx1-en"]["rounds"]
    assert fixed[0]["audit"]["codes"] == [103] and fixed[1]["audit"] == {"status": 0, "status_text": "Ok", "codes": []}
    assert [f["code"] for f in fixed[0]["findings_sent"]] == [103] and fixed[1]["findings_sent"] == []
    assert rows["fx1-en"]["prediction"] == fixed[1]["prediction"]  # the last round is the example's answer
    assert rows["fx1-en"]["usage"]["total_tokens"] == 2 * 18 and rows["fx1-en"]["attempts"] == 2
    assert all({"latency_s", "usage", "finish_reason", "attempts"} <= set(r) for r in fixed)
    assert len(standin.requests) == sum(len(r["rounds"]) for r in rows.values()) == 2 + 1 + 4 + 2 + 2
    assert not journal_path(out / "predictions.jsonl").exists()


def test_the_feedback_holds_nothing_of_the_gold(tmp_path, standin):
    """The same answers under two data sets whose golds differ: every request is the same."""
    other = [{**r, "messages": [*r["messages"][:-1], {"role": "assistant", "content": DOORS_GOLD}],
              "gold_ids": DOORS_GOLD} for r in FIXTURE]
    sent = []
    for name, records in (("walls", FIXTURE), ("doors", other)):
        serve(standin, first_answers(records, {r["id"]: fenced(lower_entities(g["gold_ids"]))
                                               for r, g in zip(records, FIXTURE)}))
        standin.requests.clear()
        assert run_endpoint(standin, write_dataset(tmp_path / name, records), tmp_path / f"out-{name}") == 0
        sent.append(sorted(json.dumps(r["messages"], ensure_ascii=False) for r in standin.requests))
    assert sent[0] == sent[1] and len(sent[0]) == 2 * len(FIXTURE)
    feedback = [json.loads(m)[-1]["content"] for m in sent[1] if len(json.loads(m)) > 3]
    assert feedback and not any("Pset_DoorCommon" in text or "IFCDOOR" in text for text in feedback)


def test_the_model_fixes_exactly_the_findings_sent(tmp_path, standin):
    """A template that lists one finding at a time: two wrong entities take two repairs."""
    template = json.loads((PROTOCOLS.parent / "prompts" / "repair-feedback-v1.json").read_text(encoding="utf-8"))
    (tmp_path / "one-at-a-time.json").write_text(json.dumps({**template, "max_findings": 1}), encoding="utf-8")
    protocol = json.loads((PROTOCOLS / "repair-3.json").read_text(encoding="utf-8"))
    protocol["repair"]["feedback"] = "one-at-a-time.json"  # beside the protocol file
    (tmp_path / "repair-one.json").write_text(json.dumps({**protocol, "name": "repair-one"}), encoding="utf-8")
    records = [record("fx9-en", [{"role": "user", "content": "Walls and doors [fx9]"},
                                 {"role": "assistant", "content": TWO_WRONG.upper()}])]
    serve(standin, first_answers(records, {"fx9-en": fenced(TWO_WRONG)}))
    out = tmp_path / "run"
    assert run_endpoint(standin, write_dataset(tmp_path / "data", records), out, tmp_path / "repair-one.json") == 0
    rounds = rows_of(out / "predictions.jsonl")["fx9-en"]["rounds"]
    assert [len(r["findings_sent"]) for r in rounds] == [1, 1, 0]
    assert [r["audit"]["status_text"] for r in rounds] == ["IdsContentError", "IdsContentError", "Ok"]
    assert "2 finding(s)" in rounds[0]["feedback"] and "- ... and 1 more finding(s) not shown" in rounds[0]["feedback"]
    assert rounds[0]["findings_sent"][0]["line"] != rounds[1]["findings_sent"][0]["line"]


def scripted_system(answers, calls, interrupt_at=None):
    """The repairing model in-process; Ctrl-C arrives during call number `interrupt_at`."""
    model = answering(answers)

    def call(example):
        calls.append((example.id, sum(m["role"] == "assistant" for m in example.messages)))
        if len(calls) == interrupt_at:
            raise KeyboardInterrupt
        return Generation(model(list(example.messages)), "stop")

    return System("scripted", call, {"model": "scripted"})


def test_an_interrupted_run_resumes_at_the_round_it_reached(tmp_path):
    examples = load_examples(write_dataset(tmp_path / "data"))
    plan = Plan(load_protocol("repair-3").repair)
    answers = first_answers(FIXTURE, {"fx2-en": PROSE})
    path, first, second = tmp_path / "predictions.jsonl", [], []
    with pytest.raises(KeyboardInterrupt):
        generate(examples, scripted_system(answers, first, interrupt_at=8), path, plan=plan, progress=False)
    assert journal_path(path).exists()
    answered = first[:7]  # the 8th was interrupted (a call the abandoned worker started after it is lost too)
    report = generate(examples, scripted_system(answers, second), path, plan=plan, progress=False)
    assert not set(answered) & set(second) and len(second) == len(set(second))  # nothing asked twice
    assert first[7] in second
    rows = rows_of(path)
    assert report.written + report.skipped == len(FIXTURE) == len(rows)
    assert len(rows["fx2-en"]["rounds"]) == 4 and all(len(rows[i]["rounds"]) == 2 for i in rows if i != "fx2-en")
    assert len(answered) + len(second) == sum(len(r["rounds"]) for r in rows.values())
    assert not journal_path(path).exists()


def test_a_failed_round_ends_the_example_and_retry_failed_resumes_it_there(tmp_path, standin):
    from tests.support.openai_standin import Reply

    data = write_dataset(tmp_path / "data", FIXTURE[:1])
    serve(standin, first_answers(FIXTURE[:1]))
    standin.script("Correct these problems", Reply(status=400))
    out = tmp_path / "run"
    assert run_endpoint(standin, data, out, "repair-3", "--allow-failures") == 0
    row = rows_of(out / "predictions.jsonl")["fx1-en"]
    assert row["prediction"] is None and [r["prediction"] is None for r in row["rounds"]] == [False, True]
    standin.requests.clear()
    assert run_endpoint(standin, data, out, "repair-3", "--retry-failed") == 0
    assert len(standin.requests) == 1 and len(standin.requests[0]["messages"]) == 4  # round 1 again, not round 0
    assert summary_of(out)["overall"]["content"] == 1.0


def test_round_zero_is_the_zero_shot_protocols_score(tmp_path, standin, capsys):
    data = write_dataset(tmp_path / "data")
    serve(standin, first_answers(FIXTURE, {"fx2-en": PROSE, "fx1-ja": fenced(WALLS_GOLD)}))
    assert run_endpoint(standin, data, tmp_path / "repair") == 0
    assert "repair rounds (repair-3)" in capsys.readouterr().out
    assert run_endpoint(standin, data, tmp_path / "zero", "ishigaki-detailed-v1") == 0
    repair, zero = summary_of(tmp_path / "repair"), summary_of(tmp_path / "zero")
    assert repair["rounds"][0]["overall"] == zero["overall"]
    assert repair["rounds"][-1]["overall"] == repair["overall"] and repair["rounds"][0]["overall"] != repair["overall"]
    assert [r["answered"] for r in repair["rounds"]] == [5, 4, 1, 1]
    assert repair["signature"] == zero["signature"].replace("ishigaki-detailed-v1", "repair-3")
    firsts = {i: r["rounds"][0]["prediction"] for i, r in rows_of(tmp_path / "repair" / "predictions.jsonl").items()}
    assert firsts == {i: r["prediction"] for i, r in rows_of(tmp_path / "zero" / "predictions.jsonl").items()}
    assert run_cli("score", "--predictions", tmp_path / "repair" / "predictions.jsonl", "--data", data,
                   "--out", tmp_path / "scored") == 0  # the file scores as the run's last round
    scored = summary_of(tmp_path / "scored")
    assert scored["overall"] == repair["overall"]
    assert [r["overall"] for r in scored["rounds"]] == [r["overall"] for r in repair["rounds"]]  # every round re-scored
    html = (tmp_path / "repair" / "report.html").read_text(encoding="utf-8")
    assert '<table id="rounds">' in html and 'data-breakdown="round"' in html and "FacetF1 and Content per repair round" in html


def test_an_answer_passes_exactly_when_its_content_verdict_is_1():
    golds = [r["gold_ids"] for r in FIXTURE]
    auditor = make_auditor()
    for output in synthetic_corpus(golds):
        found = review(output.text, "ids-tool-1.0.96")
        scored = evaluate_one(output.text, Reference("x", golds[output.gold_index]), auditor)
        assert found.ok == (scored.verdict[2] == 1), output.variant
        assert found.codes() == list(scored.audit.codes), output.variant


def test_an_answer_the_audit_cannot_read_is_fed_back_not_raised(monkeypatch):
    def unreadable(*args, **kwargs):
        raise LookupError("unknown encoding: x")

    monkeypatch.setattr("idsbench.harness.review.run_audit", unreadable)
    found = review(fenced(WALLS_GOLD), "ids-tool-1.0.96")
    assert not found.ok and found.not_ids and found.status_text == "UnscorableOutput"
    assert render(load_feedback("repair-feedback-v1"), found, "P").startswith(
        'No IDS document found in your answer: the validator says "LookupError: unknown encoding: x"')


@pytest.mark.parametrize("found, first_line", [
    (Review(None), "No IDS document found in your answer: there is nothing left once <think> blocks are removed."),
    (review("just prose", "ids-tool-1.0.96"), 'No IDS document found in your answer: the validator says "Unhandled'),
    (review(fenced(TWO_WRONG), "ids-tool-1.0.96"), "The IDS validator (P) does not accept the IDS in your answer: "
                                                   "status IdsContentError, 2 finding(s)."),
])
def test_feedback_texts(found, first_line):
    text = render(load_feedback("repair-feedback-v1"), found, "P")
    assert text.startswith(first_line) and text.endswith("in the format asked for at the start of this conversation.")
    if found.findings and not found.not_ids:
        assert f"- 103 ({meaning(103)}) at line 6, column " in text


def test_repair_protocols_take_their_base_settings_and_never_claim_the_paper(tmp_path):
    for name, base in (("repair-3", "ishigaki-detailed-v1"), ("paper-repair-3", "paper-0shot"),
                       ("fewshot-3", "ishigaki-detailed-v1"), ("paper-fewshot-3", "paper-0shot")):
        derived, original = load_protocol(name), load_protocol(base)
        assert (derived.prompt, derived.sampling, derived.thinking, derived.retries) == \
            (original.prompt, original.sampling, original.thinking, original.retries)
        assert not derived.paper and derived.base == base and derived.file_sha256 != original.file_sha256
    assert resolve(load_protocol("repair-3")).to_json()["repair"]["rounds"] == 3
    doc = json.loads((PROTOCOLS / "repair-3.json").read_text(encoding="utf-8"))
    for edit, message in ((dict(paper=True), "only for the paper's zero-shot"), (dict(repair={"rounds": 10}), "1 to 9"),
                          (dict(tries=2), "unknown keys"), (dict(base="repair-3"), "must be a plain protocol")):
        path = tmp_path / "p.json"
        path.write_text(json.dumps({**doc, **edit}), encoding="utf-8")
        with pytest.raises(Exception, match=message):
            load_protocol(path)
