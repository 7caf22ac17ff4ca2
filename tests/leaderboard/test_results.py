"""Results files: built from run folders, schema-validated on write and read; shared run-folder helpers."""
import json

import pytest

from idsbench.leaderboard.results import (FORMAT, ResultsError, load_any, parse_signature, read_results, results_from_run,
                                 schema_problems, validate, write_results)
from idsbench.leaderboard.stats import Bootstrap
from tests.leaderboard.runs import HARNESS_PROVENANCE, N_EXAMPLES, make_run, references

@pytest.fixture
def run_dir(tmp_path):
    return make_run(tmp_path / "acme", references(), ["gold", "missing", "spurious", "not-xml", "none", "gold"],
                    **HARNESS_PROVENANCE)


def test_results_from_a_harness_run_carry_metrics_intervals_and_provenance(run_dir):
    doc = results_from_run(run_dir)
    assert doc["format"] == FORMAT and doc["name"] == "acme-7b"
    assert doc["signature"] == doc["scoring_signature"] + "|bootstrap:1000,seed:0|rates:wilson"
    summary = json.loads((run_dir / "summary.json").read_text())
    for metric, value in doc["overall"]["metrics"].items():
        assert value["value"] == pytest.approx(summary["overall"][metric])
        assert value["ci"][0] <= value["value"] <= value["ci"][1]
    assert doc["breakdowns"]["language"]["en"]["n"] == summary["breakdowns"]["language"]["en"]["n"]
    prov = doc["provenance"]
    assert prov["endpoint"] == "http://127.0.0.1:8000/v1" and prov["sampling"] == {"temperature": 0.0, "seed": 3}
    assert prov["prompt"] == {"name": "zero-shot-v1", "sha256": "f" * 64} and prov["git_commit"] == "a" * 40
    assert prov["data_hash"] == parse_signature(doc["signature"])["data"] and prov["date"].startswith("2026")
    assert prov["extra"]["run_config"] == "abc123" and prov["extra"]["endpoint"]["temperature"] == 0.0
    assert len(doc["examples"]) == N_EXAMPLES and schema_problems(doc) == []


def test_write_then_read_round_trips_and_is_stable(run_dir, tmp_path):
    doc = results_from_run(run_dir, settings=Bootstrap(200, 7))
    path = write_results(doc, tmp_path / "out" / "acme.json")
    loaded = read_results(path)
    assert loaded.document == doc and loaded.signature.endswith("|bootstrap:200,seed:7|rates:wilson")
    assert path.read_text() == write_results(results_from_run(run_dir, settings=Bootstrap(200, 7)),
                                             tmp_path / "again.json").read_text()
    assert list(doc) == ["format", "name", "signature", "scoring_signature", "bootstrap", "provenance", "overall",
                         "breakdowns", "examples"]


def test_rows_can_stay_in_results_jsonl(run_dir, tmp_path):
    doc = results_from_run(run_dir, inline=False)
    assert "examples" not in doc and doc["examples_path"].endswith("results.jsonl")
    path = write_results(doc, tmp_path / "results" / "a.json")
    assert json.loads(path.read_text())["examples_path"] == "../acme/results.jsonl"
    assert len(read_results(path).rows) == N_EXAMPLES


def test_unaudited_runs_have_null_stage1_metrics(tmp_path):
    folder = make_run(tmp_path / "plain", references(8), ["gold", "missing"], audited=False)
    doc = load_any(folder).document
    assert doc["overall"]["metrics"]["content"] == {"value": None, "ci": None}
    assert doc["provenance"]["model"] == "plain"  # no provenance recorded: the folder name


def test_an_invalid_document_is_not_written(run_dir, tmp_path):
    doc = results_from_run(run_dir)
    doc["overall"]["metrics"]["facet_f1"]["value"] = 1.5
    with pytest.raises(ResultsError, match=r"bad\.json: not a valid results document:\n  at \$\.overall"):
        write_results(doc, tmp_path / "bad.json")
    assert not (tmp_path / "bad.json").exists()


def test_reading_names_the_file_and_line(tmp_path):
    bad = tmp_path / "broken.json"
    bad.write_text('{\n  "format": \n}', encoding="utf-8")
    with pytest.raises(ResultsError, match=r"broken\.json:3: not JSON"):
        read_results(bad)
    bad.write_text(json.dumps({"format": FORMAT}), encoding="utf-8")
    with pytest.raises(ResultsError, match="'signature' is a required property"):
        read_results(bad)


def test_run_folder_problems_are_named(run_dir, tmp_path):
    with pytest.raises(ResultsError, match="no summary.json"):
        results_from_run(tmp_path)
    lines = (run_dir / "results.jsonl").read_text().splitlines()
    (run_dir / "results.jsonl").write_text("\n".join(lines + [lines[0]]) + "\n")
    with pytest.raises(ResultsError, match=rf"results.jsonl:{len(lines) + 1}: duplicate id"):
        results_from_run(run_dir)
    (run_dir / "results.jsonl").write_text("\n".join(lines[1:]) + "\n")
    with pytest.raises(ResultsError, match=f"{len(lines) - 1} rows but the signature says n:{len(lines)}"):
        results_from_run(run_dir)


def test_results_from_another_run_are_caught(run_dir, tmp_path):
    other = make_run(tmp_path / "other", references(), ["gold"], **HARNESS_PROVENANCE)
    (run_dir / "results.jsonl").write_bytes((other / "results.jsonl").read_bytes())
    with pytest.raises(ResultsError, match="different runs"):
        results_from_run(run_dir)


def test_schema_accepts_only_known_breakdowns(run_dir):
    doc = results_from_run(run_dir)
    doc["breakdowns"]["colour"] = {}
    with pytest.raises(ResultsError, match="colour"):
        validate(doc, "x")
