"""Generation harness: turn dataset records into raw model outputs (endpoint or offline baseline).

Stages: examples (load + select) -> system (endpoint | gold | copy-previous | rule-based) -> predictions.jsonl
-> ids_metric.scoring -> results.jsonl, summary.json, report.html. `python -m ids_metric run` does all of it.
"""
