"""Quality gates a-l over the scenario sources and the built files (python ishigaki_ids_bench.py check).

To add a gate: a function returning a GateResult (`_result(key, problems, note)`), its title in
GATE_TITLES under the next letter, and a branch in run_checks; the CLI's --gates accepts every key of
GATE_TITLES.

a XSD (ifctester)   b audit status Ok   c en/ja parity   d structure and records
e headers           f built files up to date              g composition vs data/composition.json
h-k the authoring gates of version 2 (idsbench.dataset.authoring): conventions, leakage, review, range
l every gold passes its own witnesses (idsbench.behaviour)
m-q the gates of version-3 scenarios (idsbench.dataset.version3): traps, steering phrases, review records
    with definitions and adversarial rounds, leakage, EIR sizes

`check --scenario sNNN` runs the per-scenario gates over some scenarios: the whole-set gates (f, g, k) are
skipped, the pooled shares (i, p) are information, and q checks only the cap on specifications.
"""

from __future__ import annotations

import json
import re
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Optional

from idsbench.behaviour.gate import witness_problems

from . import authoring, version3
from . import composition as comp
from .build import checkout, composition_of, configs_present, record_of, render_outputs
from .ids_analysis import audit_problems, parity_problems, summarize, xsd_problems
from .scenarios import Scenario, read_all
from .schema import CONFIGS, IFC_VERSIONS, LANGUAGES, validate_record

GATE_TITLES = {
    "a": "every .ids opens in ifctester with XSD validation",
    "b": "every .ids audits status Ok (default profile)",
    "c": "en/ja parity of every IDS turn",
    "d": "folders, message files and records well-formed; ids unique",
    "e": "user-message headers match scenario.json and the IDS",
    "f": "built data files, .huggingface.yaml and dataset_card.md up to date",
    "g": "composition vs data/composition.json",
    **{key: title for key, (title, _) in authoring.GATES.items()},
    "l": "every gold passes its own witnesses (witness IFC models checked with ifctester)",
    **{key: title for key, (title, _) in version3.GATES.items()},
}
VERSION_LINE_RE = re.compile(r"^IDS Version: (.*)$")
FILENAME_LINE_RE = re.compile(r"^filename: (s(\d{3})-[a-z0-9]+(?:-[a-z0-9]+)*\.ids)$")


@dataclass
class GateResult:
    gate: str
    title: str
    status: str  # ok | failed | skipped | info
    problems: list[str] = field(default_factory=list)
    note: str = ""
    details: list[str] = field(default_factory=list)  # per-scenario figures (gate i), printed after problems


@dataclass
class CheckReport:
    root: str
    n_scenarios: int
    n_examples: int
    gates: list[GateResult]
    composition_markdown: str
    seconds: float

    @property
    def ok(self) -> bool:
        return all(g.status != "failed" for g in self.gates)

    def gate(self, key: str) -> GateResult:
        return next(g for g in self.gates if g.gate == key)

    def to_json(self) -> str:
        return json.dumps({**asdict(self), "ok": self.ok}, ensure_ascii=False, indent=2)

    def to_text(self) -> str:
        lines = [f"{self.n_scenarios} scenarios, {self.n_examples} examples under {self.root} "
                 f"({self.seconds:.1f}s)"]
        for g in self.gates:
            lines.append(f"[{g.status:^7}] {g.gate}  {g.title}" + (f" — {g.note}" if g.note else ""))
            lines += [f"            {p}" for p in g.problems + g.details]
        lines.append("ALL GATES PASSED" if self.ok else "SOME GATES FAILED")
        return "\n".join(lines)


def _result(key: str, problems: list[str], note: str = "") -> GateResult:
    return GateResult(key, GATE_TITLES[key], "failed" if problems else "ok", problems, note)


def ids_files(root: Path) -> list[Path]:
    return sorted((root / "data" / "scenarios").glob("*/*/*.ids"))


def gate_xsd(root: Path, files: list[Path]) -> GateResult:
    problems = [p for f in files for p in xsd_problems(f, f.relative_to(root).as_posix())]
    return _result("a", problems, f"{len(files)} files")


