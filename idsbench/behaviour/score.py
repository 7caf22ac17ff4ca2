"""The behavioural agreement score: does a predicted IDS judge the gold's witnesses as the gold does?

Per example, with the gold's own verdicts (from ifctester) as truth:

    behaviour = recall on the witnesses the gold rejects + specificity on those it accepts − 1,

floored at 0 (Youden's J). Accepting everything, or rejecting everything, scores 0; the gold scores
1. A prediction that cannot be parsed or checked scores 0 with its reason. A gold that cannot be
checked leaves the example unscored (None), which is not 0.
"""
from __future__ import annotations

from .check import Unchecked, check, load_ids
from .prove import WitnessSet
from .result import MAX_LISTED, BehaviourScore

def verdicts(document, witnesses: WitnessSet) -> dict[str, bool] | Unchecked:
    """{witness id: rejected} for a loaded IDS, or why it cannot be checked."""
    out = {}
    for version, vm in witnesses.models.items():
        outcome = check(document, vm.model)
        if isinstance(outcome, Unchecked):
            return outcome
        for w in witnesses.witnesses:
            if w.version == version:
                out[w.id] = vm.elements[w.id] in outcome.rejected
    for mw in witnesses.model_witnesses:
        outcome = check(document, witnesses.cardinality_models[mw.id])
        if isinstance(outcome, Unchecked):
            return outcome
        out[mw.id] = outcome.model_rejected
    return out


def compare(predicted: dict[str, bool], gold: dict[str, bool]) -> BehaviourScore:
    rejected = [k for k, v in gold.items() if v]
    accepted = [k for k, v in gold.items() if not v]
    recall = sum(predicted[k] for k in rejected) / len(rejected) if rejected else None
    specificity = sum(not predicted[k] for k in accepted) / len(accepted) if accepted else None
    value = max(0.0, (1.0 if recall is None else recall) + (1.0 if specificity is None else specificity) - 1.0)
    differ = tuple(k for k in gold if predicted[k] != gold[k])[:MAX_LISTED]
    return BehaviourScore(value, recall, specificity, len(rejected), len(accepted), None, differ)


def score_document(candidate: str, witnesses: WitnessSet) -> BehaviourScore:
    """Score an extracted candidate IDS (untrusted text) against a gold's witnesses."""
    gold = {k: v for k, v in witnesses.verdicts.items()}
    if not gold:
        return BehaviourScore(None, reason="the gold has no witnesses")
    counts = {"rejected": sum(gold.values()), "accepted": len(gold) - sum(gold.values())}
    document = load_ids(candidate) if candidate and candidate.strip() else Unchecked("empty output")
    if isinstance(document, Unchecked):
        return BehaviourScore(0.0, reason=document.reason, **counts)
    predicted = verdicts(document, witnesses)
    if isinstance(predicted, Unchecked):
        return BehaviourScore(0.0, reason=predicted.reason, **counts)
    return compare(predicted, gold)
