"""The authoring gates of dataset version 2 (docs/dataset-conventions.md, dataset card "version 2"):

h  every gold follows the mechanical conventions (rules C1 …, idsbench.dataset.conventions)
i  requests do not spell out the gold's standard IFC names (leakage shares) and CSV checklists rarely carry
   IFC columns
j  every scenario records a review by someone other than its author, with the request's words for every
   facet of the final golds
k  range: enough EIR-sized scenarios (8 or more specifications)

Each gate is a pure function of the scenarios, returning (problems, note, details).
"""

from __future__ import annotations

import csv
import io
import re
from collections import Counter

from . import conventions
from .golds import parse_gold
from .leakage import LIMITS, Leakage, leakage, pooled
from .review3 import is_version3
from .scenarios import Scenario
from .schema import LANGUAGES

VERSION_LINE_RE = re.compile(r"^IDS Version: (.*)$")
MIN_LARGE_SCENARIOS, LARGE_SPECS = 6, 8
CSV_COLUMN_CAPS = {"IFC class": 1 / 3, "property set": 1 / 4}
_CLASS_CELL = re.compile(r"(?<![A-Za-z0-9_])Ifc[A-Z][A-Za-z0-9]+")
_SET_HEADER = re.compile(r"(?i)property ?set|pset|プロパティセット|格納先")
_SET_CELL = re.compile(r"(?<![A-Za-z0-9_])(?:Pset|Qto)_[A-Za-z0-9]+")


def ids_turns(sc: Scenario, lang: str) -> list[tuple[str, tuple[str, ...], str]]:
    """(path, IDS Version in force, IDS text) of every assistant turn of one language."""
    out, versions = [], ()
    for msg in sc.examples[lang]:
        if msg.role == "user":
            m = VERSION_LINE_RE.match(msg.content.split("\n", 1)[0])
            versions = tuple(m.group(1).split()) if m else versions
        else:
            out.append((msg.path, versions, msg.content))
    return out


def user_turns(sc: Scenario, lang: str) -> list[str]:
    return [m.content for m in sc.examples[lang] if m.role == "user"]


def gold(sc: Scenario, lang: str) -> str:
    return sc.examples[lang][-1].content


# ------------------------------------------------------------------------------------------- h conventions

def convention_problems(scenarios: list[Scenario]) -> tuple[list[str], str, list[str]]:
    problems, files = [], 0
    for sc in scenarios:
        edition = 3 if is_version3(sc) else 2
        for lang in LANGUAGES:
            for path, versions, text in ids_turns(sc, lang):
                files += 1
                try:
                    problems += [f"{path}: {p}" for p in conventions.problems(text, versions, edition)]
                except ValueError:  # not XML: gate a reports it
                    continue
    return problems, f"{files} files, rules C1-C{len(conventions.RULES)}", []


# ------------------------------------------------------------------------------------------- i leakage

def csv_table(request: str) -> tuple[list[str], list[list[str]]]:
    """(header, data rows) of the CSV table in a request; ([], []) when it has none."""
    body = request.split("\n\n", 1)[-1]
    rows = [r for r in csv.reader(io.StringIO(body)) if len(r) >= 3]
    if len(rows) < 2:
        return [], []
    width = Counter(len(r) for r in rows).most_common(1)[0][0]  # the table's width; a preamble line differs
    table = [r for r in rows if len(r) == width]
    return table[0], table[1:]


def class_columns(header: list[str], data: list[list[str]]) -> list[int]:
    """Columns of which at least half the filled cells name an IFC class."""
    return [col for col in range(len(header)) if _share(_CLASS_CELL, _cells(data, col)) >= 0.5]


def _cells(data: list[list[str]], col: int) -> list[str]:
    return [r[col] for r in data if col < len(r) and r[col].strip()]


def _share(rx: re.Pattern, cells: list[str]) -> float:
    return sum(bool(rx.search(c)) for c in cells) / len(cells) if cells else 0.0


def csv_columns(request: str) -> set[str]:
    """Which IFC columns a CSV request carries ("IFC class", "property set"), judged from its table."""
    header, data = csv_table(request)
    found = {"IFC class"} if class_columns(header, data) else set()
    if any(_SET_HEADER.search(title) or _share(_SET_CELL, _cells(data, col)) >= 0.5
           for col, title in enumerate(header)):
        found.add("property set")
    return found


def leakage_of(sc: Scenario, lang: str) -> Leakage:
    return leakage(parse_gold(gold(sc, lang)), user_turns(sc, lang))


def _share_line(key: str, items: list[Leakage]) -> tuple[str, bool]:
    share = pooled(items)
    return f"{key} {share:.1%} (limit {LIMITS[key]:.0%})", share <= LIMITS[key]