def gate_audit(root: Path, files: list[Path]) -> GateResult:
    problems = [p for f in files for p in audit_problems(f, f.relative_to(root).as_posix())]
    return _result("b", problems, f"{len(files)} files")


def _safe(fn, *args) -> tuple[object, Optional[str]]:
    """Run an analysis that needs well-formed XML; gate a reports the XML errors themselves."""
    try:
        return fn(*args), None
    except ValueError as e:
        return None, str(e)


def gate_parity(scenarios: list[Scenario]) -> GateResult:
    problems = []
    for sc in scenarios:
        for m_en, m_ja in zip(sc.examples["en"], sc.examples["ja"]):
            if m_en.role == m_ja.role == "assistant":
                found, error = _safe(parity_problems, m_en.content, m_ja.content)
                where = f"{sc.folder}/{{en,ja}}/{Path(m_en.path).name}"
                problems += [f"{where}: {p}" for p in (found or [])] + ([f"{where}: {error}"] if error else [])
    return _result("c", problems, f"{len(scenarios)} scenarios")


def gate_structure(read_problems: list[str], scenarios: list[Scenario], numbering: bool = True) -> tuple[GateResult, int]:
    problems = list(read_problems)
    ids: dict[str, str] = {}
    for sc in scenarios:
        for lang in LANGUAGES:
            rec, error = _safe(record_of, sc, lang)
            if error:
                continue  # not XML: reported by gate a
            problems += [f"{sc.folder} ({rec['id']}): {p}" for p in validate_record(rec)]
            if rec["id"] in ids:
                problems.append(f"{sc.folder}: id {rec['id']} also produced by {ids[rec['id']]}")
            ids[rec["id"]] = sc.folder
    numbers = sorted(int(sc.scenario_id[1:]) for sc in scenarios if sc.scenario_id[1:].isdigit())
    missing = sorted(set(range(1, numbers[-1] + 1)) - set(numbers)) if numbers and numbering else []
    problems += [f"data/scenarios/s{n:03d}: missing (scenario numbers must run s001 … s{numbers[-1]:03d})"
                 for n in missing]
    return _result("d", problems), len(ids)


def parse_header(content: str, where: str, first: bool) -> tuple[Optional[tuple[str, ...]], Optional[str], list[str]]:
    """(versions, filename, problems) of a user message; versions None when it has no header."""
    lines = content.split("\n")
    m = VERSION_LINE_RE.match(lines[0])
    if not m:
        return None, None, ([f"{where}:1: must start with 'IDS Version: <versions>'"] if first else [])
    versions = tuple(m.group(1).split(" "))
    problems = [] if versions and set(versions) <= set(IFC_VERSIONS) and len(set(versions)) == len(versions) \
        else [f"{where}:1: IDS Version {m.group(1)!r} must be space-separated values of {list(IFC_VERSIONS)}"]
    filename, n = None, 1
    if first and len(lines) > 1 and lines[1].startswith("filename:"):
        fm = FILENAME_LINE_RE.match(lines[1])
        problems += [] if fm else [f"{where}:2: expected 'filename: sNNN-ascii-slug.ids', got {lines[1]!r}"]
        filename, n = (fm.group(1) if fm else None), 2
    if len(lines) <= n or lines[n] != "":
        problems.append(f"{where}:{n + 1}: a blank line must follow the header")
    elif not "\n".join(lines[n + 1:]).strip():
        problems.append(f"{where}: no requirement text after the header")
    return versions, filename, problems


