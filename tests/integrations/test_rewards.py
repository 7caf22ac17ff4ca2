"""The reward functions, called exactly as TRL's GRPOTrainer and veRL's reward managers call them.

Neither TRL nor veRL is imported: both pull torch (CUDA wheels from PyPI). `trl_call` and `verl_call`
reproduce their documented calls: TRL 1.16 GRPOTrainer._calculate_rewards (keyword call, every dataset
column but prompt/completion/completion_ids as a list, trainer_state, log_extra, log_metric; None -> NaN;
one reward per completion) and veRL 0.9 (custom_reward_function loaded by `load_extern_object` from
pkg://..., reward_kwargs merged by `_call_with_kwargs`, called with keywords in an executor thread by the
reward loop; a dict result gives result["score"]).
"""
import asyncio
import functools
import importlib
import math
import multiprocessing
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from idsbench.integrations import rewards
from idsbench.integrations import scoring
from idsbench.integrations.scoring import scorer_for
from tests.integrations.scripted import degrade, records


def trl_call(reward_func, inputs, completions):
    """What GRPOTrainer does with one custom reward function and a batch of generations."""
    prompts = [x["prompt"] for x in inputs]
    keys = [key for key in inputs[0] if key not in ["prompt", "completion", "completion_ids"]]
    reward_kwargs = {key: [example[key] for example in inputs] for key in keys}
    reward_kwargs["trainer_state"] = object()
    reward_kwargs["log_extra"] = lambda *a, **k: None
    reward_kwargs["log_metric"] = lambda *a, **k: None
    output = reward_func(prompts=prompts, completions=completions, completion_ids=[[1, 2]] * len(prompts),
                         **reward_kwargs)
    output = [r if r is not None else math.nan for r in output]
    assert len(output) == len(prompts)
    name = reward_func.func.__name__ if isinstance(reward_func, functools.partial) else \
        getattr(reward_func, "__name__", type(reward_func).__name__)
    return name, output


def verl_load(reward_kwargs):
    """veRL's get_custom_reward_fn: load_extern_object("pkg://...") + partial(_call_with_kwargs, ...)."""
    module = importlib.import_module("pkg://idsbench.integrations.rewards"[len("pkg://"):].replace("/", "."))
    raw_fn = getattr(module, "compute_score")

    def _call_with_kwargs(raw_fn, extra_kwargs, *args, **kwargs):
        return raw_fn(*args, **{**kwargs, **extra_kwargs})

    return functools.partial(_call_with_kwargs, raw_fn, dict(reward_kwargs))


def verl_call(compute_score, items):
    """The reward loop: each item scored with keywords in the default executor (threads), concurrently."""
    async def run_single(item):
        loop = asyncio.get_running_loop()
        result = await loop.run_in_executor(None, lambda: compute_score(
            data_source=item["data_source"], solution_str=item["response"],
            ground_truth=item["reward_model"]["ground_truth"], extra_info=item.get("extra_info", {})))
        return result["score"] if isinstance(result, dict) else result, result

    async def run_all():
        return await asyncio.gather(*(run_single(item) for item in items))

    return asyncio.run(run_all())


@pytest.fixture(scope="module")
def batch():
    """Four examples x five outputs each (gold in a think+fence, lower-case entities, prose, cut, one spec
    dropped) as TRL's repeated inputs, with the expected per-output metrics."""
    rows = records()[:4]
    items = [(r, degrade(r["gold_ids"], kind)) for r in rows for kind in range(5)]
    scorer = scorer_for()
    expected = [scorer.score(text, r["gold_ids"]).metrics() for r, text in items]
    training = rewards.training_rows([r for r, _ in items])
    inputs = [{"prompt": p, "gold_ids": g, "id": e["id"]}
              for p, g, e in zip(training["prompt"], training["gold_ids"], training["extra_info"])]
    return items, inputs, expected, training


def test_trl_string_and_conversational_completions(batch):
    items, inputs, expected, _ = batch
    texts = [text for _, text in items]
    conversational = [[{"role": "assistant", "content": t}] for t in texts]
    parts = [[{"role": "assistant", "content": [{"type": "text", "text": t}]}] for t in texts]
    for completions in (texts, conversational, parts):
        name, ag = trl_call(rewards.ids_ag_facet_f1_reward, inputs, completions)
        assert name == "ids_ag_facet_f1_reward" and ag == [e["ag_facet_f1"] for e in expected]
        assert trl_call(rewards.ids_audit_reward, inputs, completions)[1] == [e["content"] for e in expected]
        mixed = trl_call(rewards.ids_mix_reward, inputs, completions)[1]
        assert mixed == pytest.approx([0.5 * e["content"] + 0.5 * e["ag_facet_f1"] for e in expected])
    weights = {"structure": 0.2, "facet_f1": 0.8}
    name, custom = trl_call(rewards.make_mix_reward(weights), inputs, texts)
    assert name == "ids_weighted_reward"
    assert custom == pytest.approx([0.2 * e["structure"] + 0.8 * e["facet_f1"] for e in expected])
    assert len(set(ag)) > 2 and 0 < sum(e["content"] for e in expected) < len(expected)  # not all equal


