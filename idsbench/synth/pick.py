"""A seeded sample of a generated folder, N tasks per difficulty, into a new folder of the same format: what
blind probes and expert reviews are run on (both languages of a task stay together)."""
from __future__ import annotations

import json
import random
from collections import defaultdict
from pathlib import Path

from idsbench.records import InputError, iter_records

from .folder import MANIFEST, Writer, claim


def _source_manifest(source: Path) -> dict:
    try:
        return json.loads((source / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        raise InputError(f"{source}: no {MANIFEST}; give a folder written by `ids-bench synth`") from None


def _tasks(source: Path) -> dict[str, dict[str, list[dict]]]:
    """{difficulty: {scenario id: its records}}"""
    found: dict[str, dict[str, list[dict]]] = defaultdict(lambda: defaultdict(list))
    for _, _, rec in iter_records(source):
        found[rec["difficulty"]][rec["scenario_id"]].append(rec)
    return found


def pick(source: Path, per_difficulty: int, seed: int, out: Path, *, overwrite: bool = False) -> dict:
    """Write the sample; returns its manifest."""
    origin = _source_manifest(source)
    options = {key: origin[key] for key in ("generator", "seed", "difficulty", "languages", "split", "prove")}
    options["n"] = per_difficulty
    claim(out, options, overwrite)
    rng = random.Random(f"pick:{seed}")
    chosen = []
    for difficulty, tasks in sorted(_tasks(source).items()):
        ids = sorted(tasks)
        chosen += [r for i in sorted(rng.sample(ids, min(per_difficulty, len(ids)))) for r in tasks[i]]
    manifest = {**options, "name": f"sample of {origin.get('name') or origin['command']}",
                "tasks": len({r["scenario_id"] for r in chosen}), "records": len(chosen),
                "command": f"ids-bench synth-sample --from SOURCE --per-difficulty {per_difficulty} --seed {seed} "
                           "--out DIR",
                "sampled_from": origin["command"]}
    with Writer(out, origin["split"]) as writer:
        for rec in sorted(chosen, key=lambda r: r["id"]):
            writer.write(rec)
        writer.finish(manifest)
    return manifest
