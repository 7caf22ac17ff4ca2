"""Generated tasks: generation speed, determinism, and a calibration table per difficulty.

    python -m benchmarks.synth                              # 120 tasks per difficulty, speed on 2,000 tasks
    python -m benchmarks.synth --per-difficulty 300 --speed-n 10000
    python -m benchmarks.synth --from synth-eval-v1/ --speed-n 0   # calibrate a folder already generated

Speed: `ids-bench synth`'s work (plan, records in both languages, audit of every gold under both profiles,
writing) on --speed-n tasks with --workers processes, twice with the same seed, the second compared byte
for byte with the first. Calibration, per difficulty: tasks, specifications and facets per final gold,
turn types, the share of tasks with each kind of trap, the share of property requirements on items of
idsbench.synth.hard's kinds (and the same for the benchmark's own golds, for comparison), and the scores of the
offline baselines run as `ids-bench run --system NAME` runs them (rule-based, copy-previous). The blind-probe column is filled in
by whoever runs a frontier-class solver on `ids-bench synth-sample --per-difficulty 24` of the same tasks.
Prints figures; asserts nothing.
"""
from __future__ import annotations

import argparse
import filecmp
import os
import resource
import statistics
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path

from idsbench.dataset.golds import parse_gold
from idsbench.harness.examples import load_examples
from idsbench.harness.systems import baseline_system
from idsbench.pipeline import score
from idsbench.records import iter_records
from idsbench.synth.config import Options
from idsbench.synth.generate import generate
from idsbench.synth.hard import requirement_kinds as requirement_kinds_of
from idsbench.synth.settings import DIFFICULTIES

BASELINES = ("rule-based", "copy-previous")
TRAP_KINDS = ("ptype", "datatype", "enum", "unit", "home", "moved", "qto")  # the facts catalogue's kinds
HARD_KINDS = ("datatype", "set", "version", "enum")  # idsbench.synth.hard's


def _cpu() -> float:
    """CPU seconds of this process and of its finished children (the workers)."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def speed(n: int, seed: int, workers: int) -> None:
    """Wall time and CPU time (the machine is shared: CPU per task says what the code costs)."""
    with tempfile.TemporaryDirectory() as folder:
        first, second = Path(folder) / "a", Path(folder) / "b"
        cpu = _cpu()
        tally = generate(Options(n=n, seed=seed, workers=workers), first)
        cpu = _cpu() - cpu
        generate(Options(n=n, seed=seed, workers=workers), second)
        names = sorted(p.name for p in first.iterdir())
        same = filecmp.cmpfiles(first, second, names, shallow=False)[0] == names
    print(f"generation: {n} tasks ({tally.records} records, both languages, every gold audited under both profiles) "
          f"in {tally.seconds:.1f} s with {workers} worker(s): {n / tally.seconds:.0f} tasks/s; "
          f"{1000 * cpu / n:.1f} ms of CPU per task; load average: {os.getloadavg()[0]:.1f}; "
          f"second run byte-identical: {'yes' if same else 'NO'}")


def _facets(gold: str) -> int:
    return len(parse_gold(gold).facets)


SCORE_ROWS = tuple(f"{b} {m}" for b in BASELINES for m in ("FacetF1", "AG-FacetF1", "FacetF1 single-turn",
                                                            "FacetF1 multi-turn"))


def baseline_scores(folder: Path) -> dict[str, dict[str, float]]:
    """{difficulty: {baseline metric: percent}} with the run command's systems and scorer."""
    examples = load_examples(folder)
    difficulty = {rec["id"]: rec["difficulty"] for _, _, rec in iter_records(folder)}
    found: dict[str, dict[str, float]] = defaultdict(dict)
    for name in BASELINES:
        system = baseline_system(name)
        outputs = [system.call(e if system.needs_gold else e.without_gold()).prediction for e in examples]
        for level in DIFFICULTIES:
            chosen = [i for i, e in enumerate(examples) if difficulty[e.id] == level]
            if not chosen:
                continue
            run = score([outputs[i] for i in chosen], [examples[i].reference for i in chosen])
            found[level][f"{name} FacetF1"] = 100 * run.overall.facet_f1
            found[level][f"{name} AG-FacetF1"] = 100 * run.overall.ag_facet_f1
            for turn_type, group in run.breakdowns.get("turn_type", {}).items():
                found[level][f"{name} FacetF1 {turn_type.replace('_', '-')}"] = 100 * group.facet_f1
    return found


