"""Read scenario source folders (data/scenarios/sNNN/) into typed values, with problems naming the file.

Layout: scenario.json, en/01-user.txt, en/02-assistant.ids, ... and the same
file names under ja/. Message content is the file text without its final newline.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

from .schema import DOMAINS, IFC_VERSIONS, INPUT_FORMATS, LANGUAGES, MESSAGE_COUNTS, TURN_TYPES

SCENARIO_DIR_RE = re.compile(r"^s\d{3}$")
MESSAGE_FILE_RE = re.compile(r"^(\d{2})-(user|assistant)\.(txt|ids)$")
META_KEYS = ("scenario_id", "domain", "input_format", "turn_type", "ifc_versions", "title", "use_case", "review",
             "authoring_notes")


@dataclass(frozen=True)
class Message:
    role: str
    content: str
    path: str  # relative to the checkout root, for messages


@dataclass(frozen=True)
class Scenario:
    scenario_id: str
    folder: str  # relative path, e.g. data/scenarios/s001
    meta: dict
    examples: dict  # language -> tuple[Message, ...]


def rel(path: Path, root: Path) -> str:
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return path.as_posix()


def read_text(path: Path, where: str) -> tuple[Optional[str], list[str]]:
    """UTF-8 text without BOM or CR, ending in exactly one newline; returns (content, problems)."""
    raw = path.read_bytes()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        line = raw[: e.start].count(b"\n") + 1
        return None, [f"{where}:{line}: not UTF-8 ({e.reason})"]
    problems = []
    if text.startswith("\ufeff"):
        problems.append(f"{where}:1: starts with a byte-order mark")
    if "\r" in text:
        problems.append(f"{where}:{text[: text.index(chr(13))].count(chr(10)) + 1}: CR line ending (use LF)")
    if not text.endswith("\n") or text.endswith("\n\n"):
        problems.append(f"{where}: must end with exactly one newline")
    content = text.lstrip("\ufeff").replace("\r\n", "\n").rstrip("\n")
    if not content.strip():
        problems.append(f"{where}: empty")
    return content, problems


def _meta_problems(meta: dict, folder_name: str, where: str) -> list[str]:
    problems = [f"{where}: missing key {k!r}" for k in META_KEYS if k not in meta]
    problems += [f"{where}: unexpected key {k!r}" for k in meta if k not in META_KEYS]
    if meta.get("scenario_id") != folder_name:
        problems.append(f"{where}: scenario_id {meta.get('scenario_id')!r} != folder name {folder_name!r}")
    for key, allowed in (("domain", DOMAINS), ("input_format", INPUT_FORMATS),
                         ("turn_type", TURN_TYPES)):
        if key in meta and meta[key] not in allowed:
            problems.append(f"{where}: {key} {meta[key]!r} not in {list(allowed)}")
    versions = meta.get("ifc_versions")
    if not isinstance(versions, list) or not versions or not set(versions) <= set(IFC_VERSIONS) \
            or len(set(versions)) != len(versions):
        problems.append(f"{where}: ifc_versions {versions!r} must be distinct values of {list(IFC_VERSIONS)}")
    title = meta.get("title")
    if not (isinstance(title, dict) and all(isinstance(title.get(lang), str) for lang in LANGUAGES)):
        problems.append(f"{where}: title must be {{\"en\": ..., \"ja\": ...}}")
    return problems


def read_meta(folder: Path, root: Path) -> tuple[Optional[dict], list[str]]:
    path = folder / "scenario.json"
    where = rel(path, root)
    if not path.is_file():
        return None, [f"{where}: missing"]
    text, problems = read_text(path, where)
    if text is None:
        return None, problems
    try:
        meta = json.loads(text)
    except json.JSONDecodeError as e:
        return None, problems + [f"{where}:{e.lineno}:{e.colno}: invalid JSON: {e.msg}"]
    if not isinstance(meta, dict):
        return None, problems + [f"{where}: must be a JSON object"]
    return meta, problems + _meta_problems(meta, folder.name, where)


def _file_layout_problems(names: list[str], where: str, turn_type: Optional[str]) -> list[str]:
    problems = [f"{where}/{n}: unexpected file (expected NN-user.txt / NN-assistant.ids)"
                for n in names if not MESSAGE_FILE_RE.match(n)]
    numbered = sorted(MESSAGE_FILE_RE.match(n).groups() for n in names if MESSAGE_FILE_RE.match(n))
    for i, (num, role, ext) in enumerate(numbered, start=1):
        want_role = "user" if i % 2 else "assistant"
        if int(num) != i:
            problems.append(f"{where}: message files must be numbered 01, 02, ... without gaps (found {num} at {i})")
            break
        if role != want_role or ext != ("txt" if role == "user" else "ids"):
            problems.append(f"{where}/{num}-{role}.{ext}: expected {i:02d}-{want_role}."
                            f"{'txt' if want_role == 'user' else 'ids'} (user/assistant alternate)")
    counts = MESSAGE_COUNTS.get(turn_type or "", ())
    if counts and len(numbered) not in counts:
        problems.append(f"{where}: {turn_type} needs {' or '.join(map(str, counts))} message files, "
                        f"found {len(numbered)}")
    if numbered and numbered[-1][1] != "assistant":
        problems.append(f"{where}: the last message file must be NN-assistant.ids (the gold)")
    return problems


def read_language(folder: Path, lang: str, root: Path, turn_type: Optional[str]):
    lang_dir = folder / lang
    where = rel(lang_dir, root)
    if not lang_dir.is_dir():
        return None, [f"{where}/: missing language folder"]
    names = sorted(p.name for p in lang_dir.iterdir())
    problems = _file_layout_problems(names, where, turn_type)
    messages = []
    for name in names:
        m = MESSAGE_FILE_RE.match(name)
        if m:
            content, text_problems = read_text(lang_dir / name, f"{where}/{name}")
            problems += text_problems
            messages.append(Message(m.group(2), content or "", f"{where}/{name}"))
    return (tuple(messages) if messages else None), problems


def read_scenario(folder: Path, root: Path) -> tuple[Optional[Scenario], list[str]]:
    """Scenario (None when unusable) and every problem found; a Scenario may come with problems."""
    where = rel(folder, root)
    problems = [] if SCENARIO_DIR_RE.match(folder.name) else [f"{where}: folder name must be sNNN"]
    meta, meta_problems = read_meta(folder, root)
    problems += meta_problems
    turn_type = meta.get("turn_type") if meta else None
    examples = {}
    for lang in LANGUAGES:
        msgs, lang_problems = read_language(folder, lang, root, turn_type)
        problems += lang_problems
        examples[lang] = msgs
    extra = sorted(p.name for p in folder.iterdir() if p.name not in {"scenario.json", *LANGUAGES})
    problems += [f"{where}/{n}: unexpected file" for n in extra]
    if examples["en"] and examples["ja"]:
        en_names = [Path(m.path).name for m in examples["en"]]
        ja_names = [Path(m.path).name for m in examples["ja"]]
        if en_names != ja_names:
            problems.append(f"{where}: en and ja have different message files ({en_names} vs {ja_names})")
    usable = meta is not None and not any(
        p.startswith(f"{where}/scenario.json: missing key") for p in problems) and all(examples.values())
    return (Scenario(folder.name, where, meta, examples) if usable else None), problems


def read_all(root: Path) -> tuple[list[Scenario], list[str]]:
    """All scenario folders under root/data/scenarios, sorted by name, with their problems."""
    base = root / "data" / "scenarios"
    folders = sorted(p for p in base.iterdir() if p.is_dir()) if base.is_dir() else []
    scenarios, problems = [], []
    for folder in folders:
        sc, sc_problems = read_scenario(folder, root)
        problems += sc_problems
        if sc is not None:
            scenarios.append(sc)
    return scenarios, problems
