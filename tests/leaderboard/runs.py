"""Run folders and results files for the leaderboard tests, built from the real data and the real scorer
(with a stand-in audit, so that verdicts are known in advance)."""
import json
import re

from idsbench.example import AuditSummary
from idsbench.leaderboard.results import results_from_run, write_results
from idsbench.pipeline import ScoreRun, evaluate_one
from idsbench.records import load_references
from idsbench.report.aggregate import breakdown, summarize
from idsbench.report.signature import data_hash, signature

N_EXAMPLES = 24
SPURIOUS = "<attribute><name><simpleValue>Spurious</simpleValue></name></attribute>"


def references(n=N_EXAMPLES):
    return load_references()[:n]


def drop_property(gold):
    return re.sub(r"<property\b.*?</property>", "", gold, count=1, flags=re.S)


def add_attribute(gold):
    return gold.replace("<requirements>", "<requirements>" + SPURIOUS, 1)


def variant(kind, gold):
    return {"gold": gold, "missing": drop_property(gold), "spurious": add_attribute(gold),
            "not-xml": "I cannot write IDS.", "none": None}[kind]


def fake_audit(candidate):
    """Stage 1 stand-in (the real audit lands separately): verdicts keyed on what the text looks like."""
    if "<ids" not in candidate:
        return AuditSummary(1, "NotImplementedError", ())
    if "Spurious" in candidate:
        return AuditSummary(16, "IdsContentError", (201, 306) if "IFC2X3" in candidate else (201,))
    return AuditSummary(0, "Ok", ())


def make_run(folder, refs, kinds, *, audited=True, **provenance):
    """A run folder as `ids-bench run` leaves it: predictions, results, summary."""
    raws = [variant(kinds[i % len(kinds)], r.gold) for i, r in enumerate(refs)]
    results = [evaluate_one(raw, ref, fake_audit if audited else None) for raw, ref in zip(raws, refs)]
    sig = signature(n=len(refs), data=data_hash(r.gold for r in refs),
                    audit_profile="ids-tool-1.0.96" if audited else None)
    run = ScoreRun(results, summarize(results), breakdown(results), sig)
    folder.mkdir(parents=True, exist_ok=True)
    lines = [json.dumps({"id": r.id, "prediction": raw}) for r, raw in zip(refs, raws)]
    (folder / "predictions.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (folder / "results.jsonl").write_text("".join(json.dumps(r.to_json()) + "\n" for r in run.results),
                                          encoding="utf-8")
    (folder / "summary.json").write_text(json.dumps(run.summary(**provenance), indent=2), encoding="utf-8")
    return folder


HARNESS_PROVENANCE = {
    "system": "endpoint", "model": "acme-7b", "run_config": "abc123",
    "endpoint": {"model": "acme-7b", "base_url": "http://127.0.0.1:8000/v1", "temperature": 0.0},
    "sampling": {"temperature": 0.0, "seed": 3}, "prompt": {"name": "zero-shot-v1", "sha256": "f" * 64, "used": True},
    "data": {"path": "data", "inputs_hash": "1234", "n": N_EXAMPLES}, "packages": {"ifcopenshell": "0.9.0"},
    "git": {"commit": "a" * 40, "dirty": False}, "date": "2026-11-30T12:00:00+00:00", "command": ["run"],
}


def results_dir(tmp_path, n=16):
    """Three comparable runs of different quality, one scored on other data, one broken file."""
    refs = references(n)
    folder = tmp_path / "results"
    for model, kinds in (("strong", ["gold"]), ("middle", ["gold", "missing"]), ("weak", ["not-xml", "spurious"])):
        run = make_run(tmp_path / "runs" / model, refs, kinds, **{**HARNESS_PROVENANCE, "model": model})
        write_results(results_from_run(run, ), folder / f"{model}.json")
    other = make_run(tmp_path / "runs" / "other", references(n + 2), ["gold"], **{**HARNESS_PROVENANCE, "model": "o"})
    write_results(results_from_run(other), folder / "other-data.json")
    (folder / "broken.json").write_text("{", encoding="utf-8")
    return folder