def test_trl_audit_reward_needs_no_gold(batch):
    items, inputs, expected, _ = batch
    no_gold = [{"prompt": x["prompt"]} for x in inputs]
    assert trl_call(rewards.ids_audit_reward, no_gold, [t for _, t in items])[1] == [e["content"] for e in expected]
    with pytest.raises(ValueError, match="gold_ids"):
        trl_call(rewards.ids_ag_facet_f1_reward, no_gold, [t for _, t in items])


@pytest.mark.parametrize("reward_kwargs, key", [({}, "ag_facet_f1"), ({"flavour": "audit"}, "content"),
                                                ({"flavour": "mix"}, None)])
def test_verl_custom_reward_in_executor_threads(batch, reward_kwargs, key):
    items, _, expected, training = batch
    verl_items = [{"data_source": s, "reward_model": rm, "extra_info": x, "response": text}
                  for s, rm, x, (_, text) in zip(training["data_source"], training["reward_model"],
                                                 training["extra_info"], items)]
    results = verl_call(verl_load(reward_kwargs), verl_items * 3)  # 60 calls in flight in the thread pool
    want = [e[key] if key else 0.5 * e["content"] + 0.5 * e["ag_facet_f1"] for e in expected] * 3
    assert [score for score, _ in results] == pytest.approx(want)
    keys = {frozenset(result) for _, result in results}
    assert len(keys) == 1  # veRL gathers each key into one column: every item returns the same keys


def test_thread_safety_many_threads_same_results():
    """Valid and XSD-invalid documents from 8 threads, through the rewards (tests/audit/test_threads.py
    holds the audit itself to the same)."""
    work = []
    for r in records()[:8]:
        gold = r["gold_ids"]
        work += [(gold, gold), (gold.replace("<requirements>", "<requirements><bogus/>", 1), gold),
                 (gold.replace('cardinality="required"', 'cardinality="sometimes"', 1), gold)]
    alone = [rewards.reward(text, gold, "audit") for text, gold in work]
    assert 0 < sum(alone) < len(alone)
    with ThreadPoolExecutor(max_workers=8) as pool:
        together = list(pool.map(lambda pair: rewards.reward(*pair, "audit"), work * 25))  # 600 calls
    assert together == alone * 25


def _child_reward(text, gold, queue):
    queue.put(rewards.reward(text, gold, "ag_facet_f1"))


def test_process_safety_fork_while_the_scorer_is_busy(batch):
    """A child forked while another thread holds the lock that guards the scorers builds its own scorer
    (no deadlock)."""
    items, _, expected, _ = batch
    (r, text), want = items[1], expected[1]["ag_facet_f1"]
    scorer_for(rewards.DEFAULT_PROFILE, rewards.MAX_OUTPUT_CHARS)
    context = multiprocessing.get_context("fork")
    queue = context.Queue()
    held, release = threading.Event(), threading.Event()

    def hold():
        with scoring._guard:
            held.set()
            release.wait(30)

    holder = threading.Thread(target=hold)
    holder.start()
    held.wait(5)
    try:
        child = context.Process(target=_child_reward, args=(text, r["gold_ids"], queue), daemon=True)
        child.start()
        child.join(60)
        if child.exitcode is None:  # deadlocked: the failure this test is for
            child.kill()
        assert child.exitcode == 0 and queue.get(timeout=5) == want
    finally:
        release.set()
        holder.join()


def test_each_call_is_bounded():
    gold = records()[0]["gold_ids"]
    long_output = "```ids\n" + gold + " " * rewards.MAX_OUTPUT_CHARS + "\n```"
    assert rewards.reward(long_output, gold, "ag_facet_f1") == 0.0
    assert rewards.compute_score(solution_str=long_output, ground_truth=gold)["processability"] == 0.0
    bomb = ('<?xml version="1.0"?><!DOCTYPE ids [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">'
            '<!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">]>'
            '<ids xmlns="http://standards.buildingsmart.org/IDS"><info><title>&d;&d;&d;&d;</title></info></ids>')
    assert rewards.reward(bomb, gold, "mix") == 0.0 and rewards.reward(bomb, None, "audit") == 0.0
    for bad in ([{"role": "user", "content": gold}], [], None):
        assert rewards.reward(rewards.completion_text(bad), gold) == 0.0
    with pytest.raises(ValueError, match="flavour"):
        rewards.compute_score(solution_str=gold, ground_truth=gold, flavour="bleu")
    with pytest.raises(ValueError, match="weights"):
        rewards.make_mix_reward({"bleu": 1.0})
