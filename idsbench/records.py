"""Reading reference data and prediction files: harness input, so problems raise InputError."""
from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, BinaryIO

from idsbench.example import METADATA_KEYS, Reference
from idsbench.locations import default_data


MAX_LISTED = 20  # problems shown one a line; the rest are counted
SNIFF_BYTES = 8192
UTF8_BOM = b"\xef\xbb\xbf"
# What a file that is not UTF-8 text usually is, by its first bytes.
MAGIC = ((b"\xff\xfe", "UTF-16 text: save it as UTF-8"), (b"\xfe\xff", "UTF-16 text: save it as UTF-8"),
         (b"\x1f\x8b", "gzip-compressed: decompress it first"), (b"PK\x03\x04", "a zip archive: extract it first"))


class InputError(ValueError):
    """Bad harness input (a file, a line, an id): raised before anything is written."""

    @classmethod
    def listing(cls, problems: Sequence[str]) -> InputError:
        return cls(problem_list(problems))


def problem_list(problems: Sequence[str], limit: int = MAX_LISTED) -> str:
    """One problem a line: the first `limit`, then how many were left out (a broken file can have
    thousands, and the first few tell what is wrong)."""
    shown = list(problems[:limit])
    if len(problems) > limit:
        shown.append(f"… and {len(problems) - limit} more ({len(problems)} problems in all)")
    return "\n".join(shown)


def binary_problem(head: bytes) -> str | None:
    """Why a file starting with `head` is not JSON Lines text at all, or None when it may be."""
    for magic, what in MAGIC:
        if head.startswith(magic):
            return f"not a JSON Lines file: {what}"
    nul = head.find(b"\0")
    if nul >= 0:
        return f"not a JSON Lines file: binary data (a NUL byte at byte {nul}); expected UTF-8 text, one JSON " \
               "object per line"
    return None


def scan_jsonl(path: Path, problems: list[str]) -> Iterator[tuple[int, int, Any]]:
    """(line number, byte offset, object) for each non-blank line, read one line at a time; each
    malformed line is added to `problems`. A file that is not text at all raises at once; a UTF-8
    byte order mark (Windows editors write one) is skipped.

    Lines end at "\n" only: JSON text may hold U+2028, U+0085 or form feeds unescaped (writers
    with ensure_ascii=False leave them), and `str.splitlines` would cut a model output there."""
    try:
        with open(path, "rb") as handle:
            head = handle.read(SNIFF_BYTES)
            binary = binary_problem(head)
            if binary:
                raise InputError(f"{path}: {binary}")
            offset = len(UTF8_BOM) if head.startswith(UTF8_BOM) else 0
            handle.seek(offset)
            for number, line in enumerate(handle, start=1):
                start, offset = offset, offset + len(line)
                row = _json_line(line, f"{path}:{number}", problems)
                if row is not None:
                    yield number, start, row[0]
    except OSError as exc:
        raise InputError(f"{path}: cannot read: {exc}") from exc


def iter_jsonl(path: Path) -> Iterator[tuple[int, int, Any]]:
    """`scan_jsonl`, with every malformed line named in one InputError raised after the last line."""
    problems: list[str] = []
    yield from scan_jsonl(path, problems)
    if problems:
        raise InputError.listing(problems)


def _json_line(line: bytes, where: str, problems: list[str]) -> tuple[Any] | None:
    """(object,) for a JSON line, None for a blank one or (noting the problem) a bad one."""
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as exc:
        problems.append(f"{where}: not UTF-8: {exc.reason} at byte {exc.start}")
        return None
    if not text.strip():
        return None
    try:
        return (json.loads(text),)
    except json.JSONDecodeError as exc:
        problems.append(f"{where}: not JSON: {exc.msg} (column {exc.colno})")
        return None


def read_jsonl(path: Path) -> list[tuple[int, Any]]:
    """(line number, object) for each non-blank line; every malformed line is named at once."""
    return [(number, row) for number, _, row in iter_jsonl(path)]


def reference_from_record(record: Mapping[str, Any]) -> Reference:
    """A dataset record (published schema) -> Reference; the gold is `gold_ids` or the last message."""
    gold = record.get("gold_ids")
    if gold is None:
        messages = record.get("messages") or []
        gold = messages[-1]["content"] if messages and messages[-1].get("role") == "assistant" else None
    if not isinstance(record.get("id"), str) or not isinstance(gold, str):
        raise InputError(f"record {record.get('id')!r}: needs a string id and a gold IDS")
    return Reference(record["id"], gold, {k: record[k] for k in METADATA_KEYS if k in record})


def data_files(data: Path | None = None) -> list[Path]:
    """The JSONL files of `data` (a file or a folder; default: locations.default_data())."""
    data = default_data() if data is None else Path(data)
    if data.is_file():
        return [data]
    files = sorted(data.glob("test-*.jsonl")) or sorted(data.glob("*.jsonl"))
    if not files:
        raise InputError(f"{data}: no JSONL data files found")
    return files


def iter_records(data: Path | None = None) -> Iterator[tuple[str, int, dict]]:
    """(file, line, record) for every record of a JSONL file or a data folder, one at a time."""
    for path in data_files(data):
        for number, _, record in iter_jsonl(path):
            yield str(path), number, record


def load_records(data: Path | None = None) -> list[tuple[str, int, dict]]:
    """(file, line, record) for every record of a JSONL file or a data folder."""
    return list(iter_records(data))


