"""The leaderboard: results files -> ranked rows (+ reference rows, + rejected files with reasons).

Only results scored the same way may be ranked together: a row whose signature differs from the board's in
anything but model-specific parts (scorer version, audit profile, data hash, n, bootstrap, …) is rejected
with the differing parts named. The paper's reported figures come from paper_reference.json as separately
marked reference rows, never ranked.
"""
from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from idsbench.behaviour.result import SIGNATURE_KEY
from idsbench.behaviour.version import GENERATOR
from idsbench.report.aggregate import LABELS, PAPER_METRICS

from .results import LoadedResults, ResultsError, parse_signature, read_results, schema_problems
from .stats import describe_intervals

BOARD_FORMAT = "ishigaki-ids-bench/leaderboard@1"
REFERENCE_PATH = Path(__file__).resolve().parent / "paper_reference.json"
REFERENCE_SCHEMA = Path(__file__).resolve().parent / "schema" / "paper_reference.schema.json"
# Parts a signature may carry that identify the model or run, not the scoring: never compared. `protocol`
# (how `ids-bench run` generated the outputs) stays visible in each row's signature.
MODEL_SPECIFIC = frozenset({"model", "system", "prompt", "protocol", "run", "run_config", "endpoint"})
DEFAULT_SORT = "facet_f1"


def comparable(signature: str) -> str:
    """The signature without its model-specific parts: what must be equal for rows to be ranked together.
    Behaviour has its own part, which never changes the paper metrics: rows with and without it rank
    together, and a row shows Behaviour only when its part is the current one (BEHAVIOUR)."""
    parts = parse_signature(signature)
    return "|".join(f"{k}:{v}" for k, v in parts.items() if k not in MODEL_SPECIFIC and k != SIGNATURE_KEY)


def _behaviour_shown(row: dict, signature: str) -> dict:
    """The row with its Behaviour metric dropped (n/c) when it was measured by another generator."""
    if parse_signature(signature).get(SIGNATURE_KEY) == GENERATOR:
        return row
    strip = lambda group: {**group, "metrics": {k: v for k, v in group["metrics"].items() if k != "behaviour"}}  # noqa: E731
    return {**row, "overall": strip(row["overall"]),
            "breakdowns": {k: {v: strip(g) for v, g in groups.items()} for k, groups in row["breakdowns"].items()}}


def board_metrics(rows: Sequence[dict]) -> tuple[str, ...]:
    """The paper metrics, and Behaviour when some row has it."""
    shown = any("behaviour" in row["overall"]["metrics"] for row in rows)
    return PAPER_METRICS + (("behaviour",) if shown else ())


def signature_difference(signature: str, board: str) -> str:
    """`data:abc≠def, n:100≠166` (the row's value first), for a rejection reason."""
    mine, theirs = parse_signature(comparable(signature)), parse_signature(comparable(board))
    keys = list(theirs) + [k for k in mine if k not in theirs]
    return ", ".join(f"{k}:{mine.get(k, '(missing)')}≠{theirs.get(k, '(missing)')}"
                     for k in keys if mine.get(k) != theirs.get(k))


def signature_flag(signature: str, board: str) -> str:
    """The parts of a row's signature the board's lacks or has otherwise (model-specific parts such as
    a prompt hash); empty for the usual row, which is scored exactly as the board says once."""
    theirs = parse_signature(board)
    return " ".join(f"{k}:{v}" for k, v in parse_signature(signature).items() if theirs.get(k) != v)


@dataclass(frozen=True)
class Rejected:
    file: str
    name: str | None
    reason: str

    def to_json(self) -> dict:
        return {"file": self.file, "name": self.name, "reason": self.reason}


