"""The audit is safe to call from many threads at once: each thread validates with its own compiled XSD
(lxml keeps the last validation's error log on the schema object, so a shared one let a thread read
another document's errors and pass an invalid IDS), and the schemas are compiled one at a time."""
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from idsbench.audit import audit
from idsbench.records import load_references

ROOT = Path(__file__).resolve().parents[2]


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
    differing = [(i % len(documents), a, b) for i, (a, b) in enumerate(zip(alone * 25, together)) if a != b]
    assert not differing, f"{len(differing)} of {len(together)} differ: {differing[:5]}"


FIRST_AUDITS = """
import sys, threading
from idsbench.audit import audit
gold = open(sys.argv[1], encoding="utf-8").read()
start, found = threading.Barrier(8), []
def first_audit():
    start.wait()
    found.append(audit(gold).status)
threads = [threading.Thread(target=first_audit) for _ in range(8)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
print(found)
"""


def test_the_first_audits_of_a_process_from_eight_threads_at_once(tmp_path):
    """Eight threads each compile their XSD at the same moment in a new process: compiled one at a time
    they all pass the gold; compiled together, libxml2 raised XMLSchemaParseError or crashed."""
    gold = tmp_path / "gold.ids"
    gold.write_text(load_references()[0].gold, encoding="utf-8")
    run = subprocess.run([sys.executable, "-c", FIRST_AUDITS, str(gold)], capture_output=True, text=True,
                         timeout=120, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert run.returncode == 0 and run.stdout.strip() == str([0] * 8), run.stderr[-2000:]
