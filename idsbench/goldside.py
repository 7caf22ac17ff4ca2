"""Work on the gold side of an example, done once per gold document and reused by every prediction
scored against it (a run scores many predictions against each reference: samples, submissions,
rollouts of a training step).

    @per_gold
    def gold_blocks(gold: str) -> GoldBlocks: ...     # facets/counts.py

A function of the gold text alone, decorated with `per_gold`, is computed once per distinct gold
(keyed by the text itself; a str caches its own hash) and kept for the last GOLDS_KEPT golds. Results
are shared: callers never change them. Any further gold-side work (parsed models of the gold, say)
is one more such function. Other memories of past documents (facets/blocks.py remembers facets) are
dropped with them: `forgotten_with_golds(clear)`.
"""
from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import TypeVar

GOLDS_KEPT = 4096  # distinct gold documents whose results stay in memory (the data has 166)
T = TypeVar("T")
_CLEARS: list[Callable[[], None]] = []


def per_gold(function: Callable[[str], T]) -> Callable[[str], T]:
    """Compute `function(gold)` once per gold text."""
    cached = lru_cache(maxsize=GOLDS_KEPT)(function)
    _CLEARS.append(cached.cache_clear)
    return cached


def forgotten_with_golds(clear: Callable[[], None]) -> None:
    """Call `clear` whenever the kept gold-side results are dropped."""
    _CLEARS.append(clear)


def forget() -> None:
    """Drop every kept result (tests, benchmarks, or a long process that moves to new data)."""
    for clear in _CLEARS:
        clear()
