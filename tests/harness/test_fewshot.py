"""Few-shot protocols: K solved examples from other scenarios only (never the example's own scenario in
either language), matched on language, input format and turn type where possible, chosen the same way
whatever the selection, and recorded per prediction."""
import json
import random
from dataclasses import replace

import pytest

from idsbench.cli import main
from idsbench.harness.examples import load_examples
from idsbench.harness.fewshot import MATCHED_ON, FewShot, choose, with_shots
from idsbench.harness.protocol import load_protocol
from tests.harness.records import FIXTURE, write_dataset
from tests.paths import ROOT

DATA = ROOT / "data"


@pytest.fixture(scope="module")
def everything():
    return load_examples(DATA)


def test_shots_come_from_other_scenarios_and_match_where_possible(everything):
    fewshot = load_protocol("fewshot-3").fewshot
    assert fewshot == FewShot(3, 0)
    for target in everything:
        shots = choose(target, everything, fewshot)
        assert len(shots) == 3 and len({s.scenario for s in shots}) == 3
        assert all(s.scenario != target.scenario and s.gold for s in shots)
        # every cell of language x input format x turn type has other scenarios enough: all match
        assert all(s.metadata[k] == target.metadata[k] for s in shots for k in MATCHED_ON), target.id


def test_the_choice_is_seeded_and_independent_of_the_selection(everything):
    target = next(e for e in everything if e.id == "s007-ja")
    shots = [s.id for s in choose(target, everything, FewShot(3, 0))]
    shuffled = list(everything)
    random.Random(1).shuffle(shuffled)
    assert [s.id for s in choose(target, shuffled, FewShot(3, 0))] == shots
    assert [s.id for s in choose(target, everything, FewShot(3, 1))] != shots
    assert [s.id for s in choose(target, everything, FewShot(5, 0))][:3] == shots


def test_falls_back_to_the_closest_when_no_example_matches(everything):
    target = replace(everything[0], metadata={**everything[0].metadata, "language": "fr"})
    shots = choose(target, everything, FewShot(3, 0))
    assert len(shots) == 3 and all(s.metadata["input_format"] == target.metadata["input_format"] for s in shots)


def test_solved_examples_come_first_in_the_conversation(everything):
    target = next(e for e in everything if e.metadata["turn_type"] == "multi_turn")
    shots = choose(target, everything, FewShot(2, 0))
    turns = with_shots(target, shots).messages
    first = [*shots[0].messages, {"role": "assistant", "content": shots[0].gold}]
    assert list(turns[:len(first)]) == first
    assert list(turns[-len(target.messages):]) == list(target.messages)
    assert [t["role"] for t in turns] == ["user", "assistant"] * (len(turns) // 2) + ["user"]


def test_run_records_the_shots_and_sends_them(tmp_path, standin):
    out = tmp_path / "run"
    assert main(["run", "--protocol", "fewshot-3", "--model", "m", "--base-url", standin.url, "--api-key-env", "none",
                 "--ids", "s007-ja,s020-en", "--out", str(out), "--no-progress", "--audit-profile", "none"]) == 0
    rows = {r["id"]: r for r in map(json.loads, (out / "predictions.jsonl").read_text(encoding="utf-8").splitlines())}
    everything = {e.id: e for e in load_examples(DATA)}
    for example_id, row in rows.items():
        assert row["fewshot"] == [s.id for s in choose(everything[example_id], list(everything.values()), FewShot(3))]
        request = next(r for r in standin.requests
                       if r["messages"][-1]["content"] == everything[example_id].messages[-1]["content"])
        sent = json.dumps(request["messages"], ensure_ascii=False)
        assert all(json.dumps(everything[s].gold, ensure_ascii=False)[1:-1] in sent for s in row["fewshot"])
        assert json.dumps(everything[example_id].gold, ensure_ascii=False)[1:-1] not in sent
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert summary["signature"].endswith("|protocol:fewshot-3") and summary["protocol"]["fewshot"] == {"k": 3, "seed": 0}
    assert "rounds" not in summary


def test_a_subset_run_gets_the_shots_of_the_whole_data(tmp_path, standin):
    data = write_dataset(tmp_path / "data")
    for ids in ("fx3-en", ",".join(r["id"] for r in FIXTURE)):
        out = tmp_path / ids.replace(",", "_")
        assert main(["run", "--protocol", "fewshot-3", "--model", "m", "--base-url", standin.url, "--api-key-env",
                     "none", "--data", str(data), "--ids", ids, "--out", str(out), "--no-progress",
                     "--audit-profile", "none"]) == 0
    rows = [{r["id"]: r["fewshot"] for r in map(json.loads, p.read_text(encoding="utf-8").splitlines())}
            for p in sorted(tmp_path.glob("fx*/predictions.jsonl"))]
    # two other scenarios, one example of each: the English ones, the CSV one first (fx3-en is English CSV)
    assert rows[0]["fx3-en"] == rows[1]["fx3-en"] == ["fx1-en", "fx2-en"]
