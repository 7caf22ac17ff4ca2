"""`ids-bench synth` and `ids-bench synth-sample` from the command line: outputs, figures and exit codes."""
from __future__ import annotations

import json

import pytest

from idsbench.cli import main
from idsbench.records import iter_records


def test_synth_writes_a_folder_and_prints_the_figures(tmp_path, capsys):
    out = tmp_path / "out"
    assert main(["synth", "--n", "3", "--seed", "1", "--language", "ja", "--out", str(out), "--no-progress",
                 "--workers", "1"]) == 0
    printed = capsys.readouterr().out
    assert "wrote 3 tasks (3 records)" in printed and "tasks/s" in printed
    assert "0 of 3 tasks make the same scored choices as a benchmark gold" in printed
    assert "data hash" in printed
    assert {r["language"] for _, _, r in iter_records(out)} == {"ja"}


@pytest.mark.parametrize("argv, message", [
    (["--eval-set", "synth-eval-v1", "--n", "5"], "--eval-set fixes"),
    (["--seed", "3"], "give --n"),
])
def test_bad_options_stop_before_writing(tmp_path, capsys, argv, message):
    out = tmp_path / "out"
    assert main(["synth", *argv, "--out", str(out), "--no-progress"]) == 2
    assert message in capsys.readouterr().err and not out.exists()


def test_a_folder_holding_something_else_is_refused(tmp_path, capsys):
    out = tmp_path / "out"
    out.mkdir()
    (out / "notes.txt").write_text("mine", encoding="utf-8")
    assert main(["synth", "--n", "2", "--out", str(out), "--no-progress"]) == 2
    assert "not empty" in capsys.readouterr().err and sorted(p.name for p in out.iterdir()) == ["notes.txt"]


def test_synth_sample_takes_n_tasks_per_difficulty(small_folder, tmp_path, capsys):
    out = tmp_path / "probe"
    assert main(["synth-sample", "--from", str(small_folder[0]), "--per-difficulty", "2", "--seed", "1",
                 "--out", str(out)]) == 0
    records = [r for _, _, r in iter_records(out)]
    assert len(records) == 12 and {r["difficulty"] for r in records} == {"easy", "medium", "hard"}
    assert json.loads((out / "synth.json").read_text(encoding="utf-8"))["tasks"] == 6


def test_a_proven_folder_reads_as_data_and_a_rerun_resumes_from_the_ledger(tmp_path, capsys):
    from idsbench.harness.examples import load_examples

    out = tmp_path / "proven"
    argv = ["synth", "--n", "1", "--seed", "4", "--difficulty", "easy", "--prove", "--out", str(out), "--no-progress"]
    assert main(argv) == 0
    assert "0 failing their witnesses" in capsys.readouterr().out
    ledger = (out / ".proofs.ledger").read_text(encoding="utf-8")
    assert len(load_examples(out)) == 2 and ledger.count("\n") == 2
    assert main(argv) == 0 and (out / ".proofs.ledger").read_text(encoding="utf-8") == ledger


def test_an_evaluation_set_with_another_data_hash_exits_3(tmp_path, capsys, monkeypatch):
    from idsbench.synth import cli
    from idsbench.synth.config import Options
    from idsbench.synth.evalset import EvalSet

    def pinned(data_hash):
        return lambda name: EvalSet(name, Options(n=2, seed=20250, split="test", name=name), "g", data_hash, "")

    monkeypatch.setattr(cli, "eval_set", pinned("000000000000"))
    assert main(["synth", "--eval-set", "synth-eval-v1", "--out", str(tmp_path / "a"), "--no-progress"]) == 3
    captured = capsys.readouterr()
    assert "not comparable" in captured.err
    found = captured.out.rsplit(": ", 1)[1].strip()  # the data hash, printed last
    monkeypatch.setattr(cli, "eval_set", pinned(found))
    assert main(["synth", "--eval-set", "synth-eval-v1", "--out", str(tmp_path / "b"), "--no-progress"]) == 0


def test_an_interrupted_run_exits_130_and_a_rerun_with_the_same_options_completes(tmp_path, capsys, monkeypatch):
    from idsbench.synth import generate

    make_task = generate.make_task

    def stopping(index):
        if index == 2:
            raise KeyboardInterrupt
        return make_task(index)

    out = tmp_path / "out"
    argv = ["synth", "--n", "3", "--seed", "5", "--out", str(out), "--no-progress", "--workers", "1"]
    monkeypatch.setattr(generate, "make_task", stopping)
    assert main(argv) == 130 and "interrupted" in capsys.readouterr().err
    monkeypatch.setattr(generate, "make_task", make_task)
    assert main(argv) == 0 and "wrote 3 tasks" in capsys.readouterr().out
