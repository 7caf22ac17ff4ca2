"""Output extraction: raw model output -> candidate IDS document (facet-scorer spec §0)."""
from __future__ import annotations

import re

# Shortest match, case-insensitive, may cross lines.
_THINK = re.compile(r"<think>.*?</think>", re.IGNORECASE | re.DOTALL)
# First fenced block; an optional `ids`/`xml` tag. Any other tag word stays in the body,
# exactly as the published scorer behaves.
_FENCE = re.compile(r"```(?:ids|xml)?\s*(.*?)\s*```", re.IGNORECASE | re.DOTALL)


def strip_think(text: str) -> str:
    """Remove every <think>…</think> span."""
    return _THINK.sub("", text)


def extract_candidate(raw: str) -> str:
    """The candidate document of a raw model output; "" means a failed generation."""
    text = strip_think(raw)
    fence = _FENCE.search(text)
    if fence is not None:
        text = fence.group(1)
    return text.strip()
