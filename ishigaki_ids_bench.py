"""Ishigaki-IDS-Bench dataset: record schema, configs, loader, and the maintainers' build/check/report.

Library:
    import ishigaki_ids_bench as bench
    ds = bench.load("ja", domain="civil", ifc_version="IFC4X3_ADD2")           # this checkout
    ds = bench.load(source="ONESTRUCTION/Ishigaki-IDS-Bench")                  # official release (Hub)

Maintainers (see --help of each):
    python ishigaki_ids_bench.py build    # data/scenarios/* -> data/test-*.jsonl, .huggingface.yaml, dataset_card.md
    python ishigaki_ids_bench.py check    # quality gates a-g
    python ishigaki_ids_bench.py report   # composition table (markdown)

The data itself loads without this file: datasets >= 4 reads the YAML configs in .huggingface.yaml.
This file must never be named after the checkout folder (datasets would refuse it as a loading script).
"""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Optional

import datasets
from datasets import Features, List, Value

HERE = Path(__file__).resolve().parent
OFFICIAL_HUB_ID = "ONESTRUCTION/Ishigaki-IDS-Bench"
SPLIT = "test"
LANGUAGES = ("en", "ja")
INPUT_FORMATS = ("csv", "natural_language")
TURN_TYPES = ("single_turn", "multi_turn")
DOMAINS = ("architectural", "structural", "mep", "civil")
IFC_VERSIONS = ("IFC2X3", "IFC4", "IFC4X3_ADD2")
MESSAGE_COUNTS = {"single_turn": (2,), "multi_turn": (4, 6)}

FEATURES = Features({
    "id": Value("string"),
    "scenario_id": Value("string"),
    "messages": List({"role": Value("string"), "content": Value("string")}),
    "language": Value("string"),
    "input_format": Value("string"),
    "turn_type": Value("string"),
    "domain": Value("string"),
    "ifc_versions": List(Value("string")),
    "gold_ids": Value("string"),
    # Derived from gold_ids at build time, for breakdowns; the official release may not carry them.
    "n_specifications": Value("int32"),
    "facet_kinds": List(Value("string")),
    "restriction_kinds": List(Value("string")),
})
CORE_FIELDS = tuple(FEATURES)[:9]
DERIVED_FIELDS = tuple(FEATURES)[9:]


@dataclass(frozen=True)
class Config:
    """A dataset config: YAML selects files by glob; the same subset expressed as a column filter."""

    glob: str
    column: Optional[str] = None
    value: Optional[str] = None


CONFIGS: dict[str, Config] = {
    "all": Config("data/test-*.jsonl"),
    "en": Config("data/test-en-*.jsonl", "language", "en"),
    "ja": Config("data/test-ja-*.jsonl", "language", "ja"),
    "csv": Config("data/test-*-csv-*.jsonl", "input_format", "csv"),
    "natural_language": Config("data/test-*-natural_language-*.jsonl", "input_format", "natural_language"),
    "single_turn": Config("data/test-*-single_turn.jsonl", "turn_type", "single_turn"),
    "multi_turn": Config("data/test-*-multi_turn.jsonl", "turn_type", "multi_turn"),
}
DEFAULT_CONFIG = "all"
ID_RE = re.compile(r"^(s\d{3})-(en|ja)$")


def data_file_name(language: str, input_format: str, turn_type: str) -> str:
    return f"data/test-{language}-{input_format}-{turn_type}.jsonl"


TOOLS_PACKAGE = "_ishigaki_ids_bench_tools"


def _helper(name: str) -> ModuleType:
    """Import data/tools/<name>.py: maintainer tooling kept beside the data, not needed by load().

    Loaded by path under a private package name so it works from any working directory and never
    collides with an unrelated `data` or `tools` package.
    """
    if TOOLS_PACKAGE not in sys.modules:
        folder = HERE / "data" / "tools"
        spec = importlib.util.spec_from_file_location(TOOLS_PACKAGE, folder / "__init__.py",
                                                      submodule_search_locations=[str(folder)])
        package = importlib.util.module_from_spec(spec)
        sys.modules[TOOLS_PACKAGE] = package
        spec.loader.exec_module(package)
    return importlib.import_module(f"{TOOLS_PACKAGE}.{name}")


