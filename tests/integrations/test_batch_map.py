"""`datasets.Dataset.map(score_batch, batched=True, num_proc=2)` on 10,000 outputs.

Cheap by construction: 20 distinct (output, gold) pairs repeated 500 times, and equal pairs in a batch are
scored once; the test counts the scorings instead of timing them."""
import random
from collections import Counter

import datasets
import pytest

from idsbench.integrations.batch import aggregate, score_batch
from idsbench.integrations.scoring import METRICS, means, scorer_for
from tests.integrations.scripted import degrade, records

N, BATCH = 10_000, 1_000


def test_map_num_proc_on_10000_outputs(tmp_path):
    rows = records()[:4]
    pairs = [(degrade(r["gold_ids"], kind), r["gold_ids"]) for r in rows for kind in range(5)]
    order = [i % len(pairs) for i in range(N)]
    random.Random(0).shuffle(order)
    direct = [scorer_for().score(*pair).metrics() for pair in pairs]  # also warms the caches the workers inherit
    ds = datasets.Dataset.from_dict({"prediction": [pairs[i][0] for i in order], "gold_ids": [pairs[i][1] for i in order],
                                     "pair": order})
    scored = ds.map(score_batch, batched=True, batch_size=BATCH, num_proc=2, remove_columns=["prediction", "gold_ids"],
                    cache_file_name=str(tmp_path / "scored.arrow"))  # not writing 40 MB of outputs back

    assert len(scored) == N and scored["pair"] == order  # every row, in order
    batches = N // BATCH
    assert len(pairs) <= sum(scored["scored"]) <= len(pairs) * batches  # at most 200 scorings for 10,000 rows
    for i in range(0, N, 997):  # rows spread over every batch and both processes
        assert {m: scored[i][m] for m in METRICS} == direct[order[i]]
    counts = Counter(order)
    expected = means(direct[p] for p in order)
    got = aggregate(scored)
    assert got == pytest.approx(expected, abs=1e-12)
    assert got["content"] == pytest.approx(sum(counts[p] * direct[p]["content"] for p in counts) / N)
    assert set(scored["audit_status"]) >= {"Ok", "IdsContentError"} and "103" in scored["audit_codes"]


def test_missing_column_is_named():
    with pytest.raises(KeyError, match="'completion' not in the dataset"):
        score_batch({"prediction": ["x"], "gold_ids": ["y"]}, prediction_column="completion")
