"""Generation against the OpenAI stand-in (127.0.0.1 only): concurrency, retries, timeouts, truncation,
interruption and resume. Every behaviour is scripted per request in the stand-in."""
import json

import pytest

from idsbench.example import Reference
from idsbench.harness.endpoint import EndpointConfig, endpoint_system
from idsbench.harness.examples import Example
from idsbench.harness.generate import generate
from idsbench.harness.predictions import Generation
from idsbench.harness.prompt import load_prompt
from idsbench.harness.systems import System
from idsbench.pipeline import evaluate_one
from tests.harness.records import WALLS_GOLD
from tests.support.openai_standin import Reply

PROMPT = load_prompt()


def examples(n):
    """Example i's user message carries the marker [ex-i] the stand-in scripts on; the gold is WALLS_GOLD."""
    return [Example(f"ex-{i}", ({"role": "user", "content": f"IDS Version: IFC4\n\nWalls please [ex-{i}]"},),
                    {"language": "en"}, WALLS_GOLD) for i in range(n)]


def endpoint(url, **overrides):
    config = dict(model="standin-model", base_url=url, api_key_env=None, timeout=5.0, retries=2, backoff_s=0.01)
    return endpoint_system(EndpointConfig(**(config | overrides)), PROMPT)


def rows(path):
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def by_id(path):
    return {r["id"]: r for r in rows(path)}


def test_requests_carry_prompt_and_conversation_without_gold(standin, tmp_path):
    system = endpoint(standin.url, temperature=0.2, top_p=0.9, max_tokens=123, seed=7, extra_body={"top_k": 5})
    generate(examples(1), system, tmp_path / "p.jsonl", progress=False)
    request = standin.requests[0]
    assert request["model"] == "standin-model"
    assert request["messages"][0] == {"role": "system", "content": PROMPT.text}
    assert [m["role"] for m in request["messages"]] == ["system", "user"]
    assert WALLS_GOLD not in json.dumps(request, ensure_ascii=False)
    assert (request["temperature"], request["top_p"], request["max_tokens"], request["seed"], request["top_k"]) == \
        (0.2, 0.9, 123, 7, 5)


def test_rows_record_output_usage_and_latency(standin, tmp_path):
    standin.default_answer = lambda request: f"```ids\n{WALLS_GOLD}\n```"
    report = generate(examples(2), endpoint(standin.url), tmp_path / "p.jsonl", progress=False)
    assert (report.written, report.failed) == (2, 0)
    row = by_id(tmp_path / "p.jsonl")["ex-0"]
    assert row["finish_reason"] == "stop" and row["error"] is None and row["attempts"] == 1
    assert row["usage"]["total_tokens"] == 18 and row["latency_s"] > 0
    assert row["model"] == "standin-model" and row["system"] == "endpoint"
    assert evaluate_one(row["prediction"], Reference("ex-0", WALLS_GOLD)).facets.f1 == 1.0


def test_parallel_requests(standin, tmp_path):
    for i in range(6):
        standin.script(f"[ex-{i}]", Reply(delay=0.3))
    report = generate(examples(6), endpoint(standin.url), tmp_path / "p.jsonl", concurrency=3, progress=False)
    assert report.written == 6 and standin.max_in_flight == 3  # three requests were open at once
    assert sorted(by_id(tmp_path / "p.jsonl")) == [f"ex-{i}" for i in range(6)]


def test_retry_after_server_error(standin, tmp_path):
    standin.script("[ex-1]", Reply(status=500), Reply(status=503))
    generate(examples(2), endpoint(standin.url), tmp_path / "p.jsonl", progress=False)
    row = by_id(tmp_path / "p.jsonl")["ex-1"]
    assert row["prediction"] is not None and row["error"] is None and row["attempts"] == 3
    assert len(standin.requests_for("[ex-1]")) == 3


def test_rate_limit_is_retried_but_a_bad_request_is_not(standin, tmp_path):
    standin.script("[ex-0]", Reply(status=429))
    standin.script("[ex-1]", Reply(status=400), Reply())
    generate(examples(2), endpoint(standin.url), tmp_path / "p.jsonl", progress=False)
    result = by_id(tmp_path / "p.jsonl")
    assert result["ex-0"]["attempts"] == 2 and result["ex-0"]["prediction"] is not None
    assert result["ex-1"]["prediction"] is None and "HTTP 400" in result["ex-1"]["error"]
    assert len(standin.requests_for("[ex-1]")) == 1