# --------------------------------------------------------------------------------------------- records

def _choice(rec: dict, key: str, allowed: tuple[str, ...]) -> list[str]:
    return [] if rec.get(key) in allowed else [f"{key} must be one of {list(allowed)}, got {rec.get(key)!r}"]


def _message_problems(rec: dict) -> list[str]:
    msgs = rec.get("messages")
    if not isinstance(msgs, list) or not msgs:
        return ["messages must be a non-empty list of {role, content}"]
    problems = []
    for i, m in enumerate(msgs):
        want = "user" if i % 2 == 0 else "assistant"
        if not isinstance(m, dict) or set(m) != {"role", "content"}:
            problems.append(f"messages[{i}] must have exactly the keys role and content")
        elif m["role"] != want:
            problems.append(f"messages[{i}].role is {m['role']!r}, expected {want!r} (user/assistant alternate)")
        elif not isinstance(m["content"], str) or not m["content"].strip():
            problems.append(f"messages[{i}].content is empty")
    if len(msgs) % 2:
        problems.append("the last message must be the assistant's gold IDS")
    if rec.get("turn_type") in MESSAGE_COUNTS and len(msgs) not in MESSAGE_COUNTS[rec["turn_type"]]:
        problems.append(f"{rec['turn_type']} needs {MESSAGE_COUNTS[rec['turn_type']]} messages, got {len(msgs)}")
    if not problems and rec.get("gold_ids") != msgs[-1]["content"]:
        problems.append("gold_ids differs from the last message's content")
    return problems


def validate_record(rec: dict) -> list[str]:
    """Problems with one record (empty list = valid). Derived columns are checked when present."""
    problems = [f"missing field {k!r}" for k in CORE_FIELDS if k not in rec]
    problems += [f"unknown field {k!r}" for k in rec if k not in FEATURES]
    m = ID_RE.match(str(rec.get("id", "")))
    if not m:
        problems.append(f"id {rec.get('id')!r} must look like s001-en")
    elif (rec.get("scenario_id"), rec.get("language")) != m.groups():
        problems.append(f"id {rec['id']!r} disagrees with scenario_id/language")
    problems += _choice(rec, "language", LANGUAGES) + _choice(rec, "input_format", INPUT_FORMATS)
    problems += _choice(rec, "turn_type", TURN_TYPES) + _choice(rec, "domain", DOMAINS)
    versions = rec.get("ifc_versions")
    if not isinstance(versions, list) or not versions or len(set(versions)) != len(versions) \
            or not set(versions) <= set(IFC_VERSIONS):
        problems.append(f"ifc_versions must be a non-empty list of distinct {list(IFC_VERSIONS)}, got {versions!r}")
    problems += _message_problems(rec)
    if "n_specifications" in rec and (type(rec["n_specifications"]) is not int or rec["n_specifications"] < 1):
        problems.append("n_specifications must be a positive int")
    for key in ("facet_kinds", "restriction_kinds"):
        if key in rec and not (isinstance(rec[key], list) and all(isinstance(x, str) for x in rec[key])):
            problems.append(f"{key} must be a list of strings")
    return problems


def _record(scenario, language: str) -> dict:
    summary = _helper("ids_analysis").summarize(scenario.examples[language][-1].content)
    meta = scenario.meta
    messages = [{"role": m.role, "content": m.content} for m in scenario.examples[language]]
    rec = {
        "id": f"{scenario.scenario_id}-{language}", "scenario_id": scenario.scenario_id, "messages": messages,
        "language": language, "input_format": meta["input_format"], "turn_type": meta["turn_type"],
        "domain": meta["domain"], "ifc_versions": list(meta["ifc_versions"]), "gold_ids": messages[-1]["content"],
        "n_specifications": summary.n_specifications, "facet_kinds": list(summary.facet_kinds),
        "restriction_kinds": list(summary.restriction_kinds),
    }
    return {k: rec[k] for k in FEATURES}  # stable key order = schema order


