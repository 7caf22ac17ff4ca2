"""Inspect under the repair and few-shot protocols, offline (mockllm answering as the repairing model):
the solver loops generate -> audit -> feedback; each round's means equal `ids-bench score` on that round's
outputs and `ids-bench run`'s rounds against the same model."""
import json

import inspect_ai
import pytest
from inspect_ai.model import ModelOutput, ModelUsage, get_model

from idsbench.cli import main
from idsbench.harness.examples import load_examples
from idsbench.harness.fewshot import choose, with_shots
from idsbench.harness.protocol import load_protocol
from tests.harness.records import FIXTURE, WALLS_GOLD, write_dataset
from tests.integrations.scripted import METRICS
from tests.support.repairing_model import answering, conversation_key, fenced, lower_entities

PROSE = "I cannot write IDS files, sorry."


@pytest.fixture
def inspect_home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    return tmp_path


def first_answers():
    special = {"fx2-en": PROSE, "fx1-ja": fenced(WALLS_GOLD)}
    return {conversation_key(r["messages"][:-1]): special.get(r["id"], fenced(lower_entities(r["gold_ids"])))
            for r in FIXTURE}


def mock_model(answer, seen):
    def reply(messages, tools, tool_choice, config):
        turns = [{"role": m.role, "content": m.text} for m in messages]
        seen.append(turns)
        output = ModelOutput.from_content(model="mockllm", content=answer(turns))
        output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
        return output

    return get_model("mockllm/model", custom_outputs=reply)


def evaluate(home, data, protocol, answer, seen):
    (log,) = inspect_ai.eval("idsbench/ishigaki_ids_bench", model=mock_model(answer, seen),
                             task_args={"data": str(data), "protocol": protocol}, log_dir=str(home / "logs"),
                             display="none", log_format="json", log_realtime=False)
    assert log.status == "success", log.error
    return log


def score_cli(home, data, outputs, name):
    path = home / f"{name}.jsonl"
    path.write_text("".join(json.dumps({"id": i, "prediction": p}) + "\n" for i, p in outputs.items()),
                    encoding="utf-8")
    assert main(["score", "--predictions", str(path), "--data", str(data), "--out", str(home / name),
                 "--no-progress"]) == 0
    return json.loads((home / name / "summary.json").read_text(encoding="utf-8"))["overall"]


def test_the_repair_loop_scored_per_round_as_ids_bench_scores_it(inspect_home, standin):
    data = write_dataset(inspect_home / "data")
    seen = []
    log = evaluate(inspect_home, data, "repair-3", answering(first_answers()), seen)
    means = {s.name: s.metrics["mean"].value for s in log.results.scores}
    answers = {s.id: s.metadata["rounds"] for s in log.samples}
    assert [len(answers[i]) for i in ("fx1-en", "fx1-ja", "fx2-en")] == [2, 1, 4] and len(seen) == 11
    for index in range(4):
        outputs = {i: a[min(index, len(a) - 1)] for i, a in answers.items()}
        expected = score_cli(inspect_home, data, outputs, f"round{index}")
        for metric in METRICS:
            assert means[f"round{index}_{metric}"] == pytest.approx(expected[metric], abs=1e-12), (index, metric)
    assert all(means[m] == means[f"round3_{m}"] for m in METRICS)

    # `ids-bench run` against the same model: the same rounds, the same numbers
    model = answering(first_answers())
    standin.default_answer = lambda request: model(request["messages"])
    out = inspect_home / "run"
    assert main(["run", "--protocol", "repair-3", "--model", "m", "--base-url", standin.url, "--api-key-env", "none",
                 "--data", str(data), "--out", str(out), "--no-progress"]) == 0
    rounds = json.loads((out / "summary.json").read_text(encoding="utf-8"))["rounds"]
    for entry in rounds:
        for metric in METRICS:
            assert entry["overall"][metric] == pytest.approx(means[f"round{entry['round']}_{metric}"], abs=1e-12)
    inspect_turns = sorted(json.dumps(t, ensure_ascii=False) for t in seen)
    harness_turns = sorted(json.dumps([{"role": m["role"], "content": m["content"]} for m in r["messages"]],
                                      ensure_ascii=False) for r in standin.requests)
    assert inspect_turns == harness_turns  # the same conversations, feedback texts included


def test_few_shot_samples_carry_the_harness_choice(inspect_home):
    data = write_dataset(inspect_home / "data")
    from idsbench.integrations.inspect_task import ishigaki_ids_bench

    task = ishigaki_ids_bench(protocol="fewshot-3", data=str(data))
    pool = load_examples(data)
    fewshot = load_protocol("fewshot-3").fewshot
    for sample, example in zip(task.dataset, pool):
        shots = choose(example, pool, fewshot)
        assert sample.metadata["fewshot"] == [s.id for s in shots]
        assert [m.text for m in sample.input[1:]] == [m["content"] for m in with_shots(example, shots).messages]
