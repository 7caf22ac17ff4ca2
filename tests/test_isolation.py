"""Isolation: the worker pool gives the serial path's results, a pathological example is scored as
failed within its time limit, and no example changes another's score."""
import os
import time
from functools import lru_cache

import pytest

from idsbench.example import Reference
from idsbench.isolation import WorkerPool, evaluate_isolated
from idsbench.pipeline import evaluate_one, evaluate_stream, make_auditor, score
from idsbench.records import load_references
from idsbench.regex import safe
from idsbench.synthetic.documents import entity, ids, spec
from tests.support.corpus import small_corpus

REFERENCES = load_references()
SLOW = "SLEEP"  # the marker documents of the stand-in auditors below
CRASH = "CRASH"
FAIL = "FAIL"


def stand_in_auditor():
    """The real auditor, except on marker documents: sleep, die, or raise."""
    real = make_auditor("ids-tool-1.0.96")

    def run(candidate: str):
        if candidate == SLOW:
            time.sleep(60)
        if candidate == CRASH:
            os._exit(3)
        if candidate == FAIL:
            raise RuntimeError("boom")
        return real(candidate)
    return run


@lru_cache(maxsize=1)
def corpus() -> tuple[list[str], list[Reference]]:
    """Every variant of synthetic output (and the gold) of 12 golds spread over the data, each with its
    reference: 168 examples of every kind, not the 2,324 of the whole corpus."""
    pairs = small_corpus([r.gold for r in REFERENCES], every=14, all_golds=False)
    return [raw for raw, _ in pairs], [REFERENCES[i] for _, i in pairs]


@lru_cache(maxsize=1)
def serial_results():
    raws, refs = corpus()
    return list(evaluate_stream(raws, refs))


def test_pool_results_equal_the_serial_path_on_every_kind_of_output():
    raws, refs = corpus()
    assert list(evaluate_stream(raws, refs, workers=2, time_limit=60)) == serial_results()


def test_score_run_with_workers_equals_serial():
    raws, refs = [r.gold for r in REFERENCES[:40]], REFERENCES[:40]
    serial, pooled = score(raws, refs), score(raws, refs, workers=2)
    assert (pooled.results, pooled.overall, pooled.breakdowns, pooled.signature) == \
           (serial.results, serial.overall, serial.breakdowns, serial.signature)


def _pathological() -> list[str]:
    return [
        ids(spec(['<entity><name><xs:restriction base="xs:string"><xs:pattern value="(.{0,20}){0,900}Q"/>'
                  "</xs:restriction></name></entity>"])),  # over the regex budget: 503
        ids(*[spec([entity("IFCWALL")], name=f"s{i}") for i in range(1000)]),
        "```" + " " * 1_000_000,
        "<a>" * 50_000,
        None,
    ]


