"""Endpoint runs fail fast and say why: endpoint flags need --model; an endpoint that cannot be reached
stops the run at its first request (exit 3), without retrying; the first failed generation is printed
when it happens; a resumed run says so. Attempts are counted, never timed."""
import json
import socket
import threading

import pytest

from idsbench.cli import main
from idsbench.harness import endpoint as endpoint_module
from idsbench.harness.endpoint import EndpointConfig, endpoint_system
from idsbench.harness.examples import Example
from idsbench.harness.generate import generate
from idsbench.harness.predictions import Generation
from idsbench.harness.prompt import load_prompt
from idsbench.harness.systems import System, SystemUnreachable
from tests.support.openai_standin import Reply, run_standin
from tests.support.smalldata import IDS, refused_url, write_data

EXIT_UNREACHABLE = 3


@pytest.fixture
def data(tmp_path):
    return write_data(tmp_path / "data", copies=2)  # 8 examples


@pytest.fixture
def attempts(monkeypatch):
    """Every failed request, as the endpoint classifies it (a refused port cannot count them itself)."""
    seen = []
    classify = endpoint_module.classify
    monkeypatch.setattr(endpoint_module, "classify", lambda exc: seen.append(exc) or classify(exc))
    return seen


def run_cli(command, *argv):
    scoring = ("--audit-profile", "none") if command == "run" else ()
    return main([command, *map(str, argv), "--no-progress", *scoring])


@pytest.mark.parametrize("flags", [
    ("--base-url", "http://127.0.0.1:9/v1"), ("--api-key-env", "none"), ("--temperature", "0"),
    ("--thinking", "on"), ("--protocol", "paper-0shot"), ("--retries", "0"), ("--extra-body", "{}"),
])
def test_endpoint_flags_without_model_exit_2_naming_the_flag(data, tmp_path, capsys, flags):
    out = tmp_path / "out"
    assert run_cli("run", "--data", data, "--out", out, *flags) == 2
    err = capsys.readouterr().err
    assert f"{flags[0]} needs --model" in err and not out.exists()
    assert run_cli("generate", "--data", data, "--out", out / "p.jsonl", *flags) == 2
    assert run_cli("run", "--data", data, "--out", out, "--system", "gold", *flags) == 2
    assert f"{flags[0]} is for endpoints; --system gold is an offline baseline" in capsys.readouterr().err
    assert not out.exists()


@pytest.mark.parametrize("concurrency", [1, 4])
def test_a_refused_endpoint_stops_the_run_at_the_first_request(data, tmp_path, capsys, attempts, concurrency):
    out = tmp_path / "refused"
    url = refused_url()
    assert run_cli("run", "--data", data, "--out", out, "--model", "m", "--base-url", url, "--api-key-env",
                   "none", "--retries", "4", "--concurrency", concurrency) == EXIT_UNREACHABLE
    assert len(attempts) == 1  # one request, not retried, no other example tried
    err = capsys.readouterr().err
    assert f"error: cannot reach the endpoint: connection error to {url}/chat/completions:" in err
    assert "refused" in err and "check --base-url" in err
    assert (out / "predictions.jsonl").read_text(encoding="utf-8") == ""  # nothing recorded: a rerun tries all
    assert not (out / "summary.json").exists()


def test_a_tls_handshake_failure_is_unreachable_too(data, tmp_path, capsys, attempts, standin):
    tls_url = standin.url.replace("http://", "https://")  # the stand-in speaks plain HTTP
    assert run_cli("generate", "--data", data, "--out", tmp_path / "p.jsonl", "--model", "m", "--base-url",
                   tls_url, "--api-key-env", "none") == EXIT_UNREACHABLE
    assert len(attempts) == 1 and standin.requests == []
    assert f"cannot reach the endpoint: connection error to {tls_url}/chat/completions" in capsys.readouterr().err


def examples(n):
    return [Example(f"ex-{i}", ({"role": "user", "content": f"walls [ex-{i}]"},)) for i in range(n)]


