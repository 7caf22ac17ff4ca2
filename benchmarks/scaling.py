"""Scaling of `ids-bench score` from 1k to 100k predictions: time per item and peak memory.

    python -m benchmarks.scaling [--sizes 1000 10000 100000] [--workers 1]

For each size, a data file (the 166 references cycled under new ids) and a predictions file (the
synthetic corpus of benchmarks/corpus cycled) are written to a temporary folder, and the CLI
runs in a fresh process that reports its own peak RSS. The CLI streams: predictions are read one
at a time and results written as they come, so memory holds the references and compact
per-example results, not the outputs. For contrast, "held" is the memory that holding every
prediction at once takes (what the CLI did before it streamed), over the references alone.
"""
from __future__ import annotations

import argparse
import contextlib
import io
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path


from idsbench.example import METADATA_KEYS
from idsbench.records import load_references
from idsbench.synthetic.corpus import synthetic_corpus


def write_inputs(folder: Path, n: int) -> tuple[Path, Path]:
    references = load_references()
    outputs = synthetic_corpus([r.gold for r in references])
    data, predictions = folder / f"test-scaling-{n}.jsonl", folder / f"predictions-{n}.jsonl"
    with open(data, "w", encoding="utf-8") as d, open(predictions, "w", encoding="utf-8") as p:
        for k in range(n):
            output = outputs[k % len(outputs)]
            reference = references[output.gold_index]
            record = {"id": f"x{k:07d}", "gold_ids": reference.gold,
                      **{key: reference.metadata[key] for key in METADATA_KEYS if key in reference.metadata}}
            d.write(json.dumps(record, ensure_ascii=False) + "\n")
            p.write(json.dumps({"id": record["id"], "prediction": output.text}, ensure_ascii=False) + "\n")
    return data, predictions


def child(mode: str, data: str, predictions: str, out: str, workers: int) -> None:
    """Runs in the measured process; prints {"seconds", "peak_mb"}."""
    start = time.perf_counter()
    if mode == "score":
        from idsbench.cli import main as cli  # noqa: PLC0415

        with contextlib.redirect_stdout(io.StringIO()):
            cli(["score", "--predictions", predictions, "--data", data, "--out", out, "--no-progress",
                 "--workers", str(workers)])
    else:  # the growth from holding every prediction, over the references alone
        from idsbench.records import load_predictions  # noqa: PLC0415

        ids = [r.id for r in load_references(Path(data))]
        before = _rss_mb()
        held = load_predictions(Path(predictions), ids)
        assert len(held) == len(ids)
        print(json.dumps({"seconds": time.perf_counter() - start, "peak_mb": _rss_mb() - before}))
        return
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"seconds": time.perf_counter() - start, "peak_mb": peak}))


def _rss_mb() -> float:
    with open("/proc/self/statm") as handle:  # current (not peak) resident set, Linux
        return int(handle.read().split()[1]) * resource.getpagesize() / 2**20


def measure(mode: str, data: Path, predictions: Path, out: Path, workers: int) -> dict:
    done = subprocess.run([sys.executable, __file__, "--child", mode, str(data), str(predictions), str(out),
                           str(workers)], capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10_000, 100_000])
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--child", nargs=5, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        mode, data, predictions, out, workers = args.child
        child(mode, data, predictions, out, int(workers))
        return 0
    print(f"scaling of `ids-bench score` (workers={args.workers}; fresh process per run)")
    print(f"  {'predictions':>11}  {'file MB':>8}  {'seconds':>8}  {'ms/item':>8}  {'peak RSS MB':>11}  "
          f"{'held MB':>8}")
    with tempfile.TemporaryDirectory(prefix="ids-scaling-") as tmp:
        for n in args.sizes:
            data, predictions = write_inputs(Path(tmp), n)
            run = measure("score", data, predictions, Path(tmp) / f"out-{n}", args.workers)
            held = measure("hold", data, predictions, Path(tmp) / "unused", 1)
            lines = sum(1 for _ in open(Path(tmp) / f"out-{n}" / "results.jsonl", encoding="utf-8"))
            assert lines == n, f"{lines} results for {n} predictions"
            print(f"  {n:>11}  {predictions.stat().st_size / 2**20:>8.1f}  {run['seconds']:>8.1f}  "
                  f"{1000 * run['seconds'] / n:>8.2f}  {run['peak_mb']:>11.0f}  {held['peak_mb']:>8.0f}")
            for path in (data, predictions):
                path.unlink()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
