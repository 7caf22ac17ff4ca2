"""Leaderboard build (ranking, rejection, reference rows, markdown/JSON/HTML) and the Hub formats."""
import json

import pytest
import yaml

from idsbench.cli import main
from idsbench.leaderboard.board import (Rejected, board_from_folder, build_board, comparable, load_references,
                               signature_difference, to_markdown)
from idsbench.leaderboard.hubformats import TASKS, eval_results_filename, eval_results_yaml, eval_yaml
from idsbench.leaderboard.html import render_page
from idsbench.leaderboard.results import read_results, results_from_run, write_results
from tests.leaderboard.runs import HARNESS_PROVENANCE, make_run, references, results_dir

SIG = "ids_metric:0.1.0|audit:ids-tool-1.0.96|facets:paper|data:abc|n:166|ifcopenshell:0.9.0|bootstrap:1000,seed:0|rates:wilson"


def test_comparable_signatures_ignore_model_specific_parts():
    assert comparable(SIG + "|model:acme") == comparable(SIG) == SIG
    assert signature_difference(SIG.replace("n:166", "n:100"), SIG) == "n:100≠166"
    assert signature_difference(SIG + "|extra:1", SIG) == "extra:1≠(missing)"


def test_board_ranks_rejects_and_keeps_references_apart(tmp_path):
    board = board_from_folder(results_dir(tmp_path))
    assert [(r["rank"], r["name"]) for r in board.rows] == [(1, "strong"), (2, "middle"), (3, "weak")]
    rejected = {r.file: r for r in board.rejected}
    assert set(rejected) == {"broken.json", "other-data.json"}
    assert "signature differs from the board's" in rejected["other-data.json"].reason
    assert "n:18≠16" in rejected["other-data.json"].reason and "data:" in rejected["other-data.json"].reason
    assert "not JSON" in rejected["broken.json"].reason
    assert all(ref["reference"] and "rank" not in ref for ref in board.references)
    names = {ref["name"]: ref for ref in board.references}
    assert names["GPT-5.5"]["metrics"]["facet_f1"] == 0.656 and names["Kimi K2.6"]["metrics"]["processability"] == 0.994
    assert names["GPT-5.5"]["breakdowns"]["turn_type"]["multi_turn"]["facet_f1"] == 0.848
    assert names["Qwen3 (8B to 397B)"]["metrics"]["content"] == [0.102, 0.193]
    assert [names[f"Ishigaki-IDS-{s}"]["metrics"]["ag_facet_f1"] for s in ("8B", "14B", "32B")] == [0.282, 0.392, 0.369]
    assert names["Claude Opus 4.5"]["metrics"]["content"] == 0.331


def test_sort_metric_and_explicit_signature(tmp_path):
    folder = results_dir(tmp_path)
    board = board_from_folder(folder, sort="content", with_references=False)
    # strong and middle both pass the audit everywhere: a tie on Content, broken by name
    assert [r["name"] for r in board.rows] == ["middle", "strong", "weak"] and board.references == []
    other = read_results(folder / "other-data.json").signature
    board = board_from_folder(folder, signature=other)
    assert [r["name"] for r in board.rows] == ["o"] and len(board.rejected) == 4
    with pytest.raises(ValueError, match="unknown sort metric"):
        build_board([], sort="bleu")


def test_duplicate_names_are_told_apart(tmp_path):
    folder = results_dir(tmp_path)
    doc = read_results(folder / "weak.json").document
    write_results({**doc, "name": "strong"}, folder / "strong-again.json")
    names = [r["name"] for r in board_from_folder(folder).rows]
    assert "strong (strong)" in names and "strong (strong-again)" in names and "strong" not in names


def test_markdown_escapes_pipes_and_marks_reference_rows(tmp_path):
    board = board_from_folder(results_dir(tmp_path))
    text = to_markdown(board)
    header = text.splitlines()[4]
    row = next(line for line in text.splitlines() if line.startswith("| 1 |"))
    assert row.count(" | ") == header.count(" | ")  # the signature's pipes are escaped
    ranked, reported = text.split("Reported in the paper, on other data")
    assert "GPT-5.5" not in ranked and "| GPT-5.5 |" in reported and "never ranked" in reported
    assert "- other-data.json (o): signature differs" in text
    build = build_board([], rejected=[Rejected("x.json", None, "line one\nline two")])
    assert "line one line two" in to_markdown(build)


