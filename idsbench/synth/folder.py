"""The output folder: JSONL files by difficulty, language, format and turn type, a card whose YAML declares
the configs and features (so `load_dataset(DIR)` reads it offline), and `synth.json`, the manifest of what
made it. Nothing in the folder depends on the time or the machine: the same options give the same bytes.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import IO

from idsbench.records import InputError

from .records import SYNTH_FEATURES, data_file

MANIFEST = "synth.json"
CARD = "README.md"
# Proof results by gold hash (JSON lines), so that an interrupted --prove run resumes; not named *.jsonl,
# which readers of data folders take for records.
PROOFS = ".proofs.ledger"
CONFIGS = {  # config -> glob relative to the split
    "all": "*", "easy": "easy-*", "medium": "medium-*", "hard": "hard-*", "en": "*-en-*", "ja": "*-ja-*",
    "csv": "*-csv-*", "natural_language": "*-natural_language-*", "single_turn": "*-single_turn",
    "multi_turn": "*-multi_turn",
}
DEFAULT_CONFIG = "all"


def _yaml(split: str, files: list[str]) -> str:
    """The card's front matter, written with datasets' own serializers (what load_dataset parses back)."""
    from datasets.info import DatasetInfo, DatasetInfosDict  # noqa: PLC0415 - only when a folder is written
    from datasets.utils.metadata import MetadataConfigs  # noqa: PLC0415
    from huggingface_hub import DatasetCardData  # noqa: PLC0415

    present = {name: f"{split}-{glob}.jsonl" for name, glob in CONFIGS.items()
               if any(Path(f).match(f"{split}-{glob}.jsonl") for f in files)}
    card = DatasetCardData(license="cc-by-4.0", language=["en", "ja"], task_categories=["text-generation"],
                           tags=["ids", "ifc", "bim", "synthetic"])
    MetadataConfigs({name: {"data_files": [{"split": split, "path": glob}],
                            **({"default": True} if name == DEFAULT_CONFIG else {})}
                     for name, glob in present.items()}).to_dataset_card_data(card)
    DatasetInfosDict({name: DatasetInfo(features=SYNTH_FEATURES.copy()) for name in present}).to_dataset_card_data(card)
    return card.to_yaml()


def card_text(split: str, files: list[str], manifest: dict) -> str:
    name = manifest.get("name") or "generated IDS tasks"
    body = (f"# {name}\n\nProcedurally generated requirement -> IDS tasks (generator `{manifest['generator']}`, seed "
            f"{manifest['seed']}, difficulty {manifest['difficulty']}, {manifest['tasks']} tasks, "
            f"{manifest['records']} records). Regenerate with:\n\n```bash\n{manifest['command']}\n```\n\n"
            "Each record has the Ishigaki-IDS-Bench record schema plus `generator`, `seed`, `difficulty`, "
            "`trap_kinds` and `traps`. These tasks are not the benchmark: none makes the same scored choices as a "
            "benchmark gold.\n")
    return f"---\n{_yaml(split, files).rstrip()}\n---\n\n{body}"


def claim(out: Path, manifest: dict, overwrite: bool) -> None:
    """Refuse a folder that holds anything but an earlier run with the same options (which is resumed)."""
    if overwrite or not out.exists() or not any(out.iterdir()):
        return
    try:
        found = json.loads((out / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        raise InputError(f"{out} is not empty and holds no {MANIFEST}; choose another --out, or add --overwrite "
                         "to replace its contents") from None
    keys = ("generator", "seed", "difficulty", "languages", "n", "split", "prove")
    if any(found.get(k) != manifest.get(k) for k in keys):
        made = ", ".join(f"{k}={found.get(k)}" for k in keys)
        raise InputError(f"{out} holds tasks made with other options ({made}); choose another --out, or add "
                         "--overwrite")


class Writer:
    """Appends records to their data files as tasks arrive (in index order), then writes card and manifest."""

    def __init__(self, out: Path, split: str):
        self.out, self.split = out, split
        self.handles: dict[str, IO[str]] = {}

    def __enter__(self) -> Writer:
        self.out.mkdir(parents=True, exist_ok=True)
        for old in self.out.glob(f"{self.split}-*.jsonl"):
            old.unlink()  # a rerun rewrites every file from the first task
        return self

    def write(self, rec: dict) -> None:
        self.write_line(data_file(self.split, rec), json.dumps(rec, ensure_ascii=False))

    def write_line(self, name: str, line: str) -> None:
        """One record already encoded, appended to its data file."""
        if name not in self.handles:
            self.handles[name] = open(self.out / name, "w", encoding="utf-8", newline="\n")
        self.handles[name].write(line + "\n")

    def __exit__(self, *exc) -> None:
        for handle in self.handles.values():
            handle.close()

    def start(self, manifest: dict) -> None:
        """The options first: an interrupted run leaves a folder that a rerun with them recognises."""
        text = json.dumps(manifest, indent=2, ensure_ascii=False) + "\n"
        (self.out / MANIFEST).write_text(text, encoding="utf-8", newline="\n")

    def finish(self, manifest: dict) -> None:
        files = sorted(self.handles)
        (self.out / CARD).write_text(card_text(self.split, files, manifest), encoding="utf-8", newline="\n")
        text = json.dumps({**manifest, "files": files}, indent=2, ensure_ascii=False) + "\n"
        (self.out / MANIFEST).write_text(text, encoding="utf-8", newline="\n")
