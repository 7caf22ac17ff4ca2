"""Broken predictions files, as a new user makes them, with what the error must say and how long it may be."""
import json
import random

from idsbench.records import MAX_LISTED
from tests.support.smalldata import GOLD, IDS

ROWS = [{"id": i, "prediction": GOLD[i]} for i in IDS]


def lines(*rows) -> bytes:
    return b"".join((r if isinstance(r, bytes) else json.dumps(r).encode()) + b"\n" for r in rows)


# (case, file content, what the error says, at most this many lines of error)
BAD_FILES = [
    ("missing key", lines(*ROWS[:2], {"id": IDS[2]}, ROWS[3]), ':3: no "prediction" (use null', 1),
    ("wrong type", lines(*ROWS[:3], {"id": IDS[3], "prediction": 5}), ':4: "prediction" must be a string or null, '
     "not int", 1),
    ("id not a string", lines(*ROWS, {"id": 7, "prediction": None}), ':5: expected an object with a string "id"', 1),
    ("duplicate", lines(*ROWS, ROWS[0]), f":5: duplicate id '{IDS[0]}'", 1),
    ("unknown id", lines(*ROWS, {"id": "zz-en", "prediction": None}), "ids not in the data: zz-en", 1),
    ("missing ids", lines(*ROWS[:2]), f"missing predictions for: {IDS[2]}, {IDS[3]}; to score only", 1),
    ("binary", random.Random(0).randbytes(2_000_000), "not a JSON Lines file: binary data (a NUL byte", 1),
    ("UTF-16", "\ufeff".encode("utf-16-le") + lines(*ROWS).decode().encode("utf-16-le"), "UTF-16 text", 1),
    ("gzip", b"\x1f\x8b\x08\x00" + bytes(100), "gzip-compressed", 1),
    ("empty", b"", "the file is empty: no predictions", 1),
    ("blank lines", b"\n  \n\r\n", "the file is empty: no predictions", 1),
    ("UTF-8 BOM, then nothing", b"\xef\xbb\xbf", "the file is empty: no predictions", 1),
    ("many bad lines", b"not json\n" * 500, f"… and {500 - MAX_LISTED + 1} more (501 problems in all)",
     MAX_LISTED + 1),
]


def error_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.strip()]
