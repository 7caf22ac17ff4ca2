"""The scoring core gives exactly the recorded results on a fixed corpus (tests/equivalence.py): full
audit results with every finding under both profiles, and per-example results of both stages, on the
golds, their synthetic outputs and seeded mutations, the rules' examples, odd documents and (when
../shared is present) every conformance suite."""
import json

from tests.equivalence import DIGEST, groups


def test_results_equal_the_recorded_ones():
    stored = json.loads(DIGEST.read_text(encoding="utf-8"))
    checked, differing = [], []
    for key, items in groups():
        if key not in stored and key.startswith("suite:"):
            continue  # a conformance suite added to ../shared since the digest was written
        assert key in stored, f"{key} is not in the digest: the frozen corpus changed"
        checked.append(key)
        if stored[key] != _digest(items):
            differing.append(key)
    assert not differing, f"results changed in {len(differing)} of {len(checked)} groups: {differing[:10]}"
    golds = [k for k in checked if k.startswith("gold:")]
    assert len(golds) >= 160 and {"rules", "odd"} <= set(checked), "the digest no longer covers the corpus"


def _digest(items) -> str:
    from tests.equivalence import _hash

    return _hash([item() for item in items])
