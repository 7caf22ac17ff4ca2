"""Publishing against a loopback stand-in of the Hub API: exactly the planned files, and a loadable dataset;
the metric Space's requirements checked against a loopback stand-in of PyPI."""
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import datasets
import pytest
import yaml

from tests.paths import ROOT
from tests.support.hub_standin import HubStandIn
from idsbench.cli import main
from idsbench.leaderboard.publish import (Plan, Upload, card_configs, dataset_plan, dataset_readme, describe,
                                          metric_plan, push, space_requirement_warnings, split_front_matter)
from tests.leaderboard.runs import results_dir


@pytest.fixture
def hub(monkeypatch):
    """The stand-in, with huggingface_hub pointed at it and its offline switch (set by conftest) lifted."""
    import huggingface_hub.constants

    with HubStandIn() as standin:
        monkeypatch.setenv("HF_ENDPOINT", standin.endpoint)
        monkeypatch.setenv("HF_TOKEN", "hf_standin_token")
        monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_OFFLINE", False)
        yield standin


def expected_dataset_files():
    return {"README.md", "eval.yaml", *(f"data/{p.name}" for p in (ROOT / "data").glob("test-*.jsonl"))}


def test_dataset_plan_is_the_card_the_data_and_eval_yaml():
    plan = dataset_plan("org/ishigaki-ids-bench", ROOT)
    assert set(plan.paths()) == expected_dataset_files() and plan.repo_type == "dataset"
    assert not any("scenarios" in p or p.endswith(".py") for p in plan.paths())
    with_sources = dataset_plan("org/ishigaki-ids-bench", ROOT, include_sources=True).paths()
    assert any(p.startswith("data/scenarios/") for p in with_sources)
    readme = next(u.data for u in plan.uploads if u.path_in_repo == "README.md")
    assert readme == (ROOT / "dataset_card.md").read_bytes()  # the card already has configs: sent as it is


def test_card_without_configs_gets_the_huggingface_yaml_merged(tmp_path):
    (tmp_path / "dataset_card.md").write_text("---\nlicense: cc-by-4.0\n---\n\n# Card\n", encoding="utf-8")
    (tmp_path / ".huggingface.yaml").write_text((ROOT / ".huggingface.yaml").read_text(), encoding="utf-8")
    front, body = split_front_matter(dataset_readme(tmp_path).decode())
    assert front["license"] == "cc-by-4.0" and front["configs"] and front["dataset_info"] and body == "# Card\n"
    assert card_configs(dataset_readme(tmp_path))[0]["config_name"] == "all"


def test_metric_plan_is_the_folder_as_it_is():
    plan = metric_plan("org/ids_metric", ROOT)
    on_disk = {p.relative_to(ROOT / "ids_metric").as_posix() for p in (ROOT / "ids_metric").rglob("*")
               if p.is_file() and "__pycache__" not in p.parts}
    assert set(plan.paths()) == on_disk and "README.md" in on_disk and "ids_metric.py" in on_disk
    assert plan.repo_type == "space" and plan.space_sdk == "gradio"


