"""Dataset machinery: records, build determinism, YAML configs, loader, quality gates (ishigaki_ids_bench.py).

Fixture checkouts are written into tmp folders; the real data/scenarios is only read (and only by the
staleness and real-load tests, which skip while it is empty).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import datasets
import pytest
from datasets import List, Value

import ishigaki_ids_bench as bench
from idsbench.dataset import authoring, gates
from idsbench.dataset import ids_analysis as analysis
from idsbench.dataset.golds import parse_gold
from idsbench.dataset.scenarios import read_all
from idsbench.synthetic.documents import entity, enumeration, facet, ids, prop, restriction, spec
from tests.paths import ROOT

REAL_SCENARIOS = sorted((ROOT / "data" / "scenarios").glob("s[0-9][0-9][0-9]")) \
    if (ROOT / "data" / "scenarios").is_dir() else []


@pytest.fixture(autouse=True)
def offline_hf(tmp_path_factory, monkeypatch):
    """No network and no cache outside tmp (datasets read its config at import, so patch it too)."""
    home = tmp_path_factory.mktemp("hf_home")
    for var, value in {"HF_HUB_OFFLINE": "1", "HF_EVALUATE_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1",
                       "HF_HOME": str(home), "HF_DATASETS_CACHE": str(home / "datasets")}.items():
        monkeypatch.setenv(var, value)
    monkeypatch.setattr(datasets.config, "HF_HUB_OFFLINE", True)
    monkeypatch.setattr(datasets.config, "HF_DATASETS_CACHE", home / "datasets")
    datasets.disable_progress_bars()


# --------------------------------------------------------------------------------------------- fixtures

ANY_SET = restriction("xs:string", facet("pattern", analysis.ANY_PSET_PATTERN))
PROHIBITED = 'minOccurs="0" maxOccurs="0"'


def wall_gold(lang: str, rating: str = "EI60") -> str:
    name = "Fire walls" if lang == "en" else "防火区画の壁"
    return ids(spec(entity("IFCWALL"), prop("Pset_WallCommon", "FireRating", rating), name=name, version="IFC4"),
               title="s001-fire-walls")


def road_gold(lang: str, extended: bool) -> str:
    names = ("Pavement", "Kerbs") if lang == "en" else ("舗装", "縁石")
    custom = "Owner_Road" if lang == "en" else "道路管理"
    thickness = restriction("xs:double", facet("minInclusive", "0.05"))
    first = spec(entity("IFCPAVEMENT", "FLEXIBLE"), prop(custom, "Thickness", thickness, "IFCPOSITIVELENGTHMEASURE"),
                 name=names[0], version="IFC4X3_ADD2")
    second = spec(entity("IFCKERB"), name=names[1], version="IFC4X3_ADD2", occurs=PROHIBITED)
    return ids(first, *([second] if extended else []), title="Road pavement" if lang == "en" else "道路舗装")


def beam_gold(lang: str) -> str:
    name = "Concrete grade" if lang == "en" else "コンクリート強度"
    grades = enumeration("C30/37", "C35/45")
    return ids(spec(entity("IFCBEAM"), prop(ANY_SET, "ConcreteGrade", grades, "IFCLABEL", "optional"), name=name,
                    version="IFC2X3 IFC4"), title="s003-concrete-grade")


FIXTURE = {
    "s001": ({"domain": "architectural", "input_format": "csv", "turn_type": "single_turn",
              "ifc_versions": ["IFC4"]},
             {"en": ["IDS Version: IFC4\nfilename: s001-fire-walls.ids\n\nUse the IFC standard property sets.\n"
                     "Element,Information item,Requirement,Responsible\nWalls,fire rating,EI60,Fire engineer",
                     wall_gold("en")],
              "ja": ["IDS Version: IFC4\nfilename: s001-fire-walls.ids\n\nIFC標準のプロパティセットを使用すること。\n"
                     "対象,情報項目,要求,担当\n壁,耐火性能,EI60,防災", wall_gold("ja")]}),
    "s002": ({"domain": "civil", "input_format": "natural_language", "turn_type": "multi_turn",
              "ifc_versions": ["IFC4X3_ADD2"]},
             {"en": ["IDS Version: IFC4X3_ADD2\n\nFlexible pavements need a thickness of at least 50 mm.",
                     road_gold("en", False), "Also: no kerbs may be modelled.", road_gold("en", True)],
              "ja": ["IDS Version: IFC4X3_ADD2\n\nたわみ性舗装の厚さは50mm以上とすること。",
                     road_gold("ja", False), "縁石はモデル化しないこと。", road_gold("ja", True)]}),
    "s003": ({"domain": "structural", "input_format": "natural_language", "turn_type": "single_turn",
              "ifc_versions": ["IFC2X3", "IFC4"]},
             {"en": ["IDS Version: IFC2X3 IFC4\nfilename: s003-concrete-grade.ids\n\nIf given, beams state "
                     "ConcreteGrade C30/37 or C35/45.", beam_gold("en")],
              "ja": ["IDS Version: IFC2X3 IFC4\nfilename: s003-concrete-grade.ids\n\n梁のConcreteGradeは"
                     "入力する場合C30/37かC35/45とする。", beam_gold("ja")]}),
}


def review_of(turns: dict[str, list[str]]) -> dict:
    """A complete review record: every facet of the final golds with (placeholder) words of the request."""
    keys = dict.fromkeys(f.key for texts in turns.values() for f in parse_gold(texts[-1]).facets)
    return {"author": "writer-1", "reviewer": "reviewer-1", "date": "2026-12-01", "notes": "checked",
            "facets": [{"facet": k, "en": "words", "ja": "語"} for k in keys]}


def write_scenario(root: Path, sid: str, meta: dict, turns: dict[str, list[str]]) -> None:
    folder = root / "data" / "scenarios" / sid
    full = {"scenario_id": sid, **meta, "title": {"en": "t", "ja": "題"}, "use_case": "u", "authoring_notes": "n",
            "review": review_of(turns)}
    folder.mkdir(parents=True)
    (folder / "scenario.json").write_text(json.dumps(full, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    for lang, texts in turns.items():
        (folder / lang).mkdir()
        for i, text in enumerate(texts, start=1):
            name = f"{i:02d}-user.txt" if i % 2 else f"{i:02d}-assistant.ids"
            (folder / lang / name).write_text(text + "\n", encoding="utf-8")


def make_checkout(root: Path, scenarios: dict = FIXTURE) -> Path:
    (root / "data").mkdir(parents=True)
    for name in ("composition.json", "card_template.md"):
        shutil.copy(ROOT / "data" / name, root / "data" / name)
    for sid, (meta, turns) in scenarios.items():
        write_scenario(root, sid, meta, turns)
    return root


@pytest.fixture
def checkout(tmp_path) -> Path:
    return make_checkout(tmp_path / "fixture-checkout")


@pytest.fixture
def built(checkout) -> Path:
    bench.build(checkout)
    return checkout


def read_jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


# --------------------------------------------------------------------------------------------- build

def test_build_writes_expected_records(built):
    files = sorted(p.name for p in (built / "data").glob("test-*.jsonl"))
    assert files == ["test-en-csv-single_turn.jsonl", "test-en-natural_language-multi_turn.jsonl",
                     "test-en-natural_language-single_turn.jsonl", "test-ja-csv-single_turn.jsonl",
                     "test-ja-natural_language-multi_turn.jsonl", "test-ja-natural_language-single_turn.jsonl"]
    rec = read_jsonl(built / "data" / "test-ja-natural_language-multi_turn.jsonl")[0]
    assert list(rec) == list(bench.FEATURES)
    assert rec["id"] == "s002-ja" and rec["scenario_id"] == "s002" and rec["domain"] == "civil"
    assert [m["role"] for m in rec["messages"]] == ["user", "assistant", "user", "assistant"]
    assert rec["messages"][2]["content"] == "縁石はモデル化しないこと。"  # file text without its final newline
    assert rec["gold_ids"] == rec["messages"][-1]["content"] == road_gold("ja", True)
    assert (rec["n_specifications"], rec["facet_kinds"], rec["restriction_kinds"]) == (2, ["entity", "property"],
                                                                                       ["bounds"])
    assert "縁石" in (built / "data" / "test-ja-natural_language-multi_turn.jsonl").read_text(encoding="utf-8")
    all_recs = [r for p in sorted((built / "data").glob("test-*.jsonl")) for r in read_jsonl(p)]
    assert all(bench.validate_record(r) == [] for r in all_recs)


def test_build_is_deterministic_and_idempotent(built, tmp_path):
    before = {p.name: p.read_bytes() for p in built.rglob("*") if p.is_file()}
    again = bench.build(built)
    assert again["written"] == [] and again["removed"] == []
    assert before == {p.name: p.read_bytes() for p in built.rglob("*") if p.is_file()}
    other = make_checkout(tmp_path / "second")
    bench.build(other)
    for rel in [".huggingface.yaml", "dataset_card.md", *[f"data/{n}" for n in before if n.startswith("test-")]]:
        assert (other / rel).read_bytes() == (built / rel).read_bytes(), rel


def test_build_removes_stale_files_and_yaml_lists_only_present_configs(built):
    shutil.rmtree(built / "data" / "scenarios" / "s002")  # the only multi_turn scenario
    done = bench.build(built)
    assert "data/test-en-natural_language-multi_turn.jsonl" in done["removed"]
    yaml_text = (built / ".huggingface.yaml").read_text(encoding="utf-8")
    assert "config_name: multi_turn" not in yaml_text and "config_name: single_turn" in yaml_text
    assert gates.run_checks(built, "f").gate("f").problems == [
        "config 'multi_turn': glob data/test-*-multi_turn.jsonl matches no data file (no such examples yet)"]


def test_card_has_yaml_metadata_and_generated_tables(built):
    card = (built / "dataset_card.md").read_text(encoding="utf-8")
    front = card.split("---\n")[1]
    for needle in ("license: cc-by-4.0", "- ja", "text-generation", "size_categories", "pretty_name",
                   "config_name: all", "default: true", "dataset_info"):
        assert needle in front, needle
    assert front.endswith((built / ".huggingface.yaml").read_text(encoding="utf-8"))  # same configs + features
    assert "| `messages` | list of {role: string, content: string} |" in card
    assert "| two IFC versions | 1 |" in card and "{{" not in card.replace("{{ONESTRUCTION}}", "")
    assert "6 examples from 3 scenarios" in card


@pytest.mark.parametrize("rel, text, needle", [
    ("s001/scenario.json", '{\n  "scenario_id": "s001",\n  "domain": \n}\n', "s001/scenario.json:4:1: invalid JSON"),
    ("s001/ja/02-assistant.ids", None, "data/scenarios/s001/ja"),
    ("s001/en/03-user.txt", "extra\n", "data/scenarios/s001/en: single_turn needs 2 message files"),
    ("s002/en/04-assistant.ids", "<ids>\n<broken\n", "data/scenarios/s002/en/04-assistant.ids:2: not well-formed XML"),
    ("s003/en/01-user.txt", "IDS Version: IFC4\r\n\r\nx\r\n", "s003/en/01-user.txt:1: CR line ending"),
    ("s001/notes.md", "x\n", "data/scenarios/s001/notes.md: unexpected file"),
])
def test_build_errors_name_the_file(checkout, rel, text, needle):
    path = checkout / "data" / "scenarios" / rel
    if text is None:
        path.unlink()
    else:
        path.write_bytes(text.encode("utf-8"))
    with pytest.raises(bench.BuildError) as err:
        bench.build(checkout)
    assert needle in str(err.value)
    assert bench.build(checkout, skip_broken=True)["skipped"] == [rel.split("/")[0]]


# --------------------------------------------------------------------------------------------- records

GOOD = {"id": "s001-en", "scenario_id": "s001", "language": "en", "input_format": "csv",
        "turn_type": "single_turn", "domain": "mep", "ifc_versions": ["IFC4"], "gold_ids": "<ids/>",
        "messages": [{"role": "user", "content": "q"}, {"role": "assistant", "content": "<ids/>"}]}


@pytest.mark.parametrize("change, needle", [
    ({}, None),
    ({"id": "s1-en"}, "must look like s001-en"),
    ({"id": "s002-en"}, "disagrees with scenario_id"),
    ({"language": "de"}, "language must be one of"),
    ({"domain": "ships"}, "domain must be one of"),
    ({"ifc_versions": ["IFC5"]}, "ifc_versions must be"),
    ({"ifc_versions": []}, "ifc_versions must be"),
    ({"gold_ids": "<other/>"}, "gold_ids differs"),
    ({"messages": [{"role": "assistant", "content": "x"}, {"role": "user", "content": "y"}]}, "expected 'user'"),
    ({"messages": [{"role": "user", "content": "x"}]}, "last message must be the assistant"),
    ({"turn_type": "multi_turn"}, "multi_turn needs (4, 6) messages"),
    ({"extra": 1}, "unknown field 'extra'"),
    ({"n_specifications": "2"}, "n_specifications must be a positive int"),
])
def test_validate_record(change, needle):
    problems = bench.validate_record({**GOOD, **change})
    assert (problems == []) if needle is None else any(needle in p for p in problems), problems


def test_validate_record_reports_missing_fields():
    rec = dict(GOOD)
    del rec["domain"]
    assert "missing field 'domain'" in bench.validate_record(rec)


# --------------------------------------------------------------------------------------------- loading

def assert_declared_types(features) -> None:
    assert features["messages"] == List({"role": Value("string"), "content": Value("string")})
    assert features["ifc_versions"] == List(Value("string"))
    assert features["n_specifications"] == Value("int32")


def test_load_dataset_every_config_of_fixture(built):
    assert datasets.get_dataset_config_names(str(built)) == sorted(bench.CONFIGS)
    expected = {"all": 6, "en": 3, "ja": 3, "csv": 2, "natural_language": 4, "single_turn": 4, "multi_turn": 2}
    for config, rows in expected.items():
        ds = datasets.load_dataset(str(built), config, split="test")
        assert ds.num_rows == rows, config
        assert_declared_types(ds.features)
    default = datasets.load_dataset(str(built), split="test")
    assert default.info.config_name == "all" and default.num_rows == 6


def test_huggingface_yaml_wins_over_a_plain_readme(built):
    (built / "README.md").write_text("---\nlicense: mit\n---\n# Project readme, no configs\n", encoding="utf-8")
    assert datasets.load_dataset(str(built), "ja", split="test").num_rows == 3


@pytest.mark.parametrize("kwargs, ids", [
    ({}, ["s001-en", "s001-ja", "s002-en", "s002-ja", "s003-en", "s003-ja"]),
    ({"domain": "civil"}, ["s002-en", "s002-ja"]),
    ({"ifc_version": "IFC4"}, ["s001-en", "s001-ja", "s003-en", "s003-ja"]),
    ({"config": "en", "ifc_version": "IFC2X3"}, ["s003-en"]),
    ({"config": "multi_turn", "domain": "structural"}, []),
])
def test_load_filters(built, kwargs, ids):
    assert sorted(bench.load(source=str(built), **kwargs)["id"]) == ids


def test_load_applies_config_as_filter_when_source_lacks_configs(built):
    """A release with other config names (e.g. only `default`) still serves every config of ours."""
    import yaml

    meta = yaml.safe_load((built / ".huggingface.yaml").read_text(encoding="utf-8"))
    meta["configs"] = [{"config_name": "default", "data_files": [{"split": "test", "path": "data/*.jsonl"}]}]
    meta["dataset_info"] = {**meta["dataset_info"][0], "config_name": "default"}
    (built / ".huggingface.yaml").write_text(yaml.safe_dump(meta, sort_keys=False), encoding="utf-8")
    (built / "dataset_card.md").unlink()
    assert datasets.get_dataset_config_names(str(built)) == ["default"]
    assert bench.load("ja", source=str(built), domain="civil")["id"] == ["s002-ja"]
    assert bench.load("multi_turn", source=str(built)).num_rows == 2


@pytest.mark.parametrize("kwargs, needle", [
    ({"config": "fr"}, "unknown config 'fr'; valid: all, en, ja"),
    ({"domain": "ships"}, "unknown domain 'ships'; valid: architectural"),
    ({"ifc_version": "IFC4X3"}, "unknown ifc_version 'IFC4X3'; valid: IFC2X3, IFC4, IFC4X3_ADD2"),
    ({"source": "no such thing"}, "neither a local folder nor a Hub repo id"),
])
def test_load_rejects_unknown_values(kwargs, needle):
    with pytest.raises(ValueError, match=needle.replace("(", r"\(")):
        bench.load(**kwargs)


def test_load_refuses_folder_named_like_the_script(built, tmp_path):
    clash = tmp_path / "clash"
    shutil.copytree(built, clash)
    (clash / "clash.py").write_text("", encoding="utf-8")
    with pytest.raises(ValueError, match="loading script"):
        bench.load(source=str(clash))


# --------------------------------------------------------------------------------------------- gates

def test_all_gates_pass_on_fixture(built):
    report = gates.run_checks(built)
    assert [g.status for g in report.gates] == ["ok"] * 6 + ["info", "ok", "ok", "ok", "info", "ok"] \
        + ["ok", "ok", "ok", "ok", "info"], report.to_text()  # m-q: no version-3 scenario, sizes are progress
    assert report.ok and report.n_examples == 6


def replace_in(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, (path, old)
    path.write_text(text.replace(old, new), encoding="utf-8")


S = "data/scenarios/"
BROKEN = [
    # (gate, file to edit, old, new, expected substring of a problem)
    ("a", "s001/en/02-assistant.ids", ' ifcVersion="IFC4"', "", "s001/en/02-assistant.ids:5: XSD: missing"),
    ("a", "s003/ja/02-assistant.ids", "<entity>", "<entity><bogus/>", "s003/ja/02-assistant.ids:6: XSD: Unexpected"),
    ("e", "s002/scenario.json", '"IFC4X3_ADD2"', '"IFC4"', "IDS Version of the gold 'IFC4X3_ADD2' != scenario"),
    ("c", "s001/ja/02-assistant.ids", "<simpleValue>EI60", "<simpleValue>EI90",
     "facet 2 (requirements/property): value/simpleValue en 'EI60' vs ja 'EI90'"),
    ("c", "s002/ja/04-assistant.ids", 'maxOccurs="0"', 'maxOccurs="unbounded"',
     "applicability@maxOccurs en '0' vs ja 'unbounded'"),
    ("c", "s003/ja/02-assistant.ids", 'cardinality="optional"', 'cardinality="required"',
     "@cardinality en 'optional' vs ja 'required'"),
    ("d", "s001/scenario.json", '"domain": "architectural"', '"domain": "interior"', "domain 'interior' not in"),
    ("d", "s002/scenario.json", '"scenario_id": "s002"', '"scenario_id": "s009"', "!= folder name 's002'"),
    ("d", "s002/scenario.json", '"scenario_id": "s002"', '"scenario_id": "s002", "x": 1', "unexpected key 'x'"),
    ("e", "s001/en/01-user.txt", "IDS Version: IFC4", "IDS Version: IFC2X3",
     "specification 1 ifcVersion 'IFC4' != IDS Version 'IFC2X3'"),
    ("e", "s001/ja/01-user.txt", "filename: s001-fire-walls.ids", "filename: s001-fire_walls.ids",
     "expected 'filename: sNNN-ascii-slug.ids'"),
    ("e", "s003/en/01-user.txt", "s003-concrete-grade.ids\n\n", "s003-concrete-grade.ids\n", "blank line"),
    ("e", "s003/ja/02-assistant.ids", "<title>s003-concrete-grade", "<title>s003-grade",
     "info/title 's003-grade' != filename stem"),
    ("e", "s002/en/01-user.txt", "IDS Version: IFC4X3_ADD2\n\n", "", "must start with 'IDS Version"),
    ("f", "../test-en-csv-single_turn.jsonl", "EI60", "EI30", "test-en-csv-single_turn.jsonl: out of date"),
    ("h", "s001/en/02-assistant.ids", ' dataType="IFCLABEL"', "", "C6 S1.r.property:Pset_WallCommon.FireRating"),
    ("h", "s002/ja/02-assistant.ids", 'value="0.05"', 'value="0.050"', "C8 S1.r.property"),
    ("h", "s003/en/02-assistant.ids", "<simpleValue>IFCBEAM", "<simpleValue>IfcBeam", "C4 S1.a.entity:IfcBeam"),
    ("i", "s002/en/01-user.txt", "Flexible pavements need", "IfcPavement FLEXIBLE needs", "leakage natural_language"),
    ("i", "s001/en/01-user.txt", "Walls,fire rating", "IfcWall,Pset_WallCommon FireRating", "leakage csv"),
    ("j", "s001/scenario.json", '"reviewer": "reviewer-1"', '"reviewer": "writer-1"', "reviewed by its own author"),
    ("j", "s003/scenario.json", '"date": "2026-12-01"', '"date": ""', "review.date missing"),
    ("j", "s002/scenario.json", '"facet": "S2.a.entity:IFCKERB"', '"facet": "S2.a.entity:IFCSLAB"',
     "lacks S2.a.entity:IFCKERB"),
]


@pytest.mark.parametrize("gate, rel, old, new, needle", BROKEN, ids=[f"{b[0]}-{i}" for i, b in enumerate(BROKEN)])
def test_each_gate_catches_its_broken_fixture(built, gate, rel, old, new, needle):
    assert_caught(built, gate, rel, old, new, needle)


def assert_caught(root: Path, gate: str, rel: str, old: str, new: str, needle: str) -> None:
    """After replacing `old` by `new` in data/scenarios/`rel`, gate `gate` fails with a problem naming `needle`."""
    replace_in(root / S / rel, old, new)
    result = gates.run_checks(root, gate).gate(gate)
    assert result.status == "failed" and any(needle in p for p in result.problems), result.problems


def test_range_gate_counts_scenarios_with_eight_specifications(built):
    scenarios, _ = read_all(built)
    problems, note, _ = authoring.range_problems(scenarios)
    assert problems == ["only 0 scenarios with 8+ specifications (at least 6)"] and note.startswith("0 scenarios")
    assert gates.run_checks(built, "k").gate("k").status == "info"  # a partial set is behind pace, not failed


@pytest.mark.parametrize("request_text, columns", [
    ("IDS Version: IFC4\n\nItem,Requirement,Unit\nfire rating,EI60,-", set()),
    ("IDS Version: IFC4\n\nObject,IFC class,Item\nDoor,IfcDoor,width\nWall,IfcWall,rating", {"IFC class"}),
    ("IDS Version: IFC4\n\nUse the standard property sets, please, thanks.\nObject,Property set,Item\n"
     "Door,Pset_DoorCommon,FireRating\nWall,ACME_Walls,Code", {"property set"}),
])
def test_csv_ifc_columns_are_read_from_the_table(request_text, columns):
    assert authoring.csv_columns(request_text) == columns


def test_leakage_counts_standard_names_with_their_case():
    gold = parse_gold(wall_gold("en"))
    assert authoring.leakage(gold, ["every wall needs its fire rating"]).spelled == ()
    hit = authoring.leakage(gold, ["IfcWall: FireRating in pset_wallcommon"])
    assert hit.spelled == ("class:IFCWALL", "prop:FireRating", "pset:Pset_WallCommon") and hit.share == 1.0


def test_structure_gate_reports_gaps_in_numbering(built):
    (built / S / "s003").rename(built / S / "s004")
    replace_in(built / S / "s004" / "scenario.json", '"s003"', '"s004"')
    assert f"{S}s003: missing (scenario numbers must run s001 … s004)" in gates.run_checks(built, "d").gate("d").problems


def test_header_gate_follows_a_version_switch(built):
    for lang in ("en", "ja"):
        folder = built / S / "s002" / lang
        replace_in(folder / "01-user.txt", "IDS Version: IFC4X3_ADD2", "IDS Version: IFC4")
        replace_in(folder / "02-assistant.ids", 'ifcVersion="IFC4X3_ADD2"', 'ifcVersion="IFC4"')
    problems = gates.run_checks(built, "e").gate("e").problems
    assert f"{S}s002/en/04-assistant.ids: specification 1 ifcVersion 'IFC4X3_ADD2' != IDS Version 'IFC4'" in problems
    for lang in ("en", "ja"):
        path = built / S / "s002" / lang / "03-user.txt"
        path.write_text("IDS Version: IFC4X3_ADD2\n\n" + path.read_text(encoding="utf-8"), encoding="utf-8")
    assert gates.run_checks(built, "e").gate("e").status == "ok"  # ifc_versions = the gold's version
    replace_in(built / S / "s002" / "scenario.json", '"IFC4X3_ADD2"', '"IFC4"')
    assert any("IDS Version of the gold 'IFC4X3_ADD2' != scenario.json ifc_versions ['IFC4']" in p
               for p in gates.run_checks(built, "e").gate("e").problems)


def test_parity_ignores_localized_values_and_reports_structure():
    en = ids(spec(entity("IFCWALL"), prop("ACME_Fire", "Rating"), name="Walls"))
    ja = ids(spec(entity("IFCWALL"), prop("ACME_防火", "Rating"), name="壁"), title="題")
    assert analysis.parity_problems(en, ja) == []
    two = ids(spec(entity("IFCWALL"), name="a"), spec(entity("IFCSLAB"), name="b"))
    assert analysis.parity_problems(en, two) == ["en has 1 specifications, ja has 2"]
    swapped = ids(spec(entity("IFCWALL"), prop(ANY_SET, "Rating"), name="Walls"))
    assert "structure differs" in analysis.parity_problems(en, swapped)[0]


def test_audit_gate_reports_findings_with_file_and_line(built):
    assert gates.run_checks(built, "b").gate("b").status == "ok"  # the fixture golds follow the rules
    replace_in(built / S / "s001/en/02-assistant.ids", "IFCWALL", "IfcWall")  # entity names are uppercase
    result = gates.run_checks(built, "b").gate("b")
    assert result.status == "failed"
    assert len(result.problems) == 1
    assert result.problems[0].startswith(f"{S}s001/en/02-assistant.ids:6: audit 103: Invalid entity name `IfcWall`")


@pytest.mark.parametrize("edit, status, needle", [
    ({"target_scenarios": 83}, "info", None),  # partial set: shortfalls are progress
    ({"target_scenarios": 3}, "failed", "multi_turn: 1 (target ≥ 20)"),
    ({"target_scenarios": 3, "targets": [{"key": "convention:any_pset", "label": "conv", "min": 1},
                                         {"key": "specs:2+", "label": "2+", "min": 1}]}, "ok", None),
    ({"targets": [{"key": "applicability:optional_or_prohibited", "label": "opt app", "max": 0}]}, "failed",
     "opt app: 1 (target ≤ 0)"),
])
def test_composition_gate(built, edit, status, needle):
    path = built / "data" / "composition.json"
    path.write_text(json.dumps({**json.loads(path.read_text(encoding="utf-8")), **edit}), encoding="utf-8")
    result = gates.run_checks(built, "g").gate("g")
    assert result.status == status, result
    assert needle is None or needle in result.problems


def test_composition_counts(built):
    rows = {r.target.key: r.actual for r in bench.composition_of(built, read_all(built)[0]).rows}
    assert rows["two_versions"] == 1 and rows["predefinedType"] == 1 and rows["convention:any_pset"] == 1
    assert rows["restriction:pattern"] == 0 and rows["restriction:enumeration"] == 1
    assert rows["cardinality:optional_or_prohibited"] == 1 and rows["applicability:optional_or_prohibited"] == 1
    assert rows["specs:2+"] == 1 and rows["facet:entity"] == 3


def test_cli_help_and_report(built, capsys):
    with pytest.raises(SystemExit):
        bench.main(["check", "--help"])
    assert "exit codes" in capsys.readouterr().out
    assert bench.main(["report", "--root", str(built)]) == 0
    assert "| two IFC versions | 1 |" in capsys.readouterr().out


def test_check_report_as_json(built):
    document = json.loads(bench.check(built).to_json())
    assert document["ok"] is True and [g["gate"] for g in document["gates"]] == list("abcdefghijklmnopq")


# --------------------------------------------------------------------------------------------- real checkout

needs_data = pytest.mark.skipif(not REAL_SCENARIOS, reason="data/scenarios is still empty")


@needs_data
def test_committed_data_files_are_up_to_date(tmp_path):
    """Rebuild from the committed sources into tmp and compare bytes with the committed outputs."""
    copy = make_checkout(tmp_path / "rebuild", scenarios={})
    shutil.copytree(ROOT / "data" / "scenarios", copy / "data" / "scenarios", dirs_exist_ok=True)
    bench.build(copy)
    rebuilt = sorted(p.name for p in (copy / "data").glob("test-*.jsonl"))
    assert rebuilt == sorted(p.name for p in (ROOT / "data").glob("test-*.jsonl")), "run: python ishigaki_ids_bench.py build"
    for rel in [*(f"data/{n}" for n in rebuilt), ".huggingface.yaml", "dataset_card.md"]:
        assert (ROOT / rel).is_file() and (ROOT / rel).read_bytes() == (copy / rel).read_bytes(), \
            f"{rel} is stale: run python ishigaki_ids_bench.py build"


@needs_data
def test_load_dataset_real_checkout_every_config():
    configs = datasets.get_dataset_config_names(str(ROOT))
    assert set(configs) == set(bench.CONFIGS), "some config has no examples yet (see check gate f)"
    total = datasets.load_dataset(str(ROOT), split="test")
    committed = sum(len(p.read_bytes().splitlines()) for p in (ROOT / "data").glob("test-*.jsonl"))
    assert total.info.config_name == "all" and total.num_rows == committed
    for config in configs:
        ds = datasets.load_dataset(str(ROOT), config, split="test")
        assert_declared_types(ds.features)
        assert ds.num_rows > 0
