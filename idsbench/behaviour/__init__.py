"""Behavioural agreement: a predicted IDS judged by its verdicts on witness IFC models of the gold.

    from idsbench.behaviour import behaviour
    behaviour(candidate_ids_text, gold_ids_text).value      # 1.0 = checks models as the gold does

Witness models are generated from the gold alone (witness.py, build.py), proven against it with
ifctester (prove.py), built once per gold and cached (cache.py); score.py compares verdicts.
"""
from __future__ import annotations

from .cache import witnesses_for
from .check import Unchecked
from .score import SIGNATURE, BehaviourScore, score_document

__all__ = ["SIGNATURE", "BehaviourScore", "behaviour", "score_document", "witnesses_for"]


def behaviour(candidate: str, gold: str) -> BehaviourScore:
    """Score an extracted candidate IDS against a gold IDS (witnesses built or read from cache)."""
    witnesses = witnesses_for(gold)
    if isinstance(witnesses, Unchecked):
        return BehaviourScore(None, reason=f"the gold cannot be checked: {witnesses.reason}")
    return score_document(candidate, witnesses)