def leakage_problems(scenarios: list[Scenario]) -> tuple[list[str], str, list[str]]:
    by_format: dict[str, list[Leakage]] = {"all": [], "csv": [], "natural_language": []}
    details, columns = [], {k: [] for k in CSV_COLUMN_CAPS}
    for sc in scenarios:
        fmt = sc.meta["input_format"]
        shown = []
        for lang in LANGUAGES:
            try:
                item = leakage_of(sc, lang)
            except ValueError:
                continue
            by_format["all"].append(item)
            by_format[fmt].append(item)
            shown.append(f"{lang} {len(item.spelled)}/{len(item.counted)}")
        if fmt == "csv":
            for kind in csv_columns(user_turns(sc, "en")[0]):
                columns[kind].append(sc.scenario_id)
        spelled = sorted({n for lang in LANGUAGES for n in _spelled(sc, lang)})
        details.append(f"{sc.scenario_id} {fmt:<16} {'  '.join(shown)}" + (f"  {' '.join(spelled)}" if spelled else ""))
    lines = [_share_line(k, v) for k, v in by_format.items()]
    problems = [f"leakage {text}" for text, ok in lines if not ok]
    n_csv = sum(sc.meta["input_format"] == "csv" for sc in scenarios)
    for kind, cap in CSV_COLUMN_CAPS.items():
        if n_csv and len(columns[kind]) > cap * n_csv:
            problems.append(f"{len(columns[kind])} of {n_csv} CSV scenarios carry a column of {kind} names "
                            f"(at most {cap:.0%}): {' '.join(columns[kind])}")
    note = "; ".join(text for text, _ in lines) + "; CSV with " + ", ".join(
        f"{kind} column {len(v)}/{n_csv}" for kind, v in columns.items())
    return problems, note, details


def _spelled(sc: Scenario, lang: str) -> tuple[str, ...]:
    try:
        return leakage_of(sc, lang).spelled
    except ValueError:
        return ()


# ------------------------------------------------------------------------------------------- j review

def review_problems(scenarios: list[Scenario]) -> tuple[list[str], str, list[str]]:
    problems = []
    for sc in scenarios:
        where = f"{sc.folder}/scenario.json"
        review = sc.meta.get("review")
        if not isinstance(review, dict):
            problems.append(f"{where}: no review record")
            continue
        for key in ("author", "reviewer", "date"):
            if not str(review.get(key) or "").strip():
                problems.append(f"{where}: review.{key} missing")
        if review.get("author") and review.get("author") == review.get("reviewer"):
            problems.append(f"{where}: reviewed by its own author")
        problems += [f"{where}: {p}" for p in _facet_words_problems(sc, review)]
    return problems, f"{len(scenarios)} scenarios", []


def _facet_words_problems(sc: Scenario, review: dict) -> list[str]:
    words = {}
    for entry in review.get("facets") or []:
        if isinstance(entry, dict) and entry.get("facet"):
            words[entry["facet"]] = entry
    problems = []
    for lang in LANGUAGES:
        try:
            keys = [f.key for f in parse_gold(gold(sc, lang)).facets]
        except ValueError:
            continue
        for key in dict.fromkeys(keys):
            entry = words.get(key)
            if entry is None:
                problems.append(f"review.facets lacks {key} ({lang} gold)")
            elif not str(entry.get(lang) or "").strip() and not any(str(entry.get(x) or "").strip() for x in LANGUAGES):
                problems.append(f"review.facets {key}: no words of the request")
    return problems


# ------------------------------------------------------------------------------------------- k range

def range_problems(scenarios: list[Scenario]) -> tuple[list[str], str, list[str]]:
    large = []
    for sc in scenarios:
        try:
            if len(parse_gold(gold(sc, "en")).specs) >= LARGE_SPECS:
                large.append(sc.scenario_id)
        except ValueError:
            continue
    note = f"{len(large)} scenarios with {LARGE_SPECS}+ specifications ({' '.join(large)})"
    problems = [] if len(large) >= MIN_LARGE_SCENARIOS else [
        f"only {len(large)} scenarios with {LARGE_SPECS}+ specifications (at least {MIN_LARGE_SCENARIOS})"]
    return problems, note, []


GATES = {
    "h": ("every IDS follows the mechanical gold conventions (docs/dataset-conventions.md)", convention_problems),
    "i": ("requests do not spell out the gold's standard IFC names; few CSV IFC columns", leakage_problems),
    "j": ("every scenario has a review by another person, with words for every facet", review_problems),
    "k": (f"at least {MIN_LARGE_SCENARIOS} scenarios with {LARGE_SPECS}+ specifications", range_problems),
}



# ------------------------------------------------------------------------------------------- card figures

def card_figures(records: list[dict]) -> dict[str, str]:
    """The version-2 figures the dataset card quotes, from the built records."""
    items: dict[str, list[Leakage]] = {"all": [], "csv": [], "natural_language": []}
    for rec in records:
        item = leakage(parse_gold(rec["gold_ids"]), [m["content"] for m in rec["messages"] if m["role"] == "user"])
        items["all"].append(item)
        items[rec["input_format"]].append(item)
    csv_en = [rec for rec in records if rec["input_format"] == "csv" and rec["language"] == "en"]
    columns = [csv_columns(rec["messages"][0]["content"]) for rec in csv_en]
    return {
        "leakage_all": f"{pooled(items['all']):.1%}", "leakage_nl": f"{pooled(items['natural_language']):.1%}",
        "leakage_csv": f"{pooled(items['csv']):.1%}", "n_csv": str(len(csv_en)),
        "csv_class_columns": str(sum("IFC class" in c for c in columns)),
        "csv_set_columns": str(sum("property set" in c for c in columns)),
        "n_large": str(sum(rec["language"] == "en" and rec.get("n_specifications", 0) >= LARGE_SPECS
                           for rec in records)),
    }
