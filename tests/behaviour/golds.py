"""The gold IDS of a named example: the frozen version-2 golds (tests/support/frozen.py), whose
documents the variants of these tests were written for."""
from tests.support.frozen import frozen_gold as gold_text

__all__ = ["gold_text"]