# --------------------------------------------------------------------------------------------- build

class BuildError(ValueError):
    """Scenario sources that cannot become records; the message lists every problem with its file."""


def scenario_records(sc) -> tuple[list[dict], list[str]]:
    """The en and ja records of one scenario, and problems naming the files (gold not XML, bad values)."""
    records, problems = [], []
    for lang in LANGUAGES:
        try:
            rec = _record(sc, lang)
        except ValueError as e:  # IdsParseError: the gold is not XML
            line = getattr(e, "line", None)
            problems.append(f"{sc.examples[lang][-1].path}{f':{line}' if line else ''}: {e}")
            continue
        problems += [f"{sc.folder} ({rec['id']}): {p}" for p in validate_record(rec)]
        records.append(rec)
    return records, problems


def build_records(scenarios: list) -> list[dict]:
    """All records sorted by id; BuildError listing every problem if any scenario cannot be built."""
    records, problems = [], []
    for sc in scenarios:
        recs, found = scenario_records(sc)
        records += recs
        problems += found
    if problems:
        raise BuildError("cannot build records:\n  " + "\n  ".join(problems))
    return sorted(records, key=lambda r: r["id"])


def render_jsonl(records: list[dict]) -> dict[str, bytes]:
    """One file per existing (language, input_format, turn_type) combination, rows sorted by id."""
    files: dict[str, list[str]] = {}
    for rec in sorted(records, key=lambda r: r["id"]):
        name = data_file_name(rec["language"], rec["input_format"], rec["turn_type"])
        files.setdefault(name, []).append(json.dumps(rec, ensure_ascii=False))
    return {name: ("\n".join(lines) + "\n").encode("utf-8") for name, lines in sorted(files.items())}


def configs_present(file_names: list[str]) -> list[str]:
    """Configs whose glob matches at least one data file (others would make load_dataset fail)."""
    return [name for name, c in CONFIGS.items() if any(Path(f).match(c.glob) for f in file_names)]


def _yaml_card_data(configs: list[str], **card_fields) -> str:
    # Generated with datasets' own serializers so the YAML is exactly what load_dataset parses back.
    from huggingface_hub import DatasetCardData
    from datasets.info import DatasetInfo, DatasetInfosDict
    from datasets.utils.metadata import MetadataConfigs

    card = DatasetCardData(**card_fields)
    MetadataConfigs({
        name: {"data_files": [{"split": SPLIT, "path": CONFIGS[name].glob}],
               **({"default": True} if name == DEFAULT_CONFIG else {})}
        for name in configs
    }).to_dataset_card_data(card)
    DatasetInfosDict({name: DatasetInfo(features=FEATURES.copy()) for name in configs}).to_dataset_card_data(card)
    return card.to_yaml() + "\n"


def hub_yaml(configs: Optional[list[str]] = None) -> str:
    """Content of .huggingface.yaml: configs + dataset_info (datasets merges it over README.md's YAML)."""
    return _yaml_card_data(list(CONFIGS) if configs is None else configs)


CARD_METADATA = {
    "pretty_name": "Ishigaki-IDS-Bench (project rebuild)",
    "license": "cc-by-4.0",
    "language": ["en", "ja"],
    "task_categories": ["text-generation"],
    "tags": ["ids", "information-delivery-specification", "ifc", "bim", "buildingsmart", "xml", "benchmark"],
    "size_categories": ["n<1K"],
}


def card_yaml(configs: Optional[list[str]] = None) -> str:
    """The dataset card's full front matter (Hub README.md): card metadata + configs + dataset_info."""
    return _yaml_card_data(list(CONFIGS) if configs is None else configs, **CARD_METADATA)


