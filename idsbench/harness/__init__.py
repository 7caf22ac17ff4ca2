"""Generation harness: turn dataset records into raw model outputs (endpoint or offline baseline).

Stages: examples (load + select) -> system (endpoint | gold | copy-previous | rule-based) -> predictions.jsonl
-> idsbench.pipeline -> results.jsonl, summary.json, report.html. `ids-bench run` does all of it.
An endpoint run follows a protocol (protocol.py, protocols/*.json): the default, ishigaki-detailed-v1,
is this project's own prompt and settings and NOT the paper's protocol; paper-0shot is the paper's.
Protocols built on either add solved examples first (fewshot.py) or the validator in the loop (repair.py);
conversation.py says how one example's conversation unfolds, rounds.py scores each repair round.
"""