def header_problems_for(sc: Scenario, lang: str) -> tuple[list[str], tuple]:
    """Header problems of one example, and its (version headers, filename) for the en/ja comparison."""
    problems, current, filename, seen = [], None, None, []
    for i, msg in enumerate(sc.examples[lang]):
        if msg.role == "user":
            versions, fname, found = parse_header(msg.content, msg.path, first=(i == 0))
            problems += found
            filename = fname if i == 0 else filename
            if fname and not fname.startswith(sc.scenario_id + "-"):
                problems.append(f"{msg.path}:2: filename must start with {sc.scenario_id}-")
            if versions:
                current = versions
                seen.append(versions)
            continue
        summary, error = _safe(summarize, msg.content)
        if summary is None or current is None:
            continue
        problems += [f"{msg.path}: specification {s.index} ifcVersion {' '.join(s.ifc_versions)!r} != "
                     f"IDS Version {' '.join(current)!r}" for s in summary.specs if s.ifc_versions != current]
        if filename and summary.title != filename[:-4]:
            problems.append(f"{msg.path}: info/title {summary.title!r} != filename stem {filename[:-4]!r}")
    # A record's ifc_versions describes its gold, i.e. the IDS Version in force at the last turn
    # (a change request may switch version; the earlier turns then used another one).
    if current and list(current) != list(sc.meta.get("ifc_versions") or []):
        problems.append(f"{sc.examples[lang][-1].path}: IDS Version of the gold {' '.join(current)!r} != "
                        f"scenario.json ifc_versions {sc.meta.get('ifc_versions')}")
    return problems, (tuple(seen), filename)


def gate_headers(scenarios: list[Scenario]) -> GateResult:
    problems = []
    for sc in scenarios:
        found_en, key_en = header_problems_for(sc, "en")
        found_ja, key_ja = header_problems_for(sc, "ja")
        problems += found_en + found_ja
        if key_en != key_ja:
            problems.append(f"{sc.folder}: en and ja headers differ (versions, filename): {key_en} vs {key_ja}")
    return _result("e", problems, f"{len(scenarios)} scenarios")


def gate_up_to_date(root: Path, scenarios: list[Scenario], read_problems: list[str]) -> GateResult:
    if read_problems:
        return _result("f", ["cannot rebuild while scenario sources have problems (gate d)"])
    try:
        expected = render_outputs(root, scenarios)
    except ValueError as e:
        return _result("f", [f"cannot rebuild: {e}"])
    problems = [f"{rel}: out of date (run: python ishigaki_ids_bench.py build)"
                for rel, data in expected.items()
                if not (root / rel).is_file() or (root / rel).read_bytes() != data]
    problems += [f"data/{p.name}: stale data file (no scenario produces it; run build)"
                 for p in sorted((root / "data").glob("test-*.jsonl")) if f"data/{p.name}" not in expected]
    jsonl = [r for r in expected if r.startswith("data/test-")]
    present = configs_present(jsonl)
    problems += [f"config {c!r}: glob {CONFIGS[c].glob} matches no data file (no such examples yet)"
                 for c in CONFIGS if c not in present]
    return _result("f", problems, f"{len(expected)} files")


def gate_composition(root: Path, scenarios: list[Scenario]) -> tuple[GateResult, str]:
    c = composition_of(root, scenarios)
    # The minimums are for the full set: below it only rows behind their pro-rata share are listed,
    # as information; once all scenarios exist, every unmet row fails the gate.
    listed = comp.behind(c)
    lines = [f"{r.target.label}: {r.actual} (target {comp.bound(r.target)}"
             + ("" if c.complete or r.target.minimum is None
                else f", due now {comp.due(r.target, c.n_scenarios, c.target_scenarios)}") + ")" for r in listed]
    status = "ok" if not c.unmet else ("failed" if c.complete or any(r.target.maximum is not None for r in listed)
                                       else "info")
    note = comp.progress_line(c) + ("" if c.complete else "; listed: behind pace")
    return GateResult("g", GATE_TITLES["g"], status, lines, note), comp.composition_table(c)


def gate_authoring(key: str, root: Path, scenarios: list[Scenario]) -> GateResult:
    if key == "i":  # version 3 has its own, stricter leakage gate (p)
        scenarios = [sc for sc in scenarios if not version3.is_version3(sc)]
    problems, note, details = authoring.GATES[key][1](scenarios)
    status = "failed" if problems else "ok"
    if key == "k" and problems and not composition_of(root, scenarios).complete:
        status = "info"  # a minimum for the full set, like the composition gate's: behind pace, not failed
    return GateResult(key, GATE_TITLES[key], status, problems, note, details)


