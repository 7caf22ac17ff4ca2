"""Inspect end to end: `idsbench/ishigaki_ids_bench` with the mockllm model answering from a script, on all
166 examples (the golds, a third of them degraded), gives the numbers `ids-bench score` gives."""
import inspect_ai  # in the test extra: a missing install fails here, it never skips
import pytest
from inspect_ai.model import ModelOutput, ModelUsage, get_model

from idsbench.harness.prompt import DEFAULT_PROMPT
from tests.integrations.scripted import DATA, METRICS, by_conversation, conversation_key, records, score_with_cli, scripted


@pytest.fixture
def inspect_home(tmp_path, monkeypatch):
    """Inspect's traces and buffers go to a temporary folder, not the user's data folder."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    return tmp_path


def scripted_model(answers, seen):
    def reply(messages, tools, tool_choice, config):
        seen.append((messages, config))
        output = ModelOutput.from_content(model="mockllm", content=answers[conversation_key(
            [{"role": m.role, "content": m.text} for m in messages])])
        output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)  # no tokenizer download
        return output

    return get_model("mockllm/model", custom_outputs=reply)


def test_inspect_matches_ids_bench_score(inspect_home):
    rows = records()
    outputs = scripted(rows)
    seen = []
    (log,) = inspect_ai.eval("idsbench/ishigaki_ids_bench", model=scripted_model(by_conversation(rows, outputs), seen),
                             task_args={"data": str(DATA)}, log_dir=str(inspect_home / "logs"), display="none",
                             log_format="json", log_realtime=False, max_samples=200)  # the cheapest logging
    assert log.status == "success", log.error
    means = {s.name: s.metrics["mean"].value for s in log.results.scores}  # one entry per key of the value dict
    expected = score_with_cli(inspect_home, outputs)
    assert set(means) == set(METRICS)
    for metric in METRICS:
        assert means[metric] == pytest.approx(expected[metric], abs=1e-12), metric
    assert log.results.completed_samples == expected["n"] == 166

    # Input: the protocol's prompt, then the record's conversation; the protocol's settings as the config.
    assert all(messages[0].role == "system" and messages[0].text == DEFAULT_PROMPT.read_text(encoding="utf-8").strip()
               for messages, _ in seen)
    assert max(len(messages) for messages, _ in seen) >= 4  # multi-turn records keep their history
    assert seen[0][1].temperature == 0.0 and seen[0][1].max_retries == 4
    assert log.eval.metadata["protocol"]["name"] == "ishigaki-detailed-v1"

    # Per sample: the value dict, and the audit findings as explanation.
    sample = next(s for s in log.samples if s.scores["ids_scorer"].value["content"] == 0
                  and s.scores["ids_scorer"].value["processability"] == 1)
    score = sample.scores["ids_scorer"]
    assert set(score.value) == set(METRICS) and score.explanation.startswith("audit: Ids")
    assert score.metadata["audit_codes"] and "facets:" in score.explanation


def test_inspect_task_under_the_paper_protocol_settings(tmp_path):
    from idsbench.integrations.inspect_task import ishigaki_ids_bench
    from tests.support.pinned_prompt import STANDIN_PROMPT, standin_protocol

    prompt = tmp_path / "p.txt"
    prompt.write_bytes(STANDIN_PROMPT)
    task = ishigaki_ids_bench(protocol=str(standin_protocol(tmp_path)), prompt=str(prompt), subset="ja")
    config = task.config
    assert (config.temperature, config.top_p, config.top_k, config.max_tokens) == (0.6, 0.95, 20, 15000)
    assert config.extra_body == {"min_p": 0.0, "chat_template_kwargs": {"enable_thinking": True}}
    assert (config.attempt_timeout, config.max_retries) == (600, 0)
    assert len(task.dataset) == 83 and all(s.metadata["language"] == "ja" for s in task.dataset)
    assert task.dataset[0].input[0].text == prompt.read_text(encoding="utf-8")
