"""`ids-bench score`: outputs, table, and harness-input errors raised before writing."""
import argparse
import json

import pytest

from idsbench.cli import build_parser, main
from idsbench.synthetic.documents import DOORS, WALLS, ids

GOLD = ids(WALLS, DOORS)


def write_jsonl(path, rows):
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return path


@pytest.fixture()
def data(tmp_path):
    rows = [{"id": f"s00{i}-{lang}", "gold_ids": GOLD, "language": lang, "input_format": "csv",
             "turn_type": "single_turn", "domain": "mep", "ifc_versions": ["IFC4"]}
            for i in (1, 2) for lang in ("en", "ja")]
    return write_jsonl(tmp_path / "test-all.jsonl", rows)


def predictions(tmp_path, rows, name="preds.jsonl"):
    return write_jsonl(tmp_path / name, rows)


def test_score_writes_results_and_summary(tmp_path, data, capsys):
    preds = predictions(tmp_path, [{"id": "s001-en", "prediction": GOLD}, {"id": "s001-ja", "prediction": None},
                                   {"id": "s002-en", "prediction": f"```ids\n{ids(WALLS)}\n```"},
                                   {"id": "s002-ja", "prediction": "nope"}])
    out = tmp_path / "out"
    assert main(["score", "--predictions", str(preds), "--data", str(data), "--out", str(out),
                 "--audit-profile", "none", "--no-progress"]) == 0
    table = capsys.readouterr().out
    assert "language=ja" in table and "n/c" in table and "signature: ids_metric:" in table
    results = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert [r["id"] for r in results] == ["s001-en", "s001-ja", "s002-en", "s002-ja"]
    assert [r["f1"] for r in results] == [1.0, 0.0, 2 * 0.5 / 1.5, 0.0]
    summary = json.loads((out / "summary.json").read_text())
    assert summary["overall"]["n"] == 4 and summary["overall"]["content"] is None
    assert summary["breakdowns"]["language"]["en"]["facet_f1"] == pytest.approx((1 + 2 / 3) / 2)
    assert "|audit:none|" in summary["signature"]


@pytest.mark.parametrize("lines,message", [
    (['{"id": "s001-en", "prediction": "x"}', "{broken"], "preds.jsonl:2: not JSON"),
    (['{"id": "s001-en", "prediction": "x"}', '{"id": "s001-en", "prediction": "y"}'], "duplicate id 's001-en'"),
    (['{"id": "s009-en", "prediction": "x"}'], "ids not in the data: s009-en"),
    (['{"id": "s001-en", "prediction": "x"}'], "missing predictions for: s001-ja, s002-en, s002-ja"),
    (['{"id": "s001-en", "prediction": 3}'], "must be a string or null"),
    (['["s001-en"]'], "expected an object"),
])
def test_bad_predictions_file_is_an_error_naming_the_problem(tmp_path, data, capsys, lines, message):
    preds = tmp_path / "preds.jsonl"
    preds.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = tmp_path / "out"
    assert main(["score", "--predictions", str(preds), "--data", str(data), "--out", str(out)]) == 2
    assert message in capsys.readouterr().err
    assert not out.exists(), "nothing may be written when the input is bad"


def test_missing_data_folder_is_an_error(tmp_path, capsys):
    preds = predictions(tmp_path, [])
    assert main(["score", "--predictions", str(preds), "--data", str(tmp_path / "nowhere")]) == 2
    assert "no JSONL data files" in capsys.readouterr().err


def test_workers_and_time_limit_give_the_same_files(tmp_path, data, capsys):
    preds = predictions(tmp_path, [{"id": "s001-en", "prediction": GOLD}, {"id": "s001-ja", "prediction": None},
                                   {"id": "s002-en", "prediction": f"```ids\n{ids(WALLS)}\n```"},
                                   {"id": "s002-ja", "prediction": "<think>x</think>nope"}])
    outs = []
    for extra in ([], ["--workers", "2", "--time-limit", "30"], ["--time-limit", "30"]):
        out = tmp_path / f"out{len(outs)}"
        assert main(["score", "--predictions", str(preds), "--data", str(data), "--out", str(out),
                     "--no-progress", *extra]) == 0
        outs.append(((out / "results.jsonl").read_text(), (out / "summary.json").read_text().replace(str(out), "")))
    assert outs[0] == outs[1] == outs[2]