@pytest.mark.parametrize("workers,time_limit", [(1, None), (2, 60)])
def test_pathological_neighbours_change_no_other_score(workers, time_limit, monkeypatch):
    # A 50th of the regex budget, still twice what a real document needs: the pattern neighbour exhausts
    # it (a 503) in a fraction of the time.
    monkeypatch.setattr(safe, "DOCUMENT_BUDGET", safe.DOCUMENT_BUDGET // 50)
    raws, refs = corpus()
    picks = list(range(0, len(raws), 7))
    bad = _pathological()
    batch_raws, batch_refs = [], []
    for k, i in enumerate(picks):
        batch_raws += [raws[i], bad[k % len(bad)]]
        batch_refs += [refs[i], refs[i]]
    batch = list(evaluate_stream(batch_raws, batch_refs, workers=workers, time_limit=time_limit))
    assert batch[::2] == [serial_results()[i] for i in picks]


def test_an_example_over_the_time_limit_is_failed_with_its_reason_and_the_rest_is_scored():
    golds = [r.gold for r in REFERENCES[:4]]
    raws = [golds[0], SLOW, golds[1], SLOW, golds[2], golds[3]]
    refs = [REFERENCES[0], REFERENCES[1], REFERENCES[1], REFERENCES[2], REFERENCES[2], REFERENCES[3]]
    results = list(evaluate_isolated(zip(raws, refs), stand_in_auditor, evaluate_one, workers=2, time_limit=0.5))
    assert [r.error for r in results] == [None, "timeout after 0.5s", None, "timeout after 0.5s", None, None]
    for r in results[1::2][:2]:
        assert r.verdict == (0, 0, 0) and r.facets.f1 == 0.0 and r.audit.status_text == "Timeout"
    assert [r.facets.f1 for r in results if r.error is None] == [1.0, 1.0, 1.0, 1.0]


def test_a_real_document_over_the_time_limit_times_out():
    big = ids(*[spec([entity("IFCWALL")], name=f"s{i}") for i in range(10_000)])
    run = score([big, REFERENCES[0].gold], REFERENCES[:2], workers=1, time_limit=0.3)
    assert run.results[0].error == "timeout after 0.3s" and run.results[0].verdict == (0, 0, 0)
    assert run.results[1].error is None and run.results[1].verdict == (1, 1, 1)  # the replacement worker scored it


def test_a_worker_that_dies_or_raises_fails_only_its_example():
    gold = REFERENCES[0].gold
    results = list(evaluate_isolated(zip([CRASH, gold, FAIL, gold], [REFERENCES[0]] * 4), stand_in_auditor, evaluate_one,
                                     workers=2, time_limit=30))
    assert results[0].error == "worker died (exit code 3)" and results[0].verdict == (0, 0, 0)
    assert results[2].error == "scorer error: RuntimeError: boom" and results[2].facets.f1 == 0.0
    assert results[1].facets.f1 == results[3].facets.f1 == 1.0


def test_lazy_predictions_and_results_in_order():
    seen = []
    refs = REFERENCES[:6]
    run = score((r.gold for r in refs), refs, workers=2, on_result=seen.append)
    assert [r.id for r in seen] == [r.id for r in refs] and seen == run.results


@pytest.mark.parametrize("workers,time_limit", [(0, None), (2, 0), (2, -1.0)])
def test_bad_pool_settings_are_errors(workers, time_limit):
    with pytest.raises(ValueError):
        WorkerPool(workers, time_limit if time_limit is not None else 60, None, evaluate_one)


def test_length_mismatch_is_an_error_before_scoring():
    with pytest.raises(ValueError, match="2 predictions for 1 references"):
        list(evaluate_stream(["a", "b"], REFERENCES[:1], workers=2))


@pytest.mark.parametrize("workers", [1, 2])
def test_an_unknown_profile_is_an_error_before_scoring(workers):
    seen = []
    with pytest.raises(ValueError, match="unknown audit profile 'bogus'"):
        score([REFERENCES[0].gold], REFERENCES[:1], audit_profile="bogus", workers=workers, on_result=seen.append)
    assert seen == []


def test_a_worker_that_died_while_idle_is_replaced():
    pairs = [(r.gold, r) for r in REFERENCES[:5]]
    with WorkerPool(1, 30, None, evaluate_one) as pool:
        pool.workers[0].process.kill()
        pool.workers[0].process.join()
        results = list(pool.imap(pairs))
    assert [r.facets.f1 for r in results] == [1.0] * 5 and [r.id for r in results] == [r.id for _, r in pairs]


def test_tasks_carry_the_reference_index_and_each_worker_gets_a_reference_once(monkeypatch):
    """A task is (index, output, reference number): the gold goes to each worker once, not with every task."""
    from idsbench import isolation

    sent = []
    give = isolation._Worker.give

    def recording(self, task, number, time_limit):
        before = len(self.known)
        give(self, task, number, time_limit)
        sent.append((id(self), number, len(self.known) > before))

    monkeypatch.setattr(isolation._Worker, "give", recording)
    refs = [REFERENCES[0], REFERENCES[1]] * 10
    pooled = list(evaluate_isolated(zip([r.gold for r in refs], refs), make_auditor, evaluate_one, workers=2))
    assert pooled == [evaluate_one(r.gold, r, make_auditor()) for r in refs]
    first_sends = [(worker, number) for worker, number, new in sent if new]
    assert len(first_sends) == len(set(first_sends)) <= 4 and len(sent) == 20
