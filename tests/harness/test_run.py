"""`ids-bench run|generate` end to end on the fixture dataset (offline; endpoint = the stand-in)."""
import hashlib
from html import escape
import json
import re

import pytest

from idsbench.audit.rules import RULES
from idsbench.cli import main
from idsbench.example import Reference
from idsbench.harness.html_report import render_report
from idsbench.harness.prompt import DEFAULT_PROMPT
from idsbench.pipeline import score
from tests.harness.records import FIXTURE, WALLS_GOLD, write_dataset

FILES = ("predictions.jsonl", "results.jsonl", "summary.json", "report.html")


@pytest.fixture
def data(tmp_path):
    return write_dataset(tmp_path / "data")


def run_cli(*argv):
    return main([*map(str, argv), "--no-progress"])


def summary_of(out):
    return json.loads((out / "summary.json").read_text(encoding="utf-8"))


def test_run_rule_based_writes_four_files_and_prints_the_table(data, tmp_path, capsys):
    out = tmp_path / "out"
    assert run_cli("run", "--data", data, "--out", out, "--audit-profile", "none") == 0
    table = capsys.readouterr().out
    assert "FacetF1" in table and "input_format=csv" in table and "language=ja" in table and "signature:" in table
    assert all((out / name).is_file() for name in FILES)
    summary = summary_of(out)
    assert summary["system"] == "rule-based" and summary["data"]["n"] == len(FIXTURE)
    assert summary["prompt"]["sha256"] == hashlib.sha256(DEFAULT_PROMPT.read_text(encoding="utf-8").strip()
                                                         .encode("utf-8")).hexdigest()
    assert summary["packages"]["ifcopenshell"] and summary["date"] and "audit:none" in summary["signature"]
    results = [json.loads(line) for line in (out / "results.jsonl").read_text(encoding="utf-8").splitlines()]
    assert sorted(r["id"] for r in results) == sorted(r["id"] for r in FIXTURE)


def test_report_is_self_contained(data, tmp_path):
    out = tmp_path / "out"
    run_cli("run", "--data", data, "--out", out, "--audit-profile", "none", "--system", "copy-previous")
    html = (out / "report.html").read_text(encoding="utf-8")
    assert "<table>" in html and "fx2-ja" in html and "FacetF1" in html and "by input_format" in html
    # its one script is inline (filtering and sorting the examples): nothing is fetched
    assert html.count("<script>") == 1 and not re.search(r"<(link|img|iframe)\b|\bsrc=|@import|url\(", html)


def test_report_shows_each_code_with_its_meaning():
    outputs = [RULES[103].failing(), RULES[401].failing(), WALLS_GOLD]
    references = [Reference(f"x{i}", WALLS_GOLD) for i in range(3)]
    run = score(outputs, references)
    html = render_report(run, run.summary(), outputs, {})
    assert "<h2>Audit codes</h2>" in html and {c for r in run.results for c in r.audit.codes} == {103, 401}
    assert all(f"<td class=n>{c}</td><td>{escape(RULES[c].meaning)}</td>" in html for c in (103, 401))


def test_gold_run_scores_100_and_a_rerun_resumes(data, tmp_path, capsys):
    out = tmp_path / "gold"
    assert run_cli("run", "--data", data, "--out", out, "--system", "gold", "--audit-profile", "none") == 0
    assert summary_of(out)["overall"]["facet_f1"] == 1.0
    first = (out / "predictions.jsonl").read_text(encoding="utf-8")
    assert run_cli("run", "--data", data, "--out", out, "--system", "gold", "--audit-profile", "none") == 0
    assert summary_of(out)["generation"]["skipped_existing"] == len(FIXTURE)
    assert (out / "predictions.jsonl").read_text(encoding="utf-8") == first


def test_run_against_an_endpoint_records_provenance(data, tmp_path, standin):
    standin.default_answer = lambda request: f"<think>walls</think>\n```ids\n{WALLS_GOLD}\n```"
    prompt = tmp_path / "my-prompt.txt"
    prompt.write_text("Answer with one IDS file.\n", encoding="utf-8")
    out = tmp_path / "endpoint"
    code = run_cli("run", "--data", data, "--out", out, "--model", "standin-model", "--base-url", standin.url,
                   "--api-key-env", "none", "--prompt", prompt, "--concurrency", "2", "--seed", "3",
                   "--language", "en", "--audit-profile", "none")
    assert code == 0
    summary = summary_of(out)
    assert summary["model"] == "standin-model" and summary["endpoint"]["base_url"] == standin.url
    assert summary["sampling"] == {"temperature": 0.0, "seed": 3}
    assert summary["prompt"] == {"name": "my-prompt", "sha256": hashlib.sha256(b"Answer with one IDS file.")
                                 .hexdigest(), "used": True}
    assert summary["data"]["n"] == 3 and summary["generation"]["usage"]["total_tokens"] == 3 * 18
    assert standin.requests[0]["messages"][0]["content"] == "Answer with one IDS file."
    assert summary["overall"]["n"] == 3


def test_generate_then_score_with_the_existing_command(data, tmp_path, capsys):
    predictions = tmp_path / "p" / "predictions.jsonl"
    assert run_cli("generate", "--data", data, "--system", "rule-based", "--out", predictions) == 0
    assert run_cli("score", "--data", data, "--predictions", predictions, "--out", tmp_path / "scored",
                   "--audit-profile", "none") == 0
    assert "FacetF1" in capsys.readouterr().out


@pytest.mark.parametrize("argv, message", [
    (("--ids", "nope-en"), "nope-en"),
    (("--system", "endpoint"), "needs --model"),
    (("--language", "fr"), "available: en, ja"),
])
def test_bad_input_exits_2_before_writing(data, tmp_path, capsys, argv, message):
    out = tmp_path / "out"
    assert run_cli("run", "--data", data, "--out", out, "--audit-profile", "none", *argv) == 2
    assert message in capsys.readouterr().err and not (out / "predictions.jsonl").exists()


def test_the_gold_run_passes_the_audit(data, tmp_path):
    out = tmp_path / "out"
    assert run_cli("run", "--data", data, "--out", out, "--system", "gold") == 0
    assert summary_of(out)["overall"]["content"] == 1.0
