"""`score` and `run` never silently replace each other's results (distinct default folders; another
command's or another file's results need --overwrite); a rerun and the resume of a `run` still work;
`score --subset` scores the ids present, with that subset's n and data hash in the signature."""
import json
import os

import pytest

from idsbench.cli import main
from idsbench.outputs import score_folder
from tests.support.smalldata import GOLD, IDS, write_data, write_predictions


@pytest.fixture
def data(tmp_path):
    return write_data(tmp_path / "data")


def score(*argv):
    return main(["score", *map(str, argv), "--audit-profile", "none", "--no-progress"])


def run(*argv):
    return main(["run", *map(str, argv), "--audit-profile", "none", "--no-progress"])


def summary(folder):
    return json.loads((folder / "summary.json").read_text(encoding="utf-8"))


def test_default_folders_of_score_and_run_differ(tmp_path, data, monkeypatch):
    monkeypatch.chdir(tmp_path)
    predictions = write_predictions(tmp_path / "gold.jsonl")
    assert score("--predictions", predictions, "--data", data) == 0
    assert run("--system", "gold", "--data", data) == 0
    assert summary(tmp_path / "runs" / "gold-score")["predictions"] == str(predictions)
    assert summary(tmp_path / "runs" / "gold")["system"] == "gold"
    assert score_folder(tmp_path / "runs" / "rule-based" / "predictions.jsonl").name == "rule-based-score"


def test_score_refuses_to_replace_a_runs_results(tmp_path, data, capsys):
    out = tmp_path / "runs" / "gold"
    assert run("--system", "gold", "--data", data, "--out", out) == 0
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    predictions = write_predictions(tmp_path / "mine.jsonl", {i: None for i in IDS})
    assert score("--predictions", predictions, "--data", data, "--out", out) == 2
    err = capsys.readouterr().err
    assert f"{out} already holds the results of `ids-bench run`" in err and "--overwrite" in err
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before
    assert score("--predictions", predictions, "--data", data, "--out", out, "--overwrite") == 0
    assert summary(out)["overall"]["facet_f1"] == 0.0


def test_run_refuses_to_replace_scores_of_a_file(tmp_path, data, capsys):
    out = tmp_path / "out"
    assert score("--predictions", write_predictions(tmp_path / "p.jsonl"), "--data", data, "--out", out) == 0
    assert run("--system", "gold", "--data", data, "--out", out) == 2
    assert "already holds the results of `ids-bench score --predictions" in capsys.readouterr().err
    assert not (out / "predictions.jsonl").exists()
    assert run("--system", "gold", "--data", data, "--out", out, "--overwrite") == 0


def test_rescoring_the_same_file_and_rerunning_the_same_run_are_allowed(tmp_path, data):
    predictions, out = write_predictions(tmp_path / "p.jsonl"), tmp_path / "scored"
    assert score("--predictions", predictions, "--data", data, "--out", out) == 0
    assert score("--predictions", predictions, "--data", data, "--out", out) == 0
    other = write_predictions(tmp_path / "other.jsonl")
    assert score("--predictions", other, "--data", data, "--out", out) == 2  # another file's results
    assert run("--system", "gold", "--data", data, "--out", tmp_path / "r") == 0
    assert run("--system", "gold", "--data", data, "--out", tmp_path / "r") == 0


def test_an_interrupted_run_resumes(tmp_path, data):
    out = tmp_path / "r"
    assert run("--system", "gold", "--data", data, "--out", out, "--limit", "2") == 0
    os.remove(out / "summary.json")  # as if stopped after generating: predictions.jsonl and old results remain
    assert run("--system", "gold", "--data", data, "--out", out) == 0
    assert summary(out)["generation"]["skipped_existing"] == 2 and summary(out)["data"]["n"] == len(IDS)


def test_score_subset_scores_only_the_ids_present(tmp_path, data, capsys):
    chosen = {i: GOLD[i] for i in IDS[:2]}
    predictions = write_predictions(tmp_path / "two.jsonl", chosen)
    assert score("--predictions", predictions, "--data", data, "--out", tmp_path / "no") == 2
    assert "add --subset" in capsys.readouterr().err and not (tmp_path / "no").exists()
    out = tmp_path / "sub"
    assert score("--predictions", predictions, "--data", data, "--out", out, "--subset") == 0
    table = capsys.readouterr().out
    assert table.splitlines()[0].startswith(f"subset: 2 of {len(IDS)} examples, not a full run")
    results = [json.loads(line) for line in (out / "results.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [r["id"] for r in results] == IDS[:2]
    document = summary(out)
    assert document["subset"] == {"n": 2, "of": len(IDS)} and "|n:2|" in document["signature"]
    full = tmp_path / "full"
    assert score("--predictions", write_predictions(tmp_path / "all.jsonl"), "--data", data, "--out", full) == 0
    data_part = lambda folder: next(p for p in summary(folder)["signature"].split("|") if p.startswith("data:"))
    assert data_part(out) != data_part(full) and "subset" not in summary(full)


def test_subset_still_rejects_unknown_ids_and_an_empty_file(tmp_path, data, capsys):
    unknown = write_predictions(tmp_path / "u.jsonl", {"zz-en": None})
    assert score("--predictions", unknown, "--data", data, "--subset", "--out", tmp_path / "o") == 2
    assert "ids not in the data: zz-en" in capsys.readouterr().err
    empty = tmp_path / "e.jsonl"
    empty.write_text("", encoding="utf-8")
    assert score("--predictions", empty, "--data", data, "--subset", "--out", tmp_path / "o") == 2
    assert "no predictions" in capsys.readouterr().err and not (tmp_path / "o").exists()


def test_run_with_a_selection_says_subset(tmp_path, data, capsys):
    assert run("--system", "gold", "--data", data, "--out", tmp_path / "r", "--limit", "1") == 0
    assert capsys.readouterr().out.startswith(f"subset: 1 of {len(IDS)} examples")
    assert summary(tmp_path / "r")["subset"] == {"n": 1, "of": len(IDS)}
