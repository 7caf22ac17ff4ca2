"""`ids-bench run --protocol repair-3` and `--protocol fewshot-3` end to end against an OpenAI-compatible server
built on a real HTTP framework (FastAPI served by uvicorn, both installed with the test extra's gradio) on
127.0.0.1: results written, per-round scores in summary.json, the table and report.html, and a rerun
resumes instead of asking again."""
import json
import socket
import threading
import time

import pytest
import uvicorn
from fastapi import FastAPI, Request

from idsbench.cli import main
from tests.harness.records import FIXTURE, write_dataset
from tests.support.repairing_model import answering, conversation_key, fenced, lower_entities


def chat_app(answer, requests):
    app = FastAPI()

    @app.post("/v1/chat/completions")
    async def completions(request: Request) -> dict:
        body = await request.json()
        requests.append(body)
        return {"id": f"chatcmpl-{len(requests)}", "object": "chat.completion", "created": int(time.time()),
                "model": body["model"], "usage": {"prompt_tokens": 5, "completion_tokens": 5, "total_tokens": 10},
                "choices": [{"index": 0, "finish_reason": "stop",
                             "message": {"role": "assistant", "content": answer(body["messages"])}}]}

    return app


@pytest.fixture
def server(monkeypatch):
    """{"url", "requests", "answer"}: a uvicorn server on a free 127.0.0.1 port, in a thread."""
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("NO_PROXY", "127.0.0.1")
    state = {"requests": [], "answer": lambda messages: "no answer scripted"}
    app = chat_app(lambda messages: state["answer"](messages), state["requests"])
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    uv = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off"))
    thread = threading.Thread(target=uv.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    while not uv.started and thread.is_alive():
        time.sleep(0.01)
    state["url"] = f"http://127.0.0.1:{sock.getsockname()[1]}/v1"
    yield state
    uv.should_exit = True
    thread.join(timeout=10)
    sock.close()


def run(server, data, out, protocol):
    return main(["run", "--protocol", protocol, "--model", "served", "--base-url", server["url"], "--api-key-env",
                 "none", "--data", str(data), "--out", str(out), "--concurrency", "2", "--no-progress"])


def test_repair_and_few_shot_runs_against_a_real_server(server, tmp_path, capsys):
    data = write_dataset(tmp_path / "data")
    first = {conversation_key(r["messages"][:-1]): fenced(lower_entities(r["gold_ids"])) for r in FIXTURE}
    server["answer"] = answering(first)
    out = tmp_path / "repair"
    assert run(server, data, out, "repair-3") == 0
    assert len(server["requests"]) == 2 * len(FIXTURE)  # every first answer had a 103, every repair fixed it
    printed = capsys.readouterr().out
    assert "repair rounds (repair-3)" in printed and "\n1             5           100.0" in printed
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert [(r["round"], r["overall"]["content"]) for r in summary["rounds"]] == [(0, 0.0), (1, 1.0), (2, 1.0),
                                                                                  (3, 1.0)]
    assert '<table id="rounds">' in (out / "report.html").read_text(encoding="utf-8")
    assert run(server, data, out, "repair-3") == 0  # resumed: nothing asked again
    assert len(server["requests"]) == 2 * len(FIXTURE)
    assert f"resuming: {len(FIXTURE)} of {len(FIXTURE)} already in" in capsys.readouterr().err

    server["answer"] = lambda messages: fenced(FIXTURE[0]["gold_ids"])
    out = tmp_path / "fewshot"
    assert run(server, data, out, "fewshot-3") == 0
    rows = [json.loads(line) for line in (out / "predictions.jsonl").read_text(encoding="utf-8").splitlines()]
    assert all(row["fewshot"] for row in rows) and len(server["requests"]) == 3 * len(FIXTURE)
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert summary["signature"].endswith("|protocol:fewshot-3") and summary["overall"]["n"] == len(FIXTURE)