def test_line_separators_inside_outputs_do_not_split_lines(tmp_path, data):
    # json.dumps(ensure_ascii=False) leaves U+2028, U+2029 and U+0085 unescaped; str.splitlines() cut there
    odd = GOLD.replace("<info>", "<info>\u2028\u2029\u0085")
    preds = tmp_path / "preds.jsonl"
    preds.write_text("".join(json.dumps({"id": i, "prediction": odd}, ensure_ascii=False) + "\n"
                             for i in ("s001-en", "s001-ja", "s002-en", "s002-ja")), encoding="utf-8")
    out = tmp_path / "out"
    assert main(["score", "--predictions", str(preds), "--data", str(data), "--out", str(out),
                 "--audit-profile", "none", "--no-progress"]) == 0
    assert [json.loads(line)["f1"] for line in (out / "results.jsonl").read_text().split("\n") if line] == [1.0] * 4


def test_a_line_that_is_not_utf8_is_named(tmp_path, data, capsys):
    preds = tmp_path / "preds.jsonl"
    preds.write_bytes(b'{"id": "s001-en", "prediction": "x"}\n{"id": "s001-ja", "prediction": "\xff"}\n')
    assert main(["score", "--predictions", str(preds), "--data", str(data), "--out", str(tmp_path / "o")]) == 2
    assert "preds.jsonl:2: not UTF-8" in capsys.readouterr().err


COMMANDS_WITH_A_PROFILE = [  # every command that scores: its arguments up to the profile option
    ["score", "--predictions", "{preds}", "--data", "{data}", "--out", "{out}"],
    ["run", "--data", "{folder}", "--out", "{out}"],
    ["submission", "rescore", "{folder}", "--out", "{out}", "--data", "{data}"],
]


@pytest.mark.parametrize("argv", COMMANDS_WITH_A_PROFILE, ids=lambda a: " ".join(a[:2]))
def test_an_unknown_audit_profile_stops_a_command_before_it_writes(tmp_path, data, capsys, argv):
    preds = predictions(tmp_path, [{"id": i, "prediction": GOLD} for i in ("s001-en", "s001-ja", "s002-en", "s002-ja")])
    out = tmp_path / "out"
    fill = {"preds": preds, "data": data, "out": out, "folder": tmp_path}
    with pytest.raises(SystemExit) as stop:
        main([a.format(**{k: str(v) for k, v in fill.items()}) for a in argv] + ["--audit-profile", "bogus"])
    assert stop.value.code == 2 and not out.exists()
    assert "invalid choice: 'bogus' (choose from 'ids-tool-1.0.96', 'ids-tool-latest', 'none')" in capsys.readouterr().err


def test_version_and_every_command_answers_help(capsys):
    with pytest.raises(SystemExit):
        main(["--version"])
    assert capsys.readouterr().out.startswith("ids-bench 0.1.0")
    for command in ("score", "audit", "run", "generate", "compare", "failures", "leaderboard", "publish", "submission"):
        with pytest.raises(SystemExit) as stop:
            main([command, "--help"])
        assert stop.value.code == 0 and "usage: ids-bench " + command in capsys.readouterr().out


def commands(parser, words=()):
    """(command words, parser) of every command and action under the umbrella parser."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield (*words, name), sub
                yield from commands(sub, (*words, name))


def test_every_command_documents_its_exit_codes():
    found = dict(commands(build_parser()))
    assert {("score",), ("audit",), ("run",), ("leaderboard", "build"), ("publish",), ("integrations",)} <= set(found)
    for words, parser in found.items():
        text = parser.format_help()
        assert "exit code" in text and "130 interrupted" in text, words


MEANINGLESS = [  # an option the command would ignore is refused, in that command's words
    (["submission", "check", "folder", "--out", "x"],
     "ids-bench submission check: error: unrecognized arguments: --out x"),
    (["publish", "metric", "--repo-id", "a/b", "--include-sources"],
     "ids-bench publish metric: error: unrecognized arguments: --include-sources"),
    (["publish", "leaderboard", "--repo-id", "a/b", "--results-dir", "r", "--root", "."],
     "ids-bench publish leaderboard: error: unrecognized arguments: --root ."),
    (["publish", "leaderboard", "--repo-id", "a/b"], "the following arguments are required: --results-dir"),
    (["score", "--predictions", "p.jsonl", "--bogus"], "ids-bench score: error: unrecognized arguments: --bogus"),
]


@pytest.mark.parametrize("argv, message", MEANINGLESS, ids=lambda v: " ".join(v[:2]) if isinstance(v, list) else "")
def test_an_option_a_command_would_ignore_is_refused(capsys, argv, message):
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2 and message in capsys.readouterr().err
