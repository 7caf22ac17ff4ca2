"""Witness sets built once per gold: kept in memory, and on disk as IFC files anyone can open.

A folder per gold (keyed by the SHA-256 of its text, the witness generator's version and the
ifcopenshell/ifctester versions) holds one `<IFC version>.ifc` model of element witnesses, one
`<id>.ifc` per cardinality witness and `witnesses.json`: what each witness is for, the verdict it
was designed for, the gold's verdict, and its element's GlobalId. Rebuilding gives the same
files, so the cache can always be deleted. `IDS_BENCH_CACHE` moves it (default
`~/.cache/ids-bench`); `IDS_BENCH_CACHE=off` keeps witnesses in memory only.
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
from collections import OrderedDict
from importlib import metadata
from pathlib import Path

import ifcopenshell

from .build import write
from .check import Unchecked, load_ids
from .prove import ModelWitness, VersionModel, WitnessSet, prove
from .version import GENERATOR
from .witness import Witness
MEMORY_LIMIT = 256
_MEMORY: OrderedDict[str, WitnessSet] = OrderedDict()


def _versions() -> str:
    try:
        return f"ifcopenshell-{ifcopenshell.version}-ifctester-{metadata.version('ifctester')}"
    except metadata.PackageNotFoundError:
        return f"ifcopenshell-{ifcopenshell.version}"


def default_cache_dir() -> Path | None:
    configured = os.environ.get("IDS_BENCH_CACHE")
    if configured and configured.lower() in ("off", "none", "0"):
        return None
    base = Path(configured) if configured else Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "ids-bench"
    return base / "witnesses" / f"{GENERATOR}-{_versions()}"


def gold_key(gold: str) -> str:
    return hashlib.sha256(gold.encode("utf-8", "surrogatepass")).hexdigest()


def witnesses_for(gold: str, cache_dir: Path | None | str = "default") -> WitnessSet | Unchecked:
    """The proven witness set of a gold IDS text (built at most once per process and cache)."""
    key = gold_key(gold)
    if key in _MEMORY:
        _MEMORY.move_to_end(key)
        return _MEMORY[key]
    folder = (default_cache_dir() if cache_dir == "default" else cache_dir)
    folder = Path(folder) / key[:2] / key if folder is not None else None
    found = _load(folder) if folder is not None and (folder / "witnesses.json").is_file() else None
    if found is None:
        document = load_ids(gold)
        if isinstance(document, Unchecked):
            return document
        found = prove(document, key)
        if folder is not None:
            save(found, folder)
    _MEMORY[key] = found
    if len(_MEMORY) > MEMORY_LIMIT:
        _MEMORY.popitem(last=False)
    return found


def describe(ws: WitnessSet) -> dict:
    """The witnesses.json document of a witness set."""
    def element_row(w: Witness) -> dict:
        vm = ws.models[w.version]
        step = vm.elements[w.id]
        return {"id": w.id, "kind": w.kind, "specification": w.spec + 1,
                "requirement": None if w.facet is None else w.facet + 1, "purpose": w.purpose,
                "designed": w.expected, "gold": "rejected" if ws.verdicts[w.id] else "accepted",
                "ifc_version": w.version, "step": step, "global_id": vm.model.by_id(step).GlobalId}

    def model_row(m: ModelWitness) -> dict:
        return {"id": m.id, "kind": m.kind, "specification": m.spec + 1, "purpose": m.purpose,
                "designed": m.expected, "gold": "rejected" if ws.verdicts[m.id] else "accepted",
                "ifc_version": m.version, "members": list(m.members), "file": f"{m.id}.ifc"}

    return {"generator": GENERATOR, "seed": ws.seed, "proven": ws.proven, "unsupported": ws.unsupported,
            "dropped": ws.dropped, "failures": ws.failures,
            "witnesses": [element_row(w) for w in ws.witnesses if w.id in ws.verdicts],
            "model_witnesses": [model_row(m) for m in ws.model_witnesses],
            "models": {v: f"{v}.ifc" for v in ws.models}}


def save(ws: WitnessSet, folder: Path) -> None:
    """Write the models and witnesses.json (atomically: a reader never sees half a folder)."""
    folder.parent.mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp(prefix=".partial-", dir=folder.parent))
    try:
        for version, vm in ws.models.items():
            write(vm.model, str(scratch / f"{version}.ifc"))
        for mw in ws.model_witnesses:
            write(ws.cardinality_models[mw.id], str(scratch / f"{mw.id}.ifc"))
        (scratch / "witnesses.json").write_text(json.dumps(describe(ws), ensure_ascii=False, indent=1), "utf-8")
        os.replace(scratch, folder)
    except OSError:
        shutil.rmtree(scratch, ignore_errors=True)  # another process won the race, or no space


def _load(folder: Path) -> WitnessSet | None:
    try:
        doc = json.loads((folder / "witnesses.json").read_text("utf-8"))
        models = {v: VersionModel(ifcopenshell.open(str(folder / name)), {}) for v, name in doc["models"].items()}
        ws = WitnessSet(doc["seed"], [], [], models, {}, {}, doc["unsupported"], doc["dropped"], doc["failures"])
        for row in doc["witnesses"]:
            ws.witnesses.append(Witness(row["id"], row["kind"], row["specification"] - 1,
                                        None if row["requirement"] is None else row["requirement"] - 1,
                                        row["purpose"], row["designed"], row["ifc_version"], None))
            models[row["ifc_version"]].elements[row["id"]] = row["step"]
            ws.verdicts[row["id"]] = row["gold"] == "rejected"
        for row in doc["model_witnesses"]:
            ws.model_witnesses.append(ModelWitness(row["id"], row["kind"], row["specification"] - 1, row["purpose"],
                                                   row["designed"], row["ifc_version"], tuple(row["members"])))
            ws.cardinality_models[row["id"]] = ifcopenshell.open(str(folder / row["file"]))
            ws.verdicts[row["id"]] = row["gold"] == "rejected"
        return ws
    except (OSError, ValueError, KeyError, TypeError, RuntimeError):
        return None  # unreadable: rebuilt and rewritten