def render_outputs(root: Path, scenarios: list) -> dict[str, bytes]:
    """Every generated file (relative path -> bytes); pure given the sources, so check can diff it."""
    records = build_records(scenarios)
    files = render_jsonl(records)
    configs = configs_present(list(files))
    files[".huggingface.yaml"] = hub_yaml(configs).encode("utf-8")
    card = _helper("card").render_card(root, records, composition_of(root, scenarios), card_yaml(configs))
    files["dataset_card.md"] = card.encode("utf-8")
    return files


def build(root: Path | str = HERE, *, skip_broken: bool = False) -> dict[str, list[str]]:
    """Rebuild data files, .huggingface.yaml and dataset_card.md from data/scenarios (deterministic).

    Returns {"written": [...], "unchanged": [...], "removed": [...], "skipped": [...]} (relative paths).
    Raises BuildError naming every problem file unless skip_broken (work in progress) is set.
    """
    root = Path(root)
    scenarios, problems = _helper("scenarios").read_all(root)
    problems += [p for sc in scenarios for p in scenario_records(sc)[1]]
    if problems and not skip_broken:
        raise BuildError("scenario sources have problems:\n  " + "\n  ".join(problems))
    broken = sorted({m.group(1) for p in problems if (m := re.match(r"data/scenarios/([^/:\s]+)", p))})
    scenarios = [s for s in scenarios if s.scenario_id not in broken]
    files = render_outputs(root, scenarios)
    report: dict[str, list[str]] = {"written": [], "unchanged": [], "removed": [], "skipped": broken}
    for stale in sorted((root / "data").glob("test-*.jsonl")):
        if f"data/{stale.name}" not in files:
            stale.unlink()
            report["removed"].append(f"data/{stale.name}")
    for rel, data in files.items():
        path = root / rel
        if path.is_file() and path.read_bytes() == data:
            report["unchanged"].append(rel)  # untouched files keep their mtime (and datasets' cache)
        else:
            path.write_bytes(data)
            report["written"].append(rel)
    return report


def composition_of(root: Path, scenarios: list):
    """Scenario counts per criterion of data/composition.json (facets from each final en gold)."""
    comp = _helper("composition")
    target, targets = comp.load_targets(Path(root) / "data" / "composition.json")
    facts = []
    for sc in scenarios:
        try:
            flags = _helper("ids_analysis").summarize(sc.examples["en"][-1].content).flags
        except ValueError:  # gold is not XML: gate a reports it; count the scenario's metadata only
            flags = frozenset()
        facts.append(comp.ScenarioFacts(sc.scenario_id, frozenset(comp.metadata_keys(sc.meta) | flags)))
    return comp.compose(facts, target, targets)


def report(root: Path | str = HERE) -> str:
    """Markdown composition report of the scenarios that can be read (same table as the card)."""
    scenarios, _ = _helper("scenarios").read_all(Path(root))
    comp = _helper("composition")
    c = composition_of(Path(root), scenarios)
    return f"Composition: {comp.progress_line(c)}\n\n{comp.composition_table(c)}\n"


def check(root: Path | str = HERE, gates: str = "abcdefg"):
    """Run the quality gates a-g; returns a CheckReport (data/tools/gates.py: .ok, .gates, .to_text())."""
    return _helper("gates").run_checks(Path(root), gates)


# --------------------------------------------------------------------------------------------- load

def _require(value: Optional[str], allowed, what: str) -> None:
    if value is not None and value not in allowed:
        raise ValueError(f"unknown {what} {value!r}; valid: {', '.join(allowed)}")


def _resolve_source(source: Optional[str]) -> str:
    if source is None:
        return str(HERE)
    if Path(source).is_dir():
        folder = Path(source).resolve()
        if (folder / f"{folder.name}.py").is_file():
            raise ValueError(f"{folder} holds {folder.name}.py, which datasets >= 4 refuses as a loading "
                             "script; rename the folder")
        return str(folder)
    if re.fullmatch(r"[\w.-]+/[\w.-]+", source):
        return source
    raise ValueError(f"source {source!r} is neither a local folder nor a Hub repo id like {OFFICIAL_HUB_ID}")


