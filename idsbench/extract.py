"""Output extraction: raw model output -> candidate IDS document (docs/facet-scorer.md §0).

The spec is stated as two regular expressions (SPEC_THINK, SPEC_FENCE, kept below as the
reference). Run by a backtracking engine they are quadratic (`<think>` repeated without a
close) and cubic (a fence followed by a long run of whitespace) on untrusted output, so the
functions here compute the same result with linear scans; tests/test_fuzz.py checks the
two agree on generated texts.
"""
from __future__ import annotations

import re

# The reference definitions: every <think>…</think> span (shortest match, case-insensitive,
# may cross lines), and the first fenced block with an optional `ids`/`xml` tag (any other
# tag word stays in the body, exactly as the published scorer behaves).
SPEC_THINK = re.compile(r"<think>.*?</think>", re.IGNORECASE | re.DOTALL)
SPEC_FENCE = re.compile(r"```(?:ids|xml)?\s*(.*?)\s*```", re.IGNORECASE | re.DOTALL)

# Literal pieces of the reference patterns, with the same flags, so that case folding and
# `\s` mean exactly what they mean there.
_OPEN = re.compile(r"<think>", re.IGNORECASE)
_CLOSE = re.compile(r"</think>", re.IGNORECASE)
_TAG = re.compile(r"ids|xml", re.IGNORECASE)
_SPACES = re.compile(r"\s*")
_SPACE = re.compile(r"\s")
FENCE = "```"


def strip_think(text: str) -> str:
    """Remove every <think>…</think> span (same result as `SPEC_THINK.sub("", text)`)."""
    kept, pos = [], 0
    while (opening := _OPEN.search(text, pos)) is not None:
        closing = _CLOSE.search(text, opening.end())
        if closing is None:
            break  # no close after this opening means none after any later one either
        kept.append(text[pos:opening.start()])
        pos = closing.end()
    kept.append(text[pos:])
    return "".join(kept)


def first_fence_body(text: str) -> str | None:
    """The body of the first fenced block (same as `SPEC_FENCE.search(text).group(1)`), or None.

    Only the first ``` can open a match: if no ``` follows it (after its tag and spaces),
    none follows any later one. The lazy body then ends where the whitespace before the next
    ``` begins.
    """
    start = text.find(FENCE)
    if start < 0:
        return None
    tag = _TAG.match(text, start + len(FENCE))
    body_start = _SPACES.match(text, tag.end() if tag else start + len(FENCE)).end()
    close = text.find(FENCE, body_start)
    if close < 0:
        return None
    body_end = close
    while body_end > body_start and _SPACE.match(text, body_end - 1):
        body_end -= 1
    return text[body_start:body_end]


def extract_candidate(raw: str) -> str:
    """The candidate document of a raw model output; "" means a failed generation."""
    text = strip_think(raw)
    body = first_fence_body(text)
    return (text if body is None else body).strip()


def extract_candidate_reference(raw: str) -> str:
    """The spec's regex formulation of `extract_candidate` (superlinear on hostile input: tests only)."""
    text = SPEC_THINK.sub("", raw)
    fence = SPEC_FENCE.search(text)
    return (text if fence is None else fence.group(1)).strip()