def requirement_kinds(gold: str) -> list[frozenset[str]]:
    """hard.py's kinds of each property requirement of a gold (empty for the client's own properties)."""
    parsed = parse_gold(gold)
    found = []
    for spec in parsed.specs:
        versions = tuple(spec.attrib.get("ifcVersion", "").split())
        for facet in spec.facets:
            if facet.section != "r" or facet.kind != "property":
                continue
            value = facet.value("value")
            pset, name = facet.value("propertySet").names, facet.value("baseName").names
            found.append(requirement_kinds_of(versions, pset[0] if pset else "", name[0] if name else "",
                                              facet.attrib.get("dataType", ""), value.simple + value.enumeration))
    return found


def hard_rows(golds: list[str]) -> dict[str, str]:
    """The share of property requirements on items of hard.py's kinds, in all and per kind."""
    kinds = [k for gold in golds for k in requirement_kinds(gold)]
    count = Counter(kind for k in kinds for kind in k)
    rows = {"requirements on hard items": f"{100 * sum(bool(k) for k in kinds) / max(1, len(kinds)):.0f}%"}
    return rows | {f"hard item {k}": f"{100 * count[k] / max(1, len(kinds)):.0f}%" for k in HARD_KINDS}


def shape(folder: Path) -> dict[str, dict[str, str]]:
    by_level: dict[str, list[dict]] = defaultdict(list)
    for _, _, rec in iter_records(folder):
        if rec["language"] == "en":
            by_level[rec["difficulty"]].append(rec)
    rows: dict[str, dict[str, str]] = {}
    for level, recs in by_level.items():
        kinds = Counter(k for r in recs for k in r["trap_kinds"])
        rows[level] = {
            "tasks": str(len(recs)),
            "specifications": f"{statistics.mean(r['n_specifications'] for r in recs):.1f}",
            "facets": f"{statistics.mean(_facets(r['gold_ids']) for r in recs):.1f}",
            "multi-turn": f"{100 * sum(r['turn_type'] == 'multi_turn' for r in recs) / len(recs):.0f}%",
            "traps per task": f"{statistics.mean(len(r['traps']) for r in recs):.1f}",
            **{f"trap {k}": f"{100 * kinds[k] / len(recs):.0f}%" for k in TRAP_KINDS},
            **hard_rows([r["gold_ids"] for r in recs]),
        }
    return rows


def table(folder: Path) -> str:
    rows = shape(folder)
    scores = baseline_scores(folder)
    levels = [d for d in DIFFICULTIES if d in rows]
    keys = list(next(iter(rows.values())))
    keys += list(SCORE_ROWS)
    lines = ["| | " + " | ".join(levels) + " |", "|---|" + "---:|" * len(levels)]
    for key in keys:
        cells = [rows[lv][key] if key in rows[lv] else f"{scores[lv][key]:.1f}" if key in scores[lv] else "—"
                 for lv in levels]
        lines.append(f"| {key} | " + " | ".join(cells) + " |")
    lines.append("| blind probe FacetF1 (24 tasks, published prompt) | " + " | ".join("—" for _ in levels) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--per-difficulty", type=int, default=120, help="tasks per difficulty to calibrate on")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--speed-n", type=int, default=2000, help="tasks for the speed figure (0: skip it)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--from", dest="source", type=Path, help="calibrate this generated folder instead")
    args = parser.parse_args(argv)
    if args.speed_n:
        speed(args.speed_n, args.seed, args.workers)
    benchmark = hard_rows([rec["gold_ids"] for _, _, rec in iter_records()])
    print(f"the benchmark's golds: {benchmark['requirements on hard items']} of their property requirements on hard "
          "items (" + ", ".join(f"{k[10:]} {v}" for k, v in benchmark.items() if k.startswith("hard item")) + ")")
    if args.source:
        print(table(args.source))
        return 0
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "calibration"
        start = time.perf_counter()
        generate(Options(n=3 * args.per_difficulty, seed=args.seed, workers=args.workers), out)
        print(f"calibration set: {3 * args.per_difficulty} tasks in {time.perf_counter() - start:.1f} s\n")
        print(table(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