def test_timeout_is_a_recorded_failure_and_the_run_goes_on(standin, tmp_path):
    standin.script("[ex-0]", Reply(delay=3.0), Reply(delay=3.0))
    report = generate(examples(3), endpoint(standin.url, timeout=0.3, retries=1), tmp_path / "p.jsonl",
                      concurrency=3, progress=False)
    result = by_id(tmp_path / "p.jsonl")
    assert report.failed == 1 and result["ex-0"]["prediction"] is None
    assert result["ex-0"]["error"] == "timeout" and result["ex-0"]["attempts"] == 2
    assert result["ex-1"]["prediction"] is not None and result["ex-2"]["prediction"] is not None
    failed = evaluate_one(result["ex-0"]["prediction"], Reference("ex-0", WALLS_GOLD))
    assert failed.facets.f1 == 0.0 and failed.error == "empty output"


def test_truncated_answer_keeps_finish_reason_length(standin, tmp_path):
    cut = f"```ids\n{WALLS_GOLD[: len(WALLS_GOLD) // 2]}"
    standin.script("[ex-0]", Reply(content=cut, finish_reason="length"))
    generate(examples(1), endpoint(standin.url), tmp_path / "p.jsonl", progress=False)
    row = by_id(tmp_path / "p.jsonl")["ex-0"]
    assert row["finish_reason"] == "length" and row["prediction"] == cut and row["error"] is None
    assert evaluate_one(row["prediction"], Reference("ex-0", WALLS_GOLD)).facets.f1 == 0.0


def test_no_api_key_for_openai_itself_is_an_input_error(monkeypatch):
    from idsbench.harness.endpoint import api_key
    from idsbench.records import InputError

    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with pytest.raises(InputError, match="OPENAI_API_KEY"):
        api_key(EndpointConfig(model="m"))


def interrupting(system: System, after: int) -> System:
    """The same system, but Ctrl-C arrives during call number `after + 1`."""
    calls = []

    def call(example):
        calls.append(example.id)
        if len(calls) == after + 1:
            raise KeyboardInterrupt
        return system.call(example)

    return System(system.name, call, system.settings)


def test_interrupt_then_resume_loses_and_duplicates_nothing(standin, tmp_path):
    path, items = tmp_path / "p.jsonl", examples(7)
    with pytest.raises(KeyboardInterrupt):
        generate(items, interrupting(endpoint(standin.url), after=3), path, progress=False)
    first = path.read_text(encoding="utf-8")
    assert [r["id"] for r in rows(path)] == ["ex-0", "ex-1", "ex-2"]
    report = generate(items, endpoint(standin.url), path, progress=False)
    assert report.skipped == 3 and report.written == 4
    assert path.read_text(encoding="utf-8").startswith(first)
    assert sorted(r["id"] for r in rows(path)) == [e.id for e in items]
    # nothing saved was asked for again (a request in flight at the interrupt may be redone: it was not saved)
    assert all(len(standin.requests_for(f"[ex-{i}]")) == 1 for i in range(3))


def test_interrupt_with_parallel_workers(standin, tmp_path):
    path, items = tmp_path / "p.jsonl", examples(12)
    for i in range(12):
        standin.script(f"[ex-{i}]", Reply(delay=0.05))
    with pytest.raises(KeyboardInterrupt):
        generate(items, interrupting(endpoint(standin.url), after=5), path, concurrency=4, progress=False)
    saved = [r["id"] for r in rows(path)]
    assert len(saved) == len(set(saved)) <= 5
    generate(items, endpoint(standin.url), path, concurrency=4, progress=False)
    final = [r["id"] for r in rows(path)]
    assert sorted(final) == sorted(e.id for e in items) and final[: len(saved)] == saved


def test_a_crashing_system_is_a_failed_example(tmp_path):
    def call(example):
        if example.id == "ex-1":
            raise RuntimeError("boom")
        return Generation("ok")

    report = generate(examples(3), System("flaky", call), tmp_path / "p.jsonl", progress=False)
    result = by_id(tmp_path / "p.jsonl")
    assert report.failed == 1 and result["ex-1"]["prediction"] is None and "boom" in result["ex-1"]["error"]
