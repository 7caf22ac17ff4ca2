"""The benchmark inside the frameworks people already run (each imported only when used).

scoring (one output -> the seven paper metrics and its findings, per process, thread-safe) is shared by:
  lm_eval_tasks/  a task folder for lm-evaluation-harness (`lm_eval --include_path ...`), over lmeval.py
  inspect_task    an Inspect task (`inspect eval idsbench/ishigaki_ids_bench`)
  rewards         reward functions for TRL's GRPOTrainer and veRL's custom reward
  batch           scoring many outputs with datasets.Dataset.map(batched=True, num_proc=N)
All of them score exactly as `ids-bench score` does: the framework's mean of the per-example values is
the paper's aggregate.
"""
