"""Protocols: the packaged files, the pinned prompt (fetch, cache, verify), and `ids-bench run --protocol`.

The official prompt is never in this repository: a stand-in file plays it, with a test-only protocol file
that is paper-0shot.json with the stand-in's hash and a 127.0.0.1 URL.
"""
import hashlib
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from idsbench.cli import main
from idsbench.harness.pinned import PromptSpec, pinned_prompt
from idsbench.harness.prompt import DEFAULT_PROMPT
from idsbench.harness.protocol import PROTOCOLS, load_protocol, protocol_names, resolve
from idsbench.records import InputError
from tests.support.openai_standin import Reply
from tests.support.pinned_prompt import OFFICIAL_SHA256, STANDIN_PROMPT, standin_protocol, write_standin_prompt


@pytest.fixture
def prompt_file(tmp_path):
    return write_standin_prompt(tmp_path)


@pytest.fixture
def file_server():
    """Serves {path: bytes} on 127.0.0.1 and counts the requests."""
    state = {"files": {}, "hits": []}

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def do_GET(self):  # noqa: N802
            state["hits"].append(self.path)
            body = state["files"].get(self.path)
            if body is None:
                self.send_error(404)
                return
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    state["url"] = f"http://127.0.0.1:{server.server_address[1]}"
    yield state
    server.shutdown()
    server.server_close()


def test_packaged_protocols():
    assert protocol_names() == ["fewshot-3", "ishigaki-detailed-v1", "paper-0shot", "paper-fewshot-3",
                                "paper-repair-3", "repair-3"]
    paper = load_protocol("paper-0shot")
    assert paper.sampling == {"temperature": 0.6, "top_p": 0.95, "top_k": 20, "min_p": 0.0, "max_tokens": 15000}
    assert (paper.thinking, paper.timeout_s, paper.retries, paper.paper) == (True, 600, 0, True)
    assert (paper.prompt.source, paper.prompt.sha256, paper.prompt.size) == ("pinned", OFFICIAL_SHA256, 877)
    assert all("f3cb98948d71ed5cadd2470921ce29a401e8c70c/prompts/ishigaki-ids-bench_0shot.txt" in u
               for u in paper.prompt.urls)
    own = resolve(load_protocol("ishigaki-detailed-v1"))  # its packaged prompt matches the pinned hash
    assert own.prompt.text == DEFAULT_PROMPT.read_text(encoding="utf-8").strip() and not own.protocol.paper
    assert (own.sampling, own.thinking, own.retries, own.overrides) == ({"temperature": 0.0}, None, 4, {})


@pytest.mark.parametrize("edit, message", [
    (lambda d: d.update(format="other"), "format"),
    (lambda d: d["sampling"].update(typical_p=0.9), "unknown sampling keys"),
    (lambda d: d.update(thinking="yes"), "thinking"),
    (lambda d: d["prompt"].update(source="url"), "source"),
])
def test_a_broken_protocol_file_is_named(tmp_path, edit, message):
    doc = json.loads((PROTOCOLS / "paper-0shot.json").read_text(encoding="utf-8"))
    edit(doc)
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(InputError, match=message) as err:
        load_protocol(path)
    assert str(path) in str(err.value)
    with pytest.raises(InputError, match="unknown protocol 'paper-1shot'"):
        load_protocol("paper-1shot")


def test_the_official_hash_rejects_a_wrong_file(prompt_file):
    with pytest.raises(InputError) as err:
        resolve(load_protocol("paper-0shot"), prompt_file=prompt_file)
    message = str(err.value)
    assert OFFICIAL_SHA256 in message and hashlib.sha256(STANDIN_PROMPT).hexdigest() in message


