"""Glue for lm-evaluation-harness: the task's Python lives in the installed package (idsbench.integrations.lmeval)."""
from idsbench.integrations.lmeval import IdsBenchTask, last_user_turn, load_docs

__all__ = ["IdsBenchTask", "last_user_turn", "load_docs"]
