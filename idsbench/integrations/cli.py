"""`ids-bench integrations`: where the framework integrations are, and how each is called."""
from __future__ import annotations

import argparse
from pathlib import Path

LM_EVAL_TASKS = Path(__file__).resolve().parent / "lm_eval_tasks"
USAGE = f"""lm-evaluation-harness (pip install 'ishigaki-ids-bench[lm-eval]'):
  lm_eval --model local-chat-completions --tasks ishigaki_ids_bench --apply_chat_template \\
      --include_path {LM_EVAL_TASKS} \\
      --model_args base_url=http://localhost:8000/v1/chat/completions,model=MODEL
Inspect (pip install 'ishigaki-ids-bench[inspect]'):
  inspect eval idsbench/ishigaki_ids_bench --model vllm/MODEL -T protocol=paper-0shot
  inspect eval idsbench/ishigaki_ids_bench --model vllm/MODEL -T protocol=repair-3   # validator in the loop
TRL GRPOTrainer: from idsbench.integrations.rewards import ids_audit_reward, ids_ag_facet_f1_reward, ids_mix_reward
veRL: reward.custom_reward_function.path=pkg://idsbench.integrations.rewards reward.custom_reward_function.name=compute_score
datasets: ds.map(idsbench.integrations.batch.score_batch, batched=True, num_proc=N)"""
EPILOG = """examples:
  ids-bench integrations                   # how to call each framework
  lm_eval ... --include_path "$(ids-bench integrations lm-eval-path)"
exit codes: 0 done, 2 bad option, 130 interrupted (Ctrl-C)"""


def cmd_integrations(args: argparse.Namespace) -> int:
    print(LM_EVAL_TASKS if args.what == "lm-eval-path" else USAGE)
    return 0


def register_integration_commands(commands) -> None:
    p = commands.add_parser("integrations", help="lm-eval, Inspect, TRL, veRL and datasets: paths and usage",
                            epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("what", nargs="?", choices=("usage", "lm-eval-path"), default="usage",
                   help="usage (default) or lm-eval-path (the folder to pass to --include_path)")
    p.set_defaults(func=cmd_integrations)
