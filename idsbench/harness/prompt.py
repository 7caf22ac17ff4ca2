"""The system prompt: a versioned text file whose sha256 goes into every result (the prompt hash)."""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from idsbench.records import InputError

PROMPTS = Path(__file__).resolve().parent / "prompts"
DEFAULT_PROMPT = PROMPTS / "zero-shot-v1.txt"


@dataclass(frozen=True)
class Prompt:
    name: str  # file stem, e.g. "zero-shot-v1"
    text: str
    sha256: str

    def to_json(self) -> dict:
        return {"name": self.name, "sha256": self.sha256}


def prompt_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def load_prompt(path: Path | None = None) -> Prompt:
    """The prompt file as sent (trailing whitespace stripped, so an editor's final newline does not count)."""
    path = Path(path or DEFAULT_PROMPT)
    try:
        text = path.read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"{path}: cannot read the prompt: {exc}") from exc
    if not text:
        raise InputError(f"{path}: the prompt is empty")
    return Prompt(path.stem, text, prompt_hash(text))


def chat_messages(prompt: Prompt, messages: list[dict]) -> list[dict]:
    """System prompt + the conversation up to (not including) the gold answer."""
    return [{"role": "system", "content": prompt.text}, *messages]
