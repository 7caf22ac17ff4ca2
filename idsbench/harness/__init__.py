"""Generation harness: turn dataset records into raw model outputs (endpoint or offline baseline).

Stages: examples (load + select) -> system (endpoint | gold | copy-previous | rule-based) -> predictions.jsonl
-> idsbench.pipeline -> results.jsonl, summary.json, report.html. `ids-bench run` does all of it.
"""
