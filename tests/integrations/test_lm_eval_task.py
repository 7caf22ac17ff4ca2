"""lm-evaluation-harness end to end: lm-eval's local-chat-completions model against the loopback stand-in, on
all 166 examples (the golds, a third of them degraded), gives the numbers `ids-bench score` gives."""
import json

import pytest

from idsbench.cli import main
from idsbench.integrations.cli import LM_EVAL_TASKS
from tests.integrations.scripted import (DATA, METRICS, by_conversation, conversation_key, records, score_with_cli,
                                        scripted)
from tests.support.pinned_prompt import STANDIN_PROMPT, standin_protocol


def run_lm_eval(url, metadata):
    """What `lm_eval run --model local-chat-completions --tasks ishigaki_ids_bench --include_path DIR
    --apply_chat_template --metadata JSON` does, in this process. The command line would first index
    lm-eval's thousands of built-in tasks (10 s); include_defaults=False skips that, nothing else changes."""
    from lm_eval import simple_evaluate
    from lm_eval.tasks import TaskManager

    return simple_evaluate(
        model="local-chat-completions", model_args=f"base_url={url}/chat/completions,model=standin,max_retries=1",
        tasks=["ishigaki_ids_bench"], apply_chat_template=True, metadata=metadata,
        task_manager=TaskManager(include_path=str(LM_EVAL_TASKS), include_defaults=False, metadata=metadata))


def test_lm_eval_matches_ids_bench_score(tmp_path, standin):
    rows = records()
    outputs = scripted(rows)
    answers = by_conversation(rows, outputs)
    standin.default_answer = lambda request: answers[conversation_key(request["messages"])]
    prompt = tmp_path / "standin_0shot.txt"
    prompt.write_bytes(STANDIN_PROMPT)
    results = run_lm_eval(standin.url, {"protocol": str(standin_protocol(tmp_path)), "prompt": str(prompt),
                                        "data": str(DATA)})

    expected = score_with_cli(tmp_path, outputs)
    got = results["results"]["ishigaki_ids_bench"]
    for metric in METRICS:
        assert got[f"{metric},none"] == pytest.approx(expected[metric], abs=1e-12), metric
    assert 0.5 < expected["content"] < 0.9 and expected["facet_f1"] < expected["recall"] + 0.1  # not trivial
    assert results["n-samples"]["ishigaki_ids_bench"]["effective"] == len(rows) == expected["n"] == 166

    # Requests: the dataset's conversation after the protocol's prompt, with its sampling settings.
    assert len(standin.requests) == 166
    multi = [r for r in standin.requests if len(r["messages"]) > 2]
    assert multi and all([m["role"] for m in r["messages"]][:3] == ["system", "user", "assistant"] for r in multi)
    for request in standin.requests:
        assert request["messages"][0] == {"role": "system", "content": prompt.read_text(encoding="utf-8")}
        assert {k: request[k] for k in ("temperature", "top_p", "top_k", "min_p", "max_tokens")} == \
            {"temperature": 0.6, "top_p": 0.95, "top_k": 20, "min_p": 0.0, "max_tokens": 15000}
        assert request["chat_template_kwargs"] == {"enable_thinking": True} and request["stop"] == []
    recorded = results["configs"]["ishigaki_ids_bench"]["metadata"]["protocol_settings"]
    assert recorded["name"] == "paper-0shot" and recorded["overrides"] == {}


def test_the_task_folder_is_printed_for_include_path(capsys):
    assert main(["integrations", "lm-eval-path"]) == 0
    folder = capsys.readouterr().out.strip()
    assert folder == str(LM_EVAL_TASKS) and (LM_EVAL_TASKS / "ishigaki_ids_bench" / "ishigaki_ids_bench.yaml").is_file()
    assert main(["integrations"]) == 0 and "pkg://idsbench.integrations.rewards" in capsys.readouterr().out


def test_few_shot_protocols_send_what_ids_bench_run_sends(tmp_path, standin):
    from tests.harness.records import write_dataset

    data = write_dataset(tmp_path / "data")
    results = run_lm_eval(standin.url, {"protocol": "fewshot-3", "data": str(data)})
    assert results["n-samples"]["ishigaki_ids_bench"]["effective"] == 5
    from_lm_eval = sorted(json.dumps(r["messages"], ensure_ascii=False) for r in standin.requests)
    standin.requests.clear()
    assert main(["run", "--protocol", "fewshot-3", "--model", "m", "--base-url", standin.url, "--api-key-env", "none",
                 "--data", str(data), "--out", str(tmp_path / "run"), "--no-progress", "--audit-profile", "none"]) == 0
    assert from_lm_eval == sorted(json.dumps(r["messages"], ensure_ascii=False) for r in standin.requests)
    assert all(len(json.loads(m)) > 2 for m in from_lm_eval)  # the solved examples came first


def test_repair_protocols_are_refused_with_the_reason(standin):
    with pytest.raises(ValueError, match="cannot express"):
        run_lm_eval(standin.url, {"protocol": "repair-3"})
