"""synth-eval-v1 is regenerated bit for bit: its first tasks, made again, have the pinned hash."""
from __future__ import annotations

import hashlib

from idsbench.records import iter_records
from idsbench.synth.config import Options
from idsbench.synth.evalset import SLICE, eval_set, slice_hash
from idsbench.synth.generate import generate
from idsbench.synth.version import GENERATOR


def test_the_first_tasks_of_synth_eval_v1_have_the_pinned_hash(tmp_path):
    pinned = eval_set("synth-eval-v1")
    assert pinned.generator == GENERATOR, "a new generator version needs a new evaluation set (synth-eval-v2)"
    options = Options(**{**pinned.options.__dict__, "n": SLICE, "prove": False})
    generate(options, tmp_path / "slice")
    records = [rec for _, _, rec in iter_records(tmp_path / "slice")]
    assert len(records) == 2 * SLICE
    assert slice_hash(records) == pinned.slice_hash


def test_the_slice_hash_sees_any_change():
    records = [{"id": "a", "gold_ids": "x"}, {"id": "b", "gold_ids": "y"}]
    changed = [{"id": "a", "gold_ids": "x"}, {"id": "b", "gold_ids": "y "}]
    assert slice_hash(records) != slice_hash(changed)
    assert slice_hash(records) == slice_hash(list(reversed(records)))
    assert len(slice_hash(records)) == len(hashlib.sha256().hexdigest()[:16])
