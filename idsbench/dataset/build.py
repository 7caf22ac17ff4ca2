"""The build: scenario sources (data/scenarios/sNNN) -> records -> data/test-*.jsonl, .huggingface.yaml and
dataset_card.md, deterministically; and the composition of a set of scenarios."""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Optional

from idsbench.locations import find_checkout

from . import adversarial
from . import composition as comp
from .card import render_card
from .golds import parse_gold
from .ids_analysis import summarize
from .scenarios import Scenario, read_all
from .skills import skills
from .schema import CONFIGS, DEFAULT_CONFIG, FEATURES, LANGUAGES, SPLIT, data_file_name, validate_record

CARD_METADATA = {
    "pretty_name": "Ishigaki-IDS-Bench (project rebuild)",
    "license": "cc-by-4.0",
    "language": ["en", "ja"],
    "task_categories": ["text-generation"],
    "tags": ["ids", "information-delivery-specification", "ifc", "bim", "buildingsmart", "xml", "benchmark"],
    "size_categories": ["n<1K"],
}


class BuildError(ValueError):
    """Scenario sources that cannot become records; the message lists every problem with its file."""


def checkout(root: Path | str | None) -> Path:
    """`root`, or the checkout the working directory is in; maintainers' commands need one."""
    found = Path(root) if root is not None else find_checkout()
    if found is None:
        raise BuildError("not inside a checkout of the project (data/scenarios/ beside ishigaki_ids_bench.py); "
                         "give --root")
    return found


def user_turns(scenario: Scenario, language: str) -> list[str]:
    return [m.content for m in scenario.examples[language] if m.role == "user"]


def trap_ids(scenario: Scenario) -> tuple[str, ...]:
    """The catalogue ids a version-3 review cites as traps (none for version 2)."""
    review = scenario.meta.get("review")
    if not (isinstance(review, dict) and review.get("version") == 3 and isinstance(review.get("traps"), list)):
        return ()
    return tuple(str(t.get("fact") or "") for t in review["traps"] if isinstance(t, dict))


def record_of(scenario: Scenario, language: str) -> dict:
    """The record of one scenario in one language (ValueError when its gold is not XML)."""
    summary = summarize(scenario.examples[language][-1].content)
    meta = scenario.meta
    messages = [{"role": m.role, "content": m.content} for m in scenario.examples[language]]
    rec = {
        "id": f"{scenario.scenario_id}-{language}", "scenario_id": scenario.scenario_id, "messages": messages,
        "language": language, "input_format": meta["input_format"], "turn_type": meta["turn_type"],
        "domain": meta["domain"], "ifc_versions": list(meta["ifc_versions"]), "gold_ids": messages[-1]["content"],
        "n_specifications": summary.n_specifications, "facet_kinds": list(summary.facet_kinds),
        "restriction_kinds": list(summary.restriction_kinds),
        "skills": skills(parse_gold(messages[-1]["content"]), user_turns(scenario, language), meta["turn_type"],
                         trap_ids(scenario)),
    }
    return {k: rec[k] for k in FEATURES}  # stable key order = schema order


def scenario_records(sc: Scenario) -> tuple[list[dict], list[str]]:
    """The en and ja records of one scenario, and problems naming the files (gold not XML, bad values)."""
    records, problems = [], []
    for lang in LANGUAGES:
        try:
            rec = record_of(sc, lang)
        except ValueError as e:  # IdsParseError: the gold is not XML
            line = getattr(e, "line", None)
            problems.append(f"{sc.examples[lang][-1].path}{f':{line}' if line else ''}: {e}")
            continue
        problems += [f"{sc.folder} ({rec['id']}): {p}" for p in validate_record(rec)]
        records.append(rec)
    return records, problems


def build_records(scenarios: list[Scenario]) -> list[dict]:
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
    from datasets.info import DatasetInfo, DatasetInfosDict  # noqa: PLC0415
    from datasets.utils.metadata import MetadataConfigs  # noqa: PLC0415
    from huggingface_hub import DatasetCardData  # noqa: PLC0415

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


def card_yaml(configs: Optional[list[str]] = None) -> str:
    """The dataset card's full front matter (Hub README.md): card metadata + configs + dataset_info."""
    return _yaml_card_data(list(CONFIGS) if configs is None else configs, **CARD_METADATA)


def composition_of(root: Path, scenarios: list[Scenario]) -> comp.Composition:
    """Scenario counts per criterion of data/composition.json (facets from each final en gold)."""
    target, targets = comp.load_targets(Path(root) / "data" / "composition.json")
    facts = []
    for sc in scenarios:
        try:
            flags = summarize(sc.examples["en"][-1].content).flags
        except ValueError:  # gold is not XML: gate a reports it; count the scenario's metadata only
            flags = frozenset()
        facts.append(comp.ScenarioFacts(sc.scenario_id, frozenset(comp.metadata_keys(sc.meta) | flags)))
    return comp.compose(facts, target, targets)


def render_outputs(root: Path, scenarios: list[Scenario]) -> dict[str, bytes]:
    """Every generated file (relative path -> bytes); pure given the sources, so check can diff it."""
    records = build_records(scenarios)
    files = render_jsonl(records)
    configs = configs_present(list(files))
    files[".huggingface.yaml"] = hub_yaml(configs).encode("utf-8")
    card = render_card(root, records, composition_of(root, scenarios), card_yaml(configs),
                       adversarial.card_figures(scenarios))
    files["dataset_card.md"] = card.encode("utf-8")
    return files


def build(root: Path | str | None = None, *, skip_broken: bool = False) -> dict[str, list[str]]:
    """Rebuild data files, .huggingface.yaml and dataset_card.md from data/scenarios (deterministic).

    Returns {"written": [...], "unchanged": [...], "removed": [...], "skipped": [...]} (relative paths).
    Raises BuildError naming every problem file unless skip_broken (work in progress) is set.
    """
    root = checkout(root)
    scenarios, problems = read_all(root)
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


def report(root: Path | str | None = None) -> str:
    """Markdown composition report of the scenarios that can be read (same table as the card)."""
    root = checkout(root)
    c = composition_of(root, read_all(root)[0])
    return f"Composition: {comp.progress_line(c)}\n\n{comp.composition_table(c)}\n"
