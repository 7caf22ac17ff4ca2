"""The audit is safe to call from many threads at once: each thread validates with its own compiled XSD
(lxml keeps the last validation's error log on the schema object, so a shared one let a thread read
another document's errors and pass an invalid IDS)."""
from concurrent.futures import ThreadPoolExecutor

from idsbench.audit import audit
from idsbench.records import load_references


def _documents() -> list[str]:
    docs = []
    for ref in load_references()[:8]:
        gold = ref.gold
        docs += [gold, gold.replace("<requirements>", "<requirements><bogus/>", 1),
                 gold.replace('cardinality="required"', 'cardinality="sometimes"', 1)]
    return docs


def _outcome(document: str) -> tuple:
    result = audit(document)
    return result.status, tuple(result.codes)


def test_threads_get_the_results_of_one_thread():
    documents = _documents()
    alone = [_outcome(d) for d in documents]
    assert len(set(alone)) > 1  # valid and XSD-invalid documents alike
    with ThreadPoolExecutor(max_workers=8) as pool:
        together = list(pool.map(_outcome, documents * 25))  # 600 audits in flight on 8 threads
    assert together == alone * 25
