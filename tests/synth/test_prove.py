"""Golds proven on their own witness models in worker processes; a task that cannot be proven is dropped."""
from __future__ import annotations

from idsbench.synth import generate as generation
from idsbench.synth.config import Options
from idsbench.synth.generate import generate
from idsbench.synth.gold import gold_ids
from idsbench.synth.prove import Ledger, Proof, gold_hash, prove_all
from idsbench.synth.sample import sample_task


def test_generated_golds_pass_their_witnesses_and_the_ledger_keeps_them(tmp_path):
    plans = [sample_task(2, i, "easy") for i in range(2)]
    golds = [gold_ids(p, p.final, language) for p in plans for language in ("en", "ja")]
    ledger = Ledger(tmp_path / "proofs.jsonl")
    proofs = prove_all(golds, ledger, workers=2)
    assert all(p.proven and p.witnesses > 0 for p in proofs.values())
    assert Ledger(tmp_path / "proofs.jsonl").known == proofs  # a rerun proves nothing again


def test_a_gold_that_cannot_be_proven_is_reported():
    plan = sample_task(2, 0, "easy")
    broken = gold_ids(plan, plan.final, "en").replace("<simpleValue>IFC", "<simpleValue>IFCNOSUCH", 1)
    proof = prove_all([broken], Ledger(None), workers=1)[gold_hash(broken)]
    assert not proof.proven and proof.reason


def test_unproven_tasks_are_dropped_and_counted(tmp_path, monkeypatch):
    def fake(golds, ledger, workers):
        return {gold_hash(g): Proof("-000001</title>" not in g, "fails its witnesses") for g in golds}  # task 1

    monkeypatch.setattr(generation, "prove_all", fake)
    tally = generate(Options(n=3, seed=2, difficulty="easy", prove=True), tmp_path / "out")
    assert tally.written == 2 and len(tally.dropped_proof) == 1 and "fails its witnesses" in tally.dropped_proof[0]