def test_dry_run_lists_everything_and_sends_nothing(hub, capsys):
    assert main(["publish", "dataset", "--repo-id", "org/ishigaki-ids-bench", "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert all(path in out for path in expected_dataset_files()) and "dry run: nothing uploaded" in out
    assert hub.requests == []


def test_publish_dataset_uploads_exactly_the_plan_and_it_loads_for_every_config(hub, tmp_path, capsys):
    assert main(["publish", "dataset", "--repo-id", "org/ishigaki-ids-bench"]) == 0
    assert "uploaded" in capsys.readouterr().out
    repo = hub.repos[("dataset", "org/ishigaki-ids-bench")]
    assert set(repo.files) == expected_dataset_files() and len(repo.commits) == 1
    assert repo.files["data/test-en-csv-single_turn.jsonl"] == (ROOT / "data/test-en-csv-single_turn.jsonl").read_bytes()
    assert hub.unexpected == [] and all(hub.authorized)
    assert [r[1] for r in hub.requests[:2]] == ["/api/repos/create", "/api/validate-yaml"]
    folder = hub.write_repo("dataset", "org/ishigaki-ids-bench", tmp_path / "published-copy")
    configs = [c["config_name"] for c in card_configs(repo.files["README.md"])]
    assert "all" in configs and len(configs) >= 3
    total = datasets.load_dataset(str(folder), "all", split="test").num_rows
    for config in configs:
        ds = datasets.load_dataset(str(folder), config, split="test")
        assert 0 < ds.num_rows <= total and "gold_ids" in ds.column_names
    assert yaml.safe_load(repo.files["eval.yaml"])["tasks"]


def test_publish_metric_and_leaderboard_spaces(hub, tmp_path):
    push(metric_plan("org/ids_metric", ROOT))
    metric = hub.repos[("space", "org/ids_metric")]
    assert metric.sdk == "gradio" and set(metric.files) == set(metric_plan("org/ids_metric", ROOT).paths())
    folder = results_dir(tmp_path)
    assert main(["publish", "leaderboard", "--repo-id", "org/board", "--results-dir", str(folder)]) == 0
    board = hub.repos[("space", "org/board")]
    assert board.sdk == "static"
    assert set(board.files) == {"README.md", "index.html", "board.json", "board.md", "results/middle.json",
                                "results/strong.json", "results/weak.json"}  # rejected files stay home
    front, _ = split_front_matter(board.files["README.md"].decode())
    assert front["sdk"] == "static" and front["app_file"] == "index.html"
    assert hub.unexpected == []


def test_a_hub_error_is_one_clear_line(hub, capsys, monkeypatch):
    monkeypatch.setattr(hub, "handle_post", lambda path, body: (500, {"error": "boom"}))
    monkeypatch.setattr("huggingface_hub.utils._http.time.sleep", lambda s: None, raising=False)
    assert main(["publish", "metric", "--repo-id", "org/ids_metric"]) == 1
    assert "error: publishing to org/ids_metric failed" in capsys.readouterr().err


def test_describe_names_sizes_and_hashes():
    text = describe(Plan("metric", "o/n", "space", (Upload("app.py", b"print(1)\n", "ids_metric/app.py"),), "gradio"))
    assert text.splitlines()[0] == "metric: 1 files -> o/n (space, sdk gradio)"
    assert "app.py" in text and "9 B" in text and "sha256:" in text and "<- ids_metric/app.py" in text


PYPI_RELEASES = {"evaluate": {"0.4.6": [{"yanked": False}]}, "gradio": {"5.1.0": [{}]},
                 "old-only": {"0.2.0": [{}], "0.1.5": [{"yanked": True}]}}


class _PyPI(BaseHTTPRequestHandler):
    def do_GET(self):  # noqa: N802 - the handler's name
        name = self.path.split("/")[2]
        body = json.dumps({"releases": PYPI_RELEASES[name]}).encode() if name in PYPI_RELEASES else b"{}"
        self.send_response(200 if name in PYPI_RELEASES else 404)
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture
def pypi(monkeypatch):
    server = ThreadingHTTPServer(("127.0.0.1", 0), _PyPI)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    monkeypatch.setenv("IDS_BENCH_PYPI_URL", f"http://127.0.0.1:{server.server_port}")
    yield
    server.shutdown()
    server.server_close()


REQUIREMENTS = [  # (requirements.txt, what the warning says; None: no warning)
    ("evaluate==0.4.6\ngradio>=5,<7\n", None),
    ("ishigaki-ids-bench>=0.1,<0.2", "ishigaki-ids-bench is not on PyPI"),
    ("old-only>=0.1,<0.2  # a comment", "no release on PyPI matches (published: 0.2.0)"),
    ("pkg @ git+https://example.org/pkg@abc\n-e .\n./local\n", None),  # not PyPI's business
]


@pytest.mark.parametrize("requirements, says", REQUIREMENTS)
def test_space_requirements_are_checked_on_pypi(pypi, requirements, says):
    warnings = space_requirement_warnings(requirements)
    assert len(warnings) == (says is not None)
    if says:
        assert says in warnings[0] and "twine upload" in warnings[0] and "git+https://" in warnings[0]


def test_an_unreachable_pypi_is_said(monkeypatch):
    monkeypatch.setenv("IDS_BENCH_PYPI_URL", "http://127.0.0.1:9")
    (warning,) = space_requirement_warnings("evaluate==0.4.6")
    assert warning.startswith("requirements.txt asks for evaluate==0.4.6: could not check PyPI")


def test_metric_dry_run_warns_about_a_distribution_not_on_pypi(pypi, hub, capsys):
    assert main(["publish", "metric", "--repo-id", "org/ids_metric", "--dry-run"]) == 0
    err = capsys.readouterr().err
    assert "warning: requirements.txt asks for ishigaki-ids-bench" in err and "is not on PyPI" in err
    assert hub.requests == []
