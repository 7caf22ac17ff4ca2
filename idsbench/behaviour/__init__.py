"""Behavioural agreement: a predicted IDS judged by its verdicts on witness IFC models of the gold.

    from idsbench.behaviour import behaviour
    behaviour(candidate_ids_text, gold_ids_text).value      # 1.0 = checks models as the gold does

Witness models are generated from the gold alone (witness.py, build.py), proven against it with
ifctester (prove.py), built once per gold and cached (cache.py); score.py compares verdicts.
Importing this package is cheap: ifcopenshell and ifctester load on first use.
"""
from __future__ import annotations

from .result import SIGNATURE, BehaviourScore

__all__ = ["SIGNATURE", "BehaviourScore", "behaviour", "witnesses_for"]


def witnesses_for(gold: str, cache_dir="default"):
    """The proven witness set of a gold (see cache.witnesses_for)."""
    from .cache import witnesses_for as build  # noqa: PLC0415 - IFC libraries load on first use

    return build(gold, cache_dir)


def behaviour(candidate: str, gold: str) -> BehaviourScore:
    """Score an extracted candidate IDS against a gold IDS (witnesses built or read from cache)."""
    from .check import Unchecked  # noqa: PLC0415
    from .score import score_document  # noqa: PLC0415

    witnesses = witnesses_for(gold)
    if isinstance(witnesses, Unchecked):
        return BehaviourScore(None, reason=f"the gold cannot be checked: {witnesses.reason}")
    return score_document(candidate, witnesses)