def test_page_is_self_contained(tmp_path):
    board = board_from_folder(results_dir(tmp_path)).to_json()
    board["rows"][0]["name"] = "</script><script>alert(1)</script>"
    page = render_page(board)
    assert "<script src" not in page and "<link" not in page and "http://" not in page.replace(
        'xmlns="http://www.w3.org/2000/svg"', "").replace("http://127.0.0.1:8000", "")
    assert page.count("</script>") == 2  # the embedded data cannot close its element
    assert page.count('class="chart"') == 6 and "IFC version" in page and "skill" in page


def test_leaderboard_cli_writes_the_three_files(tmp_path, capsys):
    folder = results_dir(tmp_path)
    out = tmp_path / "site"
    assert main(["leaderboard", "build", str(folder), "--out", str(out)]) == 0
    assert "| 1 | strong |" in capsys.readouterr().out
    board = json.loads((out / "board.json").read_text())
    assert board["format"] == "ishigaki-ids-bench/leaderboard@1" and len(board["rows"]) == 3
    assert (out / "index.html").read_text().startswith("<!DOCTYPE html>") and (out / "board.md").is_file()


def test_results_cli(tmp_path, capsys):
    run = make_run(tmp_path / "run", references(8), ["gold"], **HARNESS_PROVENANCE)
    out = tmp_path / "r.json"
    assert main(["leaderboard", "results", str(run), "--out", str(out), "--resamples", "100", "--seed", "4"]) == 0
    assert read_results(out).signature.endswith("|bootstrap:100,seed:4|rates:wilson")
    assert main(["leaderboard", "results", str(tmp_path / "nowhere"), "--out", str(out)]) == 2


def test_reference_figures_file_is_valid():
    document = load_references()
    assert document["format"] == "ishigaki-ids-bench/paper-reference@1" and len(document["rows"]) == 7


# ------------------------------------------------------------------------------------------ Hub formats

def test_eval_yaml_has_one_task_per_headline_metric():
    document = yaml.safe_load(eval_yaml())
    assert document["name"] and document["evaluation_framework"] == "ishigaki-ids-bench"
    assert [t["id"] for t in document["tasks"]] == list(TASKS.values())
    assert all(t["config"] == "all" and t["split"] == "test" for t in document["tasks"])


def test_eval_results_entries_parse_back(tmp_path):
    from huggingface_hub import parse_eval_result_entries

    run = make_run(tmp_path / "run", references(8), ["gold", "missing"], **HARNESS_PROVENANCE)
    doc = results_from_run(run)
    text = eval_results_yaml(doc, dataset_id="org/ishigaki-ids-bench", revision="0" * 40,
                             source_url="https://example.org/logs")
    entries = parse_eval_result_entries(yaml.safe_load(text))
    by_task = {e.task_id: e for e in entries}
    assert set(by_task) == set(TASKS.values())
    assert by_task["facet_f1"].value == round(100 * doc["overall"]["metrics"]["facet_f1"]["value"], 2)
    assert by_task["ids_audit_pass"].dataset_id == "org/ishigaki-ids-bench" and by_task["facet_f1"].date
    assert "95% CI" in by_task["facet_f1"].notes and "signature ids_metric:" in by_task["facet_f1"].notes
    assert eval_results_filename("org/Ishigaki-IDS-Bench") == ".eval_results/ishigaki-ids-bench.yaml"


def test_unaudited_runs_publish_only_stage2_tasks(tmp_path):
    run = make_run(tmp_path / "run", references(6), ["gold"], audited=False)
    text = eval_results_yaml(results_from_run(run), dataset_id="org/b")
    assert [item["dataset"]["task_id"] for item in yaml.safe_load(text)] == ["facet_f1"]


def test_hub_formats_cli(tmp_path):
    run = make_run(tmp_path / "run", references(6), ["gold"], **HARNESS_PROVENANCE)
    path = write_results(results_from_run(run), tmp_path / "acme.json")
    out = tmp_path / "hub"
    assert main(["leaderboard", "hub-formats", str(path), "--dataset-id", "org/ishigaki-ids-bench",
                 "--out", str(out)]) == 0
    assert (out / "eval.yaml").is_file() and (out / ".eval_results" / "ishigaki-ids-bench.yaml").is_file()
