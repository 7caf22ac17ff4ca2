"""A run whose generations all or mostly failed ends with one line (the count and the first error) and a
non-zero exit (--allow-failures: 0); a few failures are a warning; report.html shows a banner. An endpoint
that cannot be reached at all stops the run at its first request (test_endpoint_errors.py)."""
import re

import pytest

from idsbench.cli import main
from idsbench.harness.failures import Failures, one_line
from tests.support.openai_standin import Reply
from tests.support.smalldata import IDS, write_data

EXIT_GENERATIONS_FAILED = 3


@pytest.fixture
def data(tmp_path):
    return write_data(tmp_path / "data")


def run_rejected(standin, data, out, *extra):
    """Every request is answered 400 (the request's fault: never retried)."""
    standin.script("IDS Version", *[Reply(status=400)] * len(IDS))
    return main(["run", "--model", "m", "--base-url", standin.url, "--api-key-env", "none", "--data", str(data),
                 "--out", str(out), "--audit-profile", "none", "--no-progress", *extra])


def test_a_run_where_every_request_fails_says_so_in_one_line(tmp_path, data, capsys, standin):
    out = tmp_path / "rejected"
    assert run_rejected(standin, data, out) == EXIT_GENERATIONS_FAILED
    last = capsys.readouterr().err.strip().splitlines()[-1]
    assert re.match(rf"error: {len(IDS)} of {len(IDS)} generations failed \(first: {IDS[0]}: HTTP 400: .*scripted 400"
                    r".*\); fix the cause and rerun with --retry-failed", last), last
    html = (out / "report.html").read_text(encoding="utf-8")
    banner = re.search(r'<div class="banner fail" id="failure-banner">(.*?)</div>', html, re.S)
    assert banner and f"{len(IDS)} of {len(IDS)} generations failed" in banner.group(1)
    assert "HTTP 400" in banner.group(1)


def test_allow_failures_keeps_exit_code_zero(tmp_path, data, capsys, standin):
    assert run_rejected(standin, data, tmp_path / "r", "--allow-failures") == 0
    assert capsys.readouterr().err.strip().splitlines()[-1].startswith(f"warning: {len(IDS)} of {len(IDS)}")


def test_generate_says_the_same(tmp_path, data, capsys, standin):
    standin.script("IDS Version", *[Reply(status=400)] * len(IDS))
    out = tmp_path / "p.jsonl"
    assert main(["generate", "--model", "m", "--base-url", standin.url, "--api-key-env", "none",
                 "--data", str(data), "--out", str(out), "--no-progress"]) == EXIT_GENERATIONS_FAILED
    assert f"{len(IDS)} of {len(IDS)} generations failed" in capsys.readouterr().err.strip().splitlines()[-1]


def test_a_clean_run_has_no_banner(tmp_path, data, capsys):
    out = tmp_path / "gold"
    assert main(["run", "--system", "gold", "--data", str(data), "--out", str(out), "--audit-profile", "none",
                 "--no-progress"]) == 0
    assert "generations failed" not in capsys.readouterr().err
    assert 'id="failure-banner"' not in (out / "report.html").read_text(encoding="utf-8")


@pytest.mark.parametrize("failed, total, mostly", [(0, 4, False), (1, 4, False), (2, 4, False), (3, 4, True),
                                                   (4, 4, True), (0, 0, False)])
def test_mostly_means_more_than_half(failed, total, mostly):
    assert Failures(failed, total).mostly is mostly


def test_error_texts_become_one_short_line():
    assert one_line("HTTP 502: <html>\n<body>\n  Bad gateway</body></html>") == \
        "HTTP 502: <html> <body> Bad gateway</body></html>"
    assert len(one_line("x" * 5000)) == 300 and one_line(None) == "no error recorded"