@dataclass(frozen=True)
class Board:
    signature: str
    sort: str
    rows: list[dict]  # ranked, each with rank, name, file, signature, provenance, overall, breakdowns
    references: list[dict] = field(default_factory=list)
    rejected: list[Rejected] = field(default_factory=list)
    bootstrap: dict | None = None

    def to_json(self) -> dict:
        metrics = board_metrics(self.rows)
        return {"format": BOARD_FORMAT, "signature": self.signature, "sort": self.sort,
                "bootstrap": self.bootstrap, "metrics": list(metrics),
                "labels": {m: LABELS[m] for m in metrics}, "rows": self.rows,
                "references": self.references, "rejected": [r.to_json() for r in self.rejected]}


def load_references(path: Path = REFERENCE_PATH) -> dict:
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise ResultsError(f"{path}: cannot read the reference figures: {exc}") from exc
    problems = schema_problems(document, REFERENCE_SCHEMA)
    if problems:
        raise ResultsError(f"{path}: not valid reference figures:\n  " + "\n  ".join(problems))
    return document


def _row(loaded: LoadedResults, name: str) -> dict:
    doc = loaded.document
    keep = ("model", "system", "endpoint", "sampling", "prompt", "date", "git_commit", "packages")
    row = {"rank": None, "name": name, "file": loaded.path.name, "signature": doc["signature"],
           "provenance": {k: doc["provenance"].get(k) for k in keep},
           "overall": doc["overall"], "breakdowns": doc["breakdowns"]}
    return _behaviour_shown(row, doc["signature"])


def _sort_key(sort: str):
    def key(row: dict) -> tuple:
        value = row["overall"]["metrics"][sort]["value"]
        return (value is None, -(value or 0.0), row["name"])
    return key


def read_folder(folder: Path) -> tuple[list[LoadedResults], list[Rejected]]:
    """Every *.json in the folder (sorted by name) as validated results, or a rejection naming the problem."""
    if not Path(folder).is_dir():
        raise ResultsError(f"{folder}: not a folder of results files")
    paths = sorted(Path(folder).glob("*.json"))
    if not paths:
        raise ResultsError(f"{folder}: no results files (*.json) found; make one with "
                           f"`ids-bench leaderboard results RUN_FOLDER --out {folder}/NAME.json`")
    loaded, rejected = [], []
    for path in paths:
        try:
            loaded.append(read_results(path))
        except ResultsError as exc:
            rejected.append(Rejected(path.name, None, _without_path(str(exc), path)))
    return loaded, rejected


def _without_path(message: str, path: Path) -> str:
    """`/x/a.json:3: not JSON` -> `line 3: not JSON` (the row already names the file)."""
    prefix = f"{path}:"
    if not message.startswith(prefix):
        return message
    rest = message[len(prefix):].strip()
    return f"line {rest}" if rest[:1].isdigit() else rest


def board_signature(loaded: Sequence[LoadedResults], wanted: str | None) -> str | None:
    """The given signature, else the most common comparable one (ties: the first file's)."""
    if wanted:
        return comparable(wanted)
    counts = Counter(comparable(r.signature) for r in loaded)
    if not counts:
        return None
    best = max(counts.values())
    return next(comparable(r.signature) for r in loaded if counts[comparable(r.signature)] == best)


def display_names(loaded: Sequence[LoadedResults]) -> dict[Path, str]:
    """Row names; a name used by several files gets each file's stem, so no two rows look alike."""
    counts = Counter(item.name for item in loaded)
    return {item.path: item.name if counts[item.name] == 1 else f"{item.name} ({item.path.stem})"
            for item in loaded}


