"""Harness input: dataset records -> Examples, selection, and the resumable predictions file."""
import json

import pytest

from idsbench.harness.examples import Selection, load_examples, select
from idsbench.harness.predictions import Generation, PredictionWriter, prediction_row, prepare, read_existing
from idsbench.records import InputError
from tests.harness.records import FIXTURE, WALLS_REVISED, write_dataset

@pytest.fixture
def dataset(tmp_path):
    return write_dataset(tmp_path / "data")


def test_examples_hold_the_conversation_without_the_gold(dataset):
    examples = {e.id: e for e in load_examples(dataset)}
    assert sorted(examples) == sorted(r["id"] for r in FIXTURE)
    multi = examples["fx3-en"]
    assert [m["role"] for m in multi.messages] == ["user", "assistant", "user"]
    assert multi.gold == WALLS_REVISED and multi.without_gold().gold is None
    assert examples["fx1-ja"].metadata["language"] == "ja"


@pytest.mark.parametrize("selection, expected", [
    (Selection(ids=("fx2-ja", "fx1-en")), ["fx1-en", "fx2-ja"]),
    (Selection(limit=2), ["fx1-en", "fx1-ja"]),
    (Selection(filters={"language": ("ja",)}), ["fx1-ja", "fx2-ja"]),
    (Selection(filters={"input_format": ("natural_language",), "language": ("en",)}), ["fx2-en"]),
    (Selection(filters={"turn_type": ("multi_turn",)}), ["fx3-en"]),
])
def test_selection(dataset, selection, expected):
    assert [e.id for e in select(load_examples(dataset), selection)] == expected


@pytest.mark.parametrize("selection, message", [
    (Selection(ids=("nope-en",)), "nope-en"),
    (Selection(filters={"language": ("fr",)}), "available: en, ja"),
    (Selection(limit=0), "selection is empty"),
])
def test_bad_selection_is_an_input_error(dataset, selection, message):
    with pytest.raises(InputError, match=message):
        select(load_examples(dataset), selection)


def test_bad_records_name_file_and_line(tmp_path):
    bad = dict(FIXTURE[0], messages=[{"role": "user", "content": "only a question"}])
    folder = write_dataset(tmp_path / "data", [FIXTURE[1], bad, FIXTURE[1]])
    with pytest.raises(InputError) as info:
        load_examples(folder)
    text = str(info.value)
    assert "test-fixture.jsonl:2:" in text and "gold" in text and "duplicate id 'fx1-ja'" in text


def _rows(path):
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_truncated_last_line_is_dropped_and_redone(tmp_path):
    path = tmp_path / "p.jsonl"
    with PredictionWriter(path) as writer:
        writer.write(prediction_row("a", Generation("x"), {"run_config": "c1"}))
    path.write_text(path.read_text() + '{"id": "b", "predic', encoding="utf-8")  # a crash mid-write
    kept = prepare(path, "c1")
    assert list(kept) == ["a"] and path.read_text().endswith("\n")
    with PredictionWriter(path) as writer:
        writer.write(prediction_row("b", Generation("y"), {"run_config": "c1"}))
    assert [r["id"] for r in _rows(path)] == ["a", "b"]


def test_damage_in_the_middle_is_an_input_error(tmp_path):
    path = tmp_path / "p.jsonl"
    path.write_text('{"id": "a", "prediction": "x"}\nnot json\n{"id": "b", "prediction": "y"}\n')
    with pytest.raises(InputError, match=r"p.jsonl:2"):
        read_existing(path)


def test_resume_refuses_another_configuration(tmp_path):
    path = tmp_path / "p.jsonl"
    with PredictionWriter(path) as writer:
        writer.write(prediction_row("a", Generation("x"), {"run_config": "c1"}))
    with pytest.raises(InputError, match="another configuration"):
        prepare(path, "c2")
    assert prepare(path, "c2", overwrite=True) == {}


def test_retry_failed_rewrites_without_failures(tmp_path):
    path = tmp_path / "p.jsonl"
    with PredictionWriter(path) as writer:
        writer.write(prediction_row("a", Generation("x"), {"run_config": "c"}))
        writer.write(prediction_row("b", Generation(None, error="HTTP 500"), {"run_config": "c"}))
    assert sorted(prepare(path, "c")) == ["a", "b"]
    assert sorted(prepare(path, "c", retry_failed=True)) == ["a"]
    assert [r["id"] for r in _rows(path)] == ["a"]
