"""A stand-in for the paper's official prompt, which is not ours to copy: its bytes, and a protocol file
that is paper-0shot.json pinned to them (a test-only hash) instead of to the official file."""
import hashlib
import json

from idsbench.harness.protocol import PROTOCOLS

OFFICIAL_SHA256 = "8483481029273c83bb9895c46a2d051f528da84b65fbea49d006e7e7e36d6b8d"
STANDIN_PROMPT = b"You write IDS files.\r\nA stand-in for the official prompt, which is not ours to copy.\n"


def standin_protocol(folder, urls=(), content=STANDIN_PROMPT):
    """paper-0shot.json with the stand-in's sha256, size and `urls`, written to folder/paper-0shot.json."""
    doc = json.loads((PROTOCOLS / "paper-0shot.json").read_text(encoding="utf-8"))
    doc["prompt"].update(sha256=hashlib.sha256(content).hexdigest(), bytes=len(content), urls=list(urls))
    path = folder / "paper-0shot.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def write_standin_prompt(folder):
    path = folder / "standin_0shot.txt"
    path.write_bytes(STANDIN_PROMPT)
    return path