def test_fetch_verify_and_cache(tmp_path, file_server, monkeypatch):
    monkeypatch.setenv("NO_PROXY", "127.0.0.1")
    file_server["files"]["/prompts/0shot.txt"] = STANDIN_PROMPT
    spec = load_protocol(standin_protocol(tmp_path, [f"{file_server['url']}/gone.txt",
                                                     f"{file_server['url']}/prompts/0shot.txt"])).prompt
    cache = tmp_path / "cache"
    prompt = pinned_prompt(spec, cache=cache)
    assert prompt.text == STANDIN_PROMPT.decode("utf-8").replace("\r\n", "\n")  # as Path.read_text reads it
    assert file_server["hits"] == ["/gone.txt", "/prompts/0shot.txt"]  # the first URL failed, the second served
    assert pinned_prompt(spec, cache=cache) == prompt and len(file_server["hits"]) == 2  # from the cache
    (cached,) = (cache / "prompts").iterdir()
    cached.write_bytes(b"damaged")
    assert pinned_prompt(spec, cache=cache) == prompt and len(file_server["hits"]) == 4  # damaged: fetched again
    assert cached.read_bytes() == STANDIN_PROMPT


def test_a_wrong_download_names_both_hashes_and_is_not_cached(tmp_path, file_server, monkeypatch):
    monkeypatch.setenv("NO_PROXY", "127.0.0.1")
    file_server["files"]["/p.txt"] = b"<html>a login page</html>"
    spec = load_protocol(standin_protocol(tmp_path, [f"{file_server['url']}/p.txt"])).prompt
    with pytest.raises(InputError) as err:
        pinned_prompt(spec, cache=tmp_path / "cache")
    assert spec.sha256 in str(err.value) and hashlib.sha256(b"<html>a login page</html>").hexdigest() in str(err.value)
    assert not (tmp_path / "cache").exists()


def test_offline_says_how_to_pass_the_file(tmp_path):
    spec = PromptSpec("pinned", "p.txt", "0" * 64, 10, ("http://127.0.0.1:9/p.txt",), "org/repo@abc:p.txt")
    with pytest.raises(InputError, match=r"pass it with --prompt FILE") as err:
        pinned_prompt(spec, cache=tmp_path)
    assert "org/repo@abc:p.txt" in str(err.value) and "http://127.0.0.1:9/p.txt" in str(err.value)


def run_cli(*argv):
    return main([*map(str, argv), "--no-progress", "--audit-profile", "none", "--ids", "s001-en,s002-ja"])


def rows_of(path):
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_run_with_the_paper_protocol_against_the_standin(tmp_path, prompt_file, standin):
    out = tmp_path / "paper"
    standin.script("s002", Reply(status=500))  # no retries in the paper's protocol: one attempt, a failure
    protocol = standin_protocol(tmp_path)
    assert run_cli("run", "--protocol", protocol, "--prompt", prompt_file, "--model", "m", "--base-url", standin.url,
                   "--api-key-env", "none", "--out", out) == 0
    assert len(standin.requests) == 2
    for request in standin.requests:
        assert {k: request.get(k) for k in ("temperature", "top_p", "top_k", "min_p", "max_tokens")} == \
            {"temperature": 0.6, "top_p": 0.95, "top_k": 20, "min_p": 0.0, "max_tokens": 15000}
        assert request["chat_template_kwargs"] == {"enable_thinking": True} and "reasoning_effort" not in request
        assert request["messages"][0] == {"role": "system", "content": prompt_file.read_text(encoding="utf-8")}
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert summary["signature"].endswith("|protocol:paper-0shot")
    assert summary["protocol"]["name"] == "paper-0shot" and summary["protocol"]["overrides"] == {}
    assert summary["protocol"]["paper"] is True
    assert (summary["endpoint"]["timeout"], summary["endpoint"]["retries"]) == (600, 0)
    rows = rows_of(out / "predictions.jsonl")
    assert {r["protocol"] for r in rows} == {"paper-0shot"}
    assert [r["attempts"] for r in rows if r["prediction"] is None] == [1]