def gate_version3(key: str, root: Path, scenarios: list[Scenario]) -> GateResult:
    complete = key == "q" and composition_of(root, scenarios).complete
    problems, note, details, status = version3.GATES[key][1](scenarios, complete)
    return GateResult(key, GATE_TITLES[key], status, problems, note, details)


def gate_witnesses(scenarios: list[Scenario]) -> GateResult:
    """The behavioural score's precondition: the gold's designed verdicts on its witnesses all hold."""
    golds = {f"{sc.scenario_id}-{language}": messages[-1].content
             for sc in scenarios for language, messages in sorted(sc.examples.items())
             if messages and messages[-1].role == "assistant"}
    problems, note = witness_problems(golds)
    return _result("l", problems, note)


def _only(chosen: list[str], root: Path, scenarios: list[Scenario], read_problems: list[str]):
    """The chosen scenarios, their read problems and their IDS files; ValueError for an unknown id."""
    unknown = [sid for sid in chosen if not (root / "data" / "scenarios" / sid).is_dir()]
    if unknown:
        raise ValueError(f"no scenario {', '.join(unknown)} under {root / 'data' / 'scenarios'}")
    folders = tuple(f"data/scenarios/{sid}" for sid in chosen)
    mine = [p for p in read_problems if p.startswith(folders)]
    files = [f for f in ids_files(root) if f.relative_to(root).as_posix().startswith(folders)]
    return [sc for sc in scenarios if sc.scenario_id in chosen], mine, files


WHOLE_SET_GATES = "fgk"  # about the whole dataset: skipped when checking some scenarios
POOLED_GATES = "ip"  # limits on pooled shares: information when checking some scenarios


def run_checks(root: Path | str | None = None, gates: str = "".join(GATE_TITLES),
               scenarios: Optional[list[str]] = None) -> CheckReport:
    """The gates named in `gates`, over `root` (default: the checkout you are in); with `scenarios`, only
    the per-scenario gates over those scenarios (nothing is rebuilt; pooled shares are information)."""
    root = checkout(root)
    start = time.perf_counter()
    chosen, read_problems = read_all(root)
    files = ids_files(root)
    if scenarios:
        chosen, read_problems, files = _only(scenarios, root, chosen, read_problems)
    results: list[GateResult] = []
    n_examples, table = 2 * len(chosen), ""
    for key in gates:
        if scenarios and key in WHOLE_SET_GATES:
            results.append(GateResult(key, GATE_TITLES[key], "skipped", note="about the whole dataset"))
            continue
        result, n, table = _gate(key, root, chosen, read_problems, files, partial=bool(scenarios), table=table)
        n_examples = n if key == "d" else n_examples
        if scenarios and key in POOLED_GATES and result.status == "failed":
            result.status = "info"
        results.append(result)
    return CheckReport(str(root), len(chosen), n_examples, results, table, time.perf_counter() - start)


def _gate(key: str, root: Path, scenarios: list[Scenario], read_problems: list[str], files: list[Path],
          partial: bool, table: str) -> tuple[GateResult, int, str]:
    """One gate's result (with the example count of gate d and the composition table of gate g)."""
    n = 2 * len(scenarios)
    if key == "a":
        return gate_xsd(root, files), n, table
    if key == "b":
        return gate_audit(root, files), n, table
    if key == "c":
        return gate_parity(scenarios), n, table
    if key == "d":
        result, n = gate_structure(read_problems, scenarios, numbering=not partial)
        return result, n, table
    if key == "e":
        return gate_headers(scenarios), n, table
    if key == "f":
        return gate_up_to_date(root, scenarios, read_problems), n, table
    if key == "g":
        result, table = gate_composition(root, scenarios)
        return result, n, table
    if key in authoring.GATES:
        return gate_authoring(key, root, scenarios), n, table
    if key == "l":
        return gate_witnesses(scenarios), n, table
    if key in version3.GATES:
        return gate_version3(key, root, scenarios), n, table
    raise ValueError(f"unknown gate {key!r}; valid: {''.join(GATE_TITLES)}")
