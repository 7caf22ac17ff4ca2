"""Outside submissions: checked (ids, format, metadata) and re-scored into a results file."""
import json

import pytest

from idsbench.cli import main
from idsbench.leaderboard.results import ResultsError, read_results
from idsbench.leaderboard.submission import check_submission, prompt_sha256, rescore_submission
from tests.leaderboard.runs import references, variant

PROMPT = "You write buildingSMART IDS 1.0 files. Answer with one IDS document."


def make_submission(folder, *, kinds=("gold", "missing"), metadata=None, drop=0):
    refs = references(10_000)  # the whole data: a submission covers every example
    folder.mkdir(parents=True, exist_ok=True)
    rows = [{"id": r.id, "prediction": variant(kinds[i % len(kinds)], r.gold)} for i, r in enumerate(refs)]
    (folder / "predictions.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows[drop:]), encoding="utf-8")
    meta = {"model": "Acme IDS 7B", "endpoint": "https://api.acme.example/v1", "team": "Acme",
            "sampling": {"temperature": 0.0, "max_tokens": 8192}, "prompt": {"name": "acme-v1", "text": PROMPT},
            "date": "2026-11-20"}
    (folder / "metadata.json").write_text(json.dumps(metadata if metadata is not None else meta), encoding="utf-8")
    return folder


def test_a_good_submission_passes(tmp_path):
    checked = check_submission(make_submission(tmp_path / "acme"))
    assert checked.ok and checked.predictions == len(references(10_000)) and "ok" in checked.to_text()


def test_every_problem_is_listed(tmp_path):
    folder = make_submission(tmp_path / "bad", drop=2, metadata={"model": "", "sampling": [],
                                                                  "prompt": {"sha256": "xyz"}})
    with open(folder / "predictions.jsonl", "a", encoding="utf-8") as handle:
        handle.write('{"id": "s999-xx", "prediction": "<ids/>"}\nnot json\n')
    problems = "\n".join(check_submission(folder).problems)
    assert "'endpoint' is a required property" in problems and "$.model" in problems and "$.sampling" in problems
    assert "$.prompt.sha256" in problems and "predictions.jsonl:" in problems and "not JSON" in problems


def test_ids_are_checked(tmp_path):
    folder = make_submission(tmp_path / "short", drop=3)
    problems = "\n".join(check_submission(folder).problems)
    assert "missing predictions for" in problems
    assert not check_submission(tmp_path / "nowhere").ok


def test_prompt_hash_must_match_its_text(tmp_path):
    meta = {"model": "m", "endpoint": None, "sampling": {}, "prompt": {"text": PROMPT, "sha256": "0" * 64}}
    problems = check_submission(make_submission(tmp_path / "p", metadata=meta)).problems
    assert any("prompt.sha256 is not the sha256 of prompt.text" in p for p in problems)


def test_rescore_writes_a_results_file_with_the_submission_provenance(tmp_path):
    path = rescore_submission(make_submission(tmp_path / "acme"), tmp_path / "out", audit_profile=None)
    loaded = read_results(path)
    prov = loaded.document["provenance"]
    assert path.name == "acme-ids-7b.json" and loaded.name == "Acme IDS 7B"
    assert prov["endpoint"] == "https://api.acme.example/v1" and prov["system"] == "submission"
    assert prov["prompt"] == {"name": "acme-v1", "sha256": prompt_sha256(PROMPT)}
    assert prov["extra"]["team"] == "Acme" and prov["extra"]["generation_date"] == "2026-11-20"
    assert prov["packages"]["ifcopenshell"] and prov["date"]
    assert 0.5 < loaded.document["overall"]["metrics"]["facet_f1"]["value"] < 1
    assert [p.name for p in (tmp_path / "out").iterdir()] == ["acme-ids-7b.json"]  # no scratch folder left


def test_rescore_refuses_a_bad_submission(tmp_path):
    with pytest.raises(ResultsError, match="missing predictions"):
        rescore_submission(make_submission(tmp_path / "short", drop=1), tmp_path / "out", audit_profile=None)
    assert not (tmp_path / "out").exists()


def test_submission_cli(tmp_path, capsys):
    good = make_submission(tmp_path / "good")
    assert main(["submission", "check", str(good)]) == 0
    assert main(["submission", "check", str(make_submission(tmp_path / "bad", drop=1))]) == 1
    assert "missing predictions" in capsys.readouterr().out
    out = tmp_path / "results"
    assert main(["submission", "rescore", str(good), "--out", str(out), "--audit-profile", "none",
                 "--resamples", "100"]) == 0
    assert read_results(out / "acme-ids-7b.json").signature.endswith("|bootstrap:100,seed:0|rates:wilson")