@pytest.mark.parametrize("flags, body, overrides", [
    (["--temperature", "0", "--thinking", "off"], {"temperature": 0.0, "chat_template_kwargs": {"enable_thinking": False}},
     {"temperature": 0.0, "thinking": False}),
    (["--reasoning-effort", "high", "--top-k", "20"], {"reasoning_effort": "high", "top_k": 20},
     {"reasoning_effort": "high"}),
    (["--thinking", "server-default", "--max-tokens", "4096"], {"max_tokens": 4096}, {"thinking": None, "max_tokens": 4096}),
    (["--temperature", "0.6", "--thinking", "on"], {"temperature": 0.6}, {}),  # the protocol's own values
])
def test_explicit_flags_override_the_protocol_and_are_recorded(tmp_path, prompt_file, standin, flags, body, overrides):
    out = tmp_path / "run"
    assert run_cli("run", "--protocol", standin_protocol(tmp_path), "--prompt", prompt_file, "--model", "m",
                   "--base-url", standin.url, "--api-key-env", "none", "--out", out, *flags) == 0
    request = standin.requests[0]
    assert {k: request.get(k) for k in body} == body
    if "reasoning_effort" in body or overrides.get("thinking", True) is None:
        assert "chat_template_kwargs" not in request
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert summary["protocol"]["overrides"] == overrides and summary["protocol"]["paper"] is (not overrides)
    assert summary["signature"].endswith("|protocol:paper-0shot" + ("+overrides" if overrides else ""))


def test_default_protocol_is_the_projects_own(tmp_path, standin, capsys):
    out = tmp_path / "own"
    assert run_cli("run", "--model", "m", "--base-url", standin.url, "--api-key-env", "none", "--out", out) == 0
    assert "protocol ishigaki-detailed-v1: not the paper's protocol" in capsys.readouterr().err
    request = standin.requests[0]
    assert request["temperature"] == 0.0 and not {"top_k", "min_p", "chat_template_kwargs"} & set(request)
    assert request["messages"][0]["content"] == DEFAULT_PROMPT.read_text(encoding="utf-8").strip()
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert summary["signature"].endswith("|protocol:ishigaki-detailed-v1") and summary["endpoint"]["retries"] == 4
    custom = tmp_path / "mine.txt"
    custom.write_text("Answer with one IDS file.", encoding="utf-8")
    assert run_cli("run", "--model", "m", "--base-url", standin.url, "--api-key-env", "none", "--out",
                   tmp_path / "mine", "--prompt", custom) == 0
    summary = json.loads((tmp_path / "mine" / "summary.json").read_text(encoding="utf-8"))
    assert summary["protocol"]["overrides"]["prompt"]["name"] == "mine"
    assert summary["signature"].endswith("|protocol:ishigaki-detailed-v1+overrides")


def test_paper_protocol_with_a_wrong_prompt_file_writes_nothing(tmp_path, prompt_file, capsys):
    out = tmp_path / "never"
    assert run_cli("run", "--protocol", "paper-0shot", "--prompt", prompt_file, "--model", "m", "--base-url",
                   "http://127.0.0.1:9/v1", "--api-key-env", "none", "--out", out) == 2
    err = capsys.readouterr().err
    assert OFFICIAL_SHA256 in err and hashlib.sha256(STANDIN_PROMPT).hexdigest() in err and not out.exists()
    assert run_cli("run", "--system", "gold", "--protocol", "paper-0shot", "--out", out) == 2
    assert "--protocol is for endpoints" in capsys.readouterr().err


def test_leaderboard_ranks_runs_of_any_protocol_together_and_shows_it():
    from idsbench.leaderboard.board import comparable

    scoring = "ids_metric:0.1.0|audit:ids-tool-1.0.96|facets:paper|data:abc|n:166|ifcopenshell:0.9.0"
    assert comparable(scoring + "|protocol:paper-0shot") == comparable(scoring) == scoring


def test_generate_follows_the_protocol_too(tmp_path, prompt_file, standin):
    out = tmp_path / "predictions.jsonl"
    assert main(["generate", "--protocol", str(standin_protocol(tmp_path)), "--prompt", str(prompt_file), "--model",
                 "m", "--base-url", standin.url, "--api-key-env", "none", "--out", str(out), "--ids", "s001-en",
                 "--no-progress"]) == 0
    assert standin.requests[0]["top_k"] == 20 and rows_of(out)[0]["protocol"] == "paper-0shot"