def load_references(data: Path | None = None) -> list[Reference]:
    """All records of a JSONL file or a data folder, sorted by id."""
    references, problems = [], []
    # One copy of equal golds and of equal metadata: k samples of a prompt need one, not k, and
    # 100,000 references share a few hundred metadata combinations.
    golds: dict[str, str] = {}
    metadata: dict[str, Mapping[str, Any]] = {}
    for path, number, record in iter_records(data):  # records (with their prompts) are not kept
        try:
            reference = reference_from_record(record)
            key = json.dumps(reference.metadata, sort_keys=True)
            references.append(replace(reference, gold=golds.setdefault(reference.gold, reference.gold),
                                      metadata=metadata.setdefault(key, reference.metadata)))
        except (InputError, KeyError, TypeError, AttributeError) as exc:
            problems.append(f"{path}:{number}: {exc}")
    duplicates = [i for i, c in Counter(r.id for r in references).items() if c > 1]
    problems += [f"duplicate reference id {i!r}" for i in sorted(duplicates)]
    if problems:
        raise InputError.listing(problems)
    return sorted(references, key=lambda r: r.id)


def _row_problem(row: Any) -> str | None:
    """What is wrong with one predictions line, or None."""
    if not isinstance(row, dict) or not isinstance(row.get("id"), str):
        return 'expected an object with a string "id"'
    if "prediction" not in row:
        return 'no "prediction" (use null for a failed generation)'
    if row["prediction"] is not None and not isinstance(row["prediction"], str):
        return f'"prediction" must be a string or null, not {type(row["prediction"]).__name__}'
    return None


def _listed(ids: Sequence[str]) -> str:
    return ", ".join(ids[:MAX_LISTED]) + (f" (+{len(ids) - MAX_LISTED} more)" if len(ids) > MAX_LISTED else "")


def check_predictions(path: Path, reference_ids: Sequence[str], *, subset: bool = False,
                      missing_hint: str = "") -> tuple[dict[str, int], list[str]]:
    """({id: byte offset of its line}, every problem of the file), no output kept.

    With `subset`, the file may leave out ids (those present are scored); it must still hold at
    least one, and no unknown ones; an empty file is one problem, not one per missing id.
    `missing_hint` follows the list of missing ids (what the caller's user can do about them)."""
    seen: dict[str, int] = {}
    named: set[str] = set()  # ids on a line, good or bad: a bad line is named once, not also as missing
    problems: list[str] = []
    for number, offset, row in scan_jsonl(path, problems):
        problem = _row_problem(row)
        if problem is None and row["id"] in named:
            problem = f"duplicate id {row['id']!r}"
        if isinstance(row, dict) and isinstance(row.get("id"), str):
            named.add(row["id"])
        if problem is not None:
            problems.append(f"{path}:{number}: {problem}")
        else:
            seen[row["id"]] = offset
    if not seen and not problems:  # no line at all: not one missing id per example of the data
        return seen, [f"{path}: the file is empty: no predictions (one JSON object per line, "
                      '{"id": "s001-en", "prediction": "<raw model output>"})']
    unknown = sorted(named - set(reference_ids))
    missing = [i for i in reference_ids if i not in named]
    if unknown:
        problems.append(f"{path}: ids not in the data: {_listed(unknown)}")
    if missing and not subset:
        problems.append(f"{path}: missing predictions for: {_listed(missing)}" + (missing_hint if seen else ""))
    return seen, problems


def index_predictions(path: Path, reference_ids: Sequence[str], **options) -> dict[str, int]:
    """{id: byte offset of its line} after `check_predictions` found no problem (else one InputError
    lists them): scoring then reads each prediction when it is its turn (`read_predictions`)."""
    seen, problems = check_predictions(path, reference_ids, **options)
    if problems:
        raise InputError.listing(problems)
    return seen


def _prediction_at(handle: BinaryIO, offset: int) -> str | None:
    handle.seek(offset)
    return json.loads(handle.readline().decode("utf-8"))["prediction"]


def read_predictions(path: Path, offsets: Mapping[str, int], ids: Sequence[str]) -> Iterator[str | None]:
    """The raw outputs of `ids`, in that order, each read when it is asked for."""
    with open(path, "rb") as handle:
        for i in ids:
            yield _prediction_at(handle, offsets[i])


def load_predictions(path: Path, reference_ids: Sequence[str]) -> dict[str, str | None]:
    """{id: raw output or None (a failed generation)}, checked against the reference ids."""
    offsets = index_predictions(path, reference_ids)
    return dict(zip(reference_ids, read_predictions(path, offsets, reference_ids)))


def read_rounds(path: Path, offsets: Mapping[str, int], ids: Sequence[str]) -> dict[str, dict]:
    """{id: {"prediction", "rounds"}} of `ids` when some row carries repair rounds (the predictions of a
    repair protocol), else {}."""
    rows = {}
    with open(path, "rb") as handle:
        for i in ids:
            handle.seek(offsets[i])
            row = json.loads(handle.readline().decode("utf-8"))
            rounds = row.get("rounds") if isinstance(row.get("rounds"), list) else []
            rows[i] = {"prediction": row["prediction"], "rounds": [r for r in rounds if isinstance(r, dict)]}
    return rows if any(r["rounds"] for r in rows.values()) else {}