def endpoint(url, **overrides):
    config = dict(model="m", base_url=url, api_key_env=None, timeout=5.0, retries=2, backoff_s=0.01) | overrides
    return endpoint_system(EndpointConfig(**config), load_prompt())


def test_after_a_first_answer_a_refused_connection_is_one_failed_example(monkeypatch, tmp_path, attempts):
    stand_in = run_standin(monkeypatch)
    state = next(stand_in)
    system = endpoint(state.url)
    assert system.call(examples(1)[0]).prediction is not None
    stand_in.close()  # the server goes away in the middle of the run
    failed = system.call(examples(2)[1])
    assert failed.prediction is None and "connection error" in failed.error and failed.attempts == 1
    assert len(attempts) == 1  # not retried


def closing_listener():
    """A server that accepts each connection and closes it at once (a connection dropped, not refused);
    returns its URL and the list of accepted connections."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    accepted = []

    def serve():
        while True:
            try:
                connection, _ = server.accept()
            except OSError:
                return
            accepted.append(connection)
            connection.close()

    threading.Thread(target=serve, daemon=True).start()
    return f"http://127.0.0.1:{server.getsockname()[1]}/v1", accepted, server


def test_a_dropped_connection_is_retried_as_the_help_says(monkeypatch):
    monkeypatch.setenv("NO_PROXY", "127.0.0.1")
    url, accepted, server = closing_listener()
    try:
        generation = endpoint(url, retries=2).call(examples(1)[0])
    finally:
        server.close()
    assert generation.prediction is None and generation.error.startswith("connection dropped")
    assert generation.attempts == 3 and len(accepted) == 3


def test_generate_raises_unreachable_and_writes_nothing_for_it(tmp_path):
    calls = []

    def call(example):
        calls.append(example.id)
        raise SystemUnreachable("connection error: refused")

    path = tmp_path / "p.jsonl"
    with pytest.raises(SystemUnreachable):
        generate(examples(6), System("down", call), path, concurrency=3, progress=False)
    assert calls == ["ex-0"] and path.read_text(encoding="utf-8") == ""


def test_the_first_failure_is_printed_when_it_happens(tmp_path, capsys):
    def call(example):
        if example.id == "ex-3":
            raise KeyboardInterrupt  # the run never reaches its end
        return Generation(None, error="HTTP 400: bad") if example.id == "ex-1" else Generation("<ids/>")

    with pytest.raises(KeyboardInterrupt):
        generate(examples(5), System("flaky", call), tmp_path / "p.jsonl", progress=False)
    err = capsys.readouterr().err
    assert "first failed generation: ex-1: HTTP 400: bad" in err
    assert err.index("first failed generation") < err.index("interrupted:")


def test_a_resumed_run_says_so(data, tmp_path, capsys):
    out = tmp_path / "gold"
    assert run_cli("run", "--data", data, "--out", out, "--system", "gold", "--ids", ",".join(IDS[:3])) == 0
    assert "resuming" not in capsys.readouterr().err
    assert run_cli("run", "--data", data, "--out", out, "--system", "gold") == 0
    assert f"resuming: 3 of 8 already in {out / 'predictions.jsonl'}" in capsys.readouterr().err
    rows = [json.loads(line) for line in (out / "predictions.jsonl").read_text(encoding="utf-8").splitlines()]
    assert len(rows) == 8


def test_a_first_slow_answer_does_not_hold_back_the_others(tmp_path, standin, monkeypatch):
    """The first example goes out alone only for a bounded while: then the others follow in parallel."""
    monkeypatch.setattr("idsbench.harness.generate.FIRST_ALONE_S", 0.05)
    standin.script("[ex-0]", Reply(delay=1.5))
    for i in range(1, 4):
        standin.script(f"[ex-{i}]", Reply(delay=0.3))
    report = generate(examples(4), endpoint(standin.url), tmp_path / "p.jsonl", concurrency=4, progress=False)
    assert report.written == 4 and standin.max_in_flight == 4