def load(config: str = DEFAULT_CONFIG, *, domain: Optional[str] = None, ifc_version: Optional[str] = None,
         source: Optional[str] = None, split: str = SPLIT) -> datasets.Dataset:
    """Load one config of the benchmark as a datasets.Dataset, optionally filtered by domain / IFC version.

    source: None = this checkout; a local folder with the same layout; or a Hub repo id such as
    "ONESTRUCTION/Ishigaki-IDS-Bench". A source without our YAML configs is loaded whole and the
    config applied as a column filter, so the official release works with every config name.
    """
    _require(config, CONFIGS, "config")
    _require(domain, DOMAINS, "domain")
    _require(ifc_version, IFC_VERSIONS, "ifc_version")
    path = _resolve_source(source)
    if config in datasets.get_dataset_config_names(path):
        ds = datasets.load_dataset(path, config, split=split)
    else:
        ds = datasets.load_dataset(path, split=split)
        c = CONFIGS[config]
        if c.column:
            ds = ds.filter(lambda v: v == c.value, input_columns=c.column)
    if domain:
        ds = ds.filter(lambda v: v == domain, input_columns="domain")
    if ifc_version:
        ds = ds.filter(lambda v: ifc_version in v, input_columns="ifc_versions")
    return ds


# --------------------------------------------------------------------------------------------- CLI

EPILOG = """examples:
  python ishigaki_ids_bench.py build                 # rebuild data/test-*.jsonl, .huggingface.yaml, dataset_card.md
  python ishigaki_ids_bench.py build --skip-broken   # while scenarios are being written: leave broken ones out
  python ishigaki_ids_bench.py check                 # all gates; exit 1 if one fails
  python ishigaki_ids_bench.py check --gates acd --json
  python ishigaki_ids_bench.py report > composition.md

exit codes: 0 ok, 1 a gate failed, 2 bad input (e.g. scenario sources that cannot be built)"""


def _parser():
    import argparse

    p = argparse.ArgumentParser(prog="ishigaki_ids_bench.py", description=__doc__.split("\n")[0], epilog=EPILOG,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="command", required=True)
    for name, help_text in (("build", "scenario sources -> data files, .huggingface.yaml and dataset_card.md"),
                            ("check", "run the quality gates a-g and print a report"),
                            ("report", "print the composition table (markdown)")):
        cmd = sub.add_parser(name, help=help_text, description=help_text, epilog=EPILOG,
                             formatter_class=argparse.RawDescriptionHelpFormatter)
        cmd.add_argument("--root", type=Path, default=HERE, help="checkout folder (default: this file's folder)")
        if name == "build":
            cmd.add_argument("--skip-broken", action="store_true",
                             help="build from the readable scenarios only, listing the skipped ones")
        if name == "check":
            cmd.add_argument("--gates", default="abcdefg", help="subset of gates to run, e.g. acd (default: all)")
            cmd.add_argument("--json", action="store_true", help="print the report as JSON")
    return p


def main(argv: Optional[list[str]] = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if args.command == "check" and not (args.gates and set(args.gates) <= set("abcdefg")):
        parser.error(f"--gates takes letters from abcdefg, got {args.gates!r}")
    if args.command == "report":
        print(report(args.root), end="")
        return 0
    if args.command == "check":
        result = check(args.root, args.gates)
        print(result.to_json() if args.json else result.to_text())
        return 0 if result.ok else 1
    try:
        done = build(args.root, skip_broken=args.skip_broken)
    except ValueError as e:  # BuildError, or a template/composition file problem: both name the file
        print(e, file=sys.stderr)
        return 2
    for key in ("written", "unchanged", "removed", "skipped"):
        print(f"{key:9} {len(done[key]):3}  " + " ".join(done[key]))
    return 0


if __name__ == "__main__":
    # data/tools modules import this module by name: register the running script under it, not twice.
    sys.modules.setdefault("ishigaki_ids_bench", sys.modules[__name__])
    sys.exit(main())
