"""Offline baselines that need no model: `gold` (sanity check) and `copy-previous` (the do-nothing floor).

`rule-based` lives in rulebased.py. Each baseline maps an Example to a raw output string, deterministically.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from .examples import Example
from .idsxml import Entity, IdsDocument, Specification, fenced, render

BASELINE_VERSION = "1"  # bump when any baseline's output changes (it is part of run_config)
DEFAULT_VERSION = "IFC4"
_VERSION_LINE = re.compile(r"^\s*IDS\s*Version\s*[:：]\s*(?P<value>.+?)\s*$", re.IGNORECASE)
_FILENAME_LINE = re.compile(r"^\s*file\s*name\s*[:：]\s*(?P<value>.+?)\s*$", re.IGNORECASE)


@dataclass(frozen=True)
class Request:
    """A user message split into its header (`IDS Version`, `filename`) and the requirement body."""

    ifc_version: str | None
    filename: str | None
    body: str


def parse_request(text: str) -> Request:
    """Header lines come first, then a blank line; a message without a header is all body."""
    version = filename = None
    lines = text.split("\n")
    index = 0
    while index < len(lines):
        line = lines[index]
        if (match := _VERSION_LINE.match(line)) and version is None:
            version = " ".join(match["value"].split())
        elif (match := _FILENAME_LINE.match(line)) and filename is None:
            filename = match["value"]
        elif line.strip():
            break
        index += 1
    return Request(version, filename, "\n".join(lines[index:]).strip())


def user_requests(example: Example) -> list[Request]:
    return [parse_request(m["content"]) for m in example.messages if m["role"] == "user"]


def current_version(example: Example) -> str:
    """The latest `IDS Version` given in the conversation (a change request may switch it)."""
    versions = [r.ifc_version for r in user_requests(example) if r.ifc_version]
    return versions[-1] if versions else DEFAULT_VERSION


def title_for(example: Example, fallback: str = "Information requirements") -> str:
    """The filename without .ids; without one, a title made from the example's own words."""
    filenames = [r.filename for r in user_requests(example) if r.filename]
    if filenames:
        name = filenames[0].strip()
        return name[:-4] if name.lower().endswith(".ids") else name
    return fallback


def previous_ids(example: Example) -> str | None:
    """The last IDS the assistant wrote earlier in the conversation (multi-turn), if any."""
    earlier = [m["content"] for m in example.messages if m["role"] == "assistant"]
    return earlier[-1] if earlier else None


def skeleton(example: Example) -> str:
    """A minimal IDS that passes the audit: right header version and title, one spec on IFCPROJECT."""
    spec = Specification("Project", current_version(example), (Entity("IFCPROJECT"),))
    return render(IdsDocument(title_for(example), (spec,)))


def gold(example: Example) -> str:
    """The gold answer itself: every metric must be 1.0 (checks the scoring pipeline end to end)."""
    if example.gold is None:
        raise ValueError(f"{example.id}: the gold baseline needs the gold IDS")
    return example.gold


def copy_previous(example: Example) -> str:
    """Multi-turn: the earlier IDS unchanged (credit for what the change request keeps). Single-turn: skeleton."""
    earlier = previous_ids(example)
    return earlier if earlier is not None else fenced(skeleton(example))