def build_board(loaded: Sequence[LoadedResults], *, rejected: Sequence[Rejected] = (), sort: str = DEFAULT_SORT,
                signature: str | None = None, references: Mapping | None = None) -> Board:
    if sort not in PAPER_METRICS:
        raise ValueError(f"unknown sort metric {sort!r}; choose from {', '.join(PAPER_METRICS)}")
    wanted = board_signature(loaded, signature)
    rows, rejected, bootstrap = [], list(rejected), None
    accepted = [item for item in loaded if comparable(item.signature) == wanted]
    names = display_names(accepted)
    for item in loaded:
        if comparable(item.signature) != wanted:
            rejected.append(Rejected(item.path.name, item.name, "signature differs from the board's: "
                                     + signature_difference(item.signature, wanted)))
            continue
        rows.append(_row(item, names[item.path]))
        bootstrap = bootstrap or item.document["bootstrap"]
    rows.sort(key=_sort_key(sort))
    for rank, row in enumerate(rows, start=1):
        row["rank"] = rank if row["overall"]["metrics"][sort]["value"] is not None else None
    refs = [] if references is None else [{**r, "reference": True, "source": references["source"]}
                                          for r in references["rows"]]
    return Board(wanted or "", sort, rows, refs, sorted(rejected, key=lambda r: r.file), bootstrap)


def board_from_folder(folder: Path | str, *, sort: str = DEFAULT_SORT, signature: str | None = None,
                      with_references: bool = True) -> Board:
    loaded, rejected = read_folder(Path(folder))
    references = load_references() if with_references else None
    return build_board(loaded, rejected=rejected, sort=sort, signature=signature, references=references)


# ------------------------------------------------------------------------------------------ markdown

def percent(value) -> str:
    """0.656 -> 65.6; a reported range [0.202, 0.268] -> 20.2–26.8; None -> blank."""
    if value is None:
        return ""
    if isinstance(value, list):
        return f"{100 * value[0]:.1f}–{100 * value[1]:.1f}"
    return f"{100 * value:.1f}"


def metric_cell(metric: Mapping) -> str:
    if metric["value"] is None:
        return "n/c"
    ci = metric.get("ci")
    return percent(metric["value"]) + ("" if not ci else f" [{percent(ci[0])}, {percent(ci[1])}]")


def md(text: str) -> str:
    """A table cell: pipes escaped (signatures are full of them), line breaks flattened."""
    return " ".join(str(text).split()).replace("|", "\\|")


def to_markdown(board: Board) -> str:
    metrics = board_metrics(board.rows)
    head = ["#", "model", "N"] + [LABELS[m] for m in metrics] + ["notes"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for row in board.rows:
        cells = [str(row["rank"] or "–"), md(row["name"]), str(row["overall"]["n"])]
        cells += [metric_cell(row["overall"]["metrics"].get(m, {"value": None})) for m in metrics]
        differs = signature_flag(row["signature"], board.signature)
        lines.append("| " + " | ".join(cells + [f"signature also `{md(differs)}`" if differs else ""]) + " |")
    out = [f"Leaderboard (sorted by {LABELS[board.sort]}, percent, {_ci_text(board)})", "",
           f"Board signature: `{board.signature}`", "", *lines]
    if board.rejected:
        out += ["", "Rejected:"] + [f"- {r.file}" + (f" ({r.name})" if r.name else "") + f": {md(r.reason)}"
                                    for r in board.rejected]
    return "\n".join(out + reference_markdown(board.references, metrics)) + "\n"


def reference_markdown(references: Sequence[dict], metrics: Sequence[str]) -> list[str]:
    """The paper's figures as a table of their own, after the ranking: they were measured on other data."""
    if not references:
        return []
    head = ["model"] + [LABELS[m] for m in metrics] + ["notes"]
    rows = [[md(ref["name"])] + [percent(ref["metrics"].get(m)) for m in metrics] + [md(ref.get("notes") or "")]
            for ref in references]
    return ["", "Reported in the paper, on other data: measured on the official release of the data, not re-scored "
            "here, never ranked (blank: not reported).", "", "| " + " | ".join(head) + " |", "|" + "---|" * len(head),
            *("| " + " | ".join(cells) + " |" for cells in rows)]


def _ci_text(board: Board) -> str:
    return f"[{describe_intervals(board.bootstrap)}]"
