"""Speed of the scoring core, as ratios measured in one run.

    python -m benchmarks.speed                      # every section (about 10 minutes)
    python -m benchmarks.speed --sections floor startup --repeat 5
    python -m benchmarks.speed --published path/to/run_eval.py:score_pair

Sections (absolute figures vary with the machine's load; ratios are taken within the run):
  floor    Stage 1 `audit()` against its floor, an lxml parse plus XSD validation with the compiled
           schema, on the golds and on the synthetic corpus (per document: the least of --repeat
           interleaved timings, so both sides see the same load).
  reuse    Both stages with extraction (`evaluate_one`), per example the least of --repeat runs, with
           nothing kept from other examples: the first prediction scored against its gold (the gold parsed
           and cut into blocks) and a further one (the gold's blocks and facets kept, as an earlier
           prediction of the same gold leaves them).
  before   Stage 1, Stage 2 (`score_documents`) and both stages with extraction (`evaluate_one`), now
           and in the project's previous scorer (git revision --before, extracted to a temporary
           folder), each in its own process, run alternately: golds, synthetic corpus, large files,
           a large file the probe rejects, 100 and 1,000 specifications.
  published  Both stages now against the published scorer's Stage 2 alone, when --published names a
           local copy of it (FILE:FUNCTION, FUNCTION(raw_output, gold_text)); skipped otherwise.
  large    MB/s of the audit and of both stages on documents of 0.6 to 9.5 MB.
  scale    Stage 2 and both stages at 100 and at 1,000 specifications.
  startup  From `import` to the first audited document in a fresh process, with an empty vocabulary
           cache (cold) and a filled one (warm); the same for the previous scorer; `ids-bench audit FILE`.
Prints figures; asserts nothing.
"""
from __future__ import annotations

import argparse
import json
import os
import pickle
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from benchmarks.audit_throughput import rate

ROOT = Path(__file__).resolve().parents[1]
BEFORE = "57a212e"  # main before issue 15 (a node tree for the audit, two parses per output)
SECTIONS = ("floor", "reuse", "before", "published", "large", "scale", "startup")
ROUNDS = 3  # processes per version in "before", run alternately
SPEC = re.compile(r"<specification\b.*?</specification>", re.DOTALL)
HEAD = re.compile(r"^.*?<specifications>", re.DOTALL)

# Run in a separate process, against one version of the package (the folder first on sys.path).
CHILD = r'''
import json, pickle, sys, time
from idsbench.audit import audit
from idsbench.example import Reference
from idsbench.facets.counts import score_documents
from idsbench.pipeline import evaluate_one, make_auditor
try:
    from idsbench.goldside import forget
except ImportError:
    forget = lambda: None
corpora, repeat = pickle.load(open(sys.argv[1], "rb")), int(sys.argv[2])
auditor = make_auditor()
steps = {
    "audit": lambda raw, candidate, gold: audit(candidate),
    "stage2": lambda raw, candidate, gold: score_documents(candidate, gold),
    "both": lambda raw, candidate, gold: evaluate_one(raw, Reference("x", gold), auditor),
}
out = {}
for name, items in corpora.items():
    for raw, candidate, gold in items[:50]:
        for step in steps.values():
            step(raw, candidate, gold)
    for label, step in steps.items():
        best = float("inf")
        for _ in range(repeat):
            forget()  # gold-side work once per gold and pass, as in one real pass
            start = time.perf_counter()
            for raw, candidate, gold in items:
                step(raw, candidate, gold)
            best = min(best, time.perf_counter() - start)
        out[f"{name}/{label}"] = best
print(json.dumps(out))
'''
STARTUP = r'''
import sys, time
start = time.perf_counter()
from idsbench.audit import audit
status = audit(open(sys.argv[1], "rb").read()).status
print(time.perf_counter() - start, status)
'''


# -- corpora -------------------------------------------------------------------------------------
def corpora() -> dict[str, list[tuple[str, str, str]]]:
    """(raw output, extracted candidate, gold) triples: the golds and the synthetic corpus."""
    from idsbench.extract import extract_candidate
    from idsbench.records import load_references
    from idsbench.synthetic.corpus import synthetic_corpus

    references = load_references()
    golds = [r.gold for r in references]
    synthetic = [(o.text, golds[o.gold_index]) for o in synthetic_corpus(golds)]
    return {"golds": [(g, extract_candidate(g), g) for g in golds],
            "synthetic": [(raw, extract_candidate(raw), gold) for raw, gold in synthetic]}


def _specifications(golds: list[str]) -> list[str]:
    return [m.group(0) for g in golds for m in SPEC.finditer(g)]


def document(golds: list[str], count: int | None = None, size: int | None = None) -> str:
    """One IDS of `count` specifications (or of about `size` bytes), cycling the golds' ones."""
    specs, head = _specifications(golds), HEAD.match(golds[0]).group(0)
    chosen, total, k = [], len(head), 0
    while (count is not None and len(chosen) < count) or (size is not None and total < size):
        spec = specs[k % len(specs)].replace('name="', f'name="{k} ', 1)
        chosen.append(spec)
        total, k = total + len(spec), k + 1
    return head + "".join(chosen) + "</specifications></ids>"


def _prediction(gold: str) -> str:
    """A near miss of `gold`: every seventh specification dropped, one entity name in lower case."""
    specs = SPEC.findall(gold)
    kept = [s for i, s in enumerate(specs) if i % 7 != 3]
    text = HEAD.match(gold).group(0) + "".join(kept) + "</specifications></ids>"
    return text.replace("<simpleValue>IFCWALL</simpleValue>", "<simpleValue>IfcWall</simpleValue>", 1)


# -- timing --------------------------------------------------------------------------------------
def per_item(functions: dict[str, Callable], items: list, repeat: int) -> dict[str, float]:
    """Mean seconds per item, each item's time the least of `repeat` rounds, the functions interleaved."""
    best = {name: [float("inf")] * len(items) for name in functions}
    clock = time.perf_counter
    for _ in range(repeat):
        for index, item in enumerate(items):
            for name, function in functions.items():
                start = clock()
                function(item)
                spent = clock() - start
                if spent < best[name][index]:
                    best[name][index] = spent
    return {name: sum(times) / len(items) for name, times in best.items()}


def best_pass(function: Callable, items: list, repeat: int, before: Callable[[], object] = lambda: None) -> float:
    """Seconds of the fastest of `repeat` passes over `items` (`before` runs before each, untimed)."""
    return len(items) / rate(function, items, repeat, before)


def _rate(seconds: float, count: int) -> str:
    return f"{count / seconds:8.0f}/s" if seconds else "      -"


# -- sections ------------------------------------------------------------------------------------
def floor_section(sets: dict, repeat: int) -> None:
    from lxml import etree

    from idsbench.audit import audit, xsd
    from idsbench.xmlparse import _LXML_OPTIONS

    parser, schema = etree.XMLParser(**_LXML_OPTIONS), xsd.fast_schema("1.0")

    def floor(data: bytes) -> None:
        try:
            schema.validate(etree.fromstring(data, parser))
        except etree.XMLSyntaxError:
            pass

    print("Stage 1 against its floor (lxml parse + XSD validation), per document the least of "
          f"{repeat} interleaved runs")
    for name, items in sets.items():
        docs = [candidate.encode("utf-8", "surrogatepass") for _, candidate, _ in items]
        for data in docs[:100]:
            audit(data)
        found = per_item({"floor": floor, "audit": audit}, docs, repeat)
        print(f"  {name:10s} floor {found['floor'] * 1e6:7.1f} us   audit {found['audit'] * 1e6:7.1f} us "
              f"({1 / found['audit']:6.0f} docs/s)   audit / floor = {found['audit'] / found['floor']:.2f}x")


def reuse_section(sets: dict, repeat: int) -> None:
    from idsbench.example import Reference
    from idsbench.facets.counts import gold_blocks
    from idsbench.goldside import forget
    from idsbench.pipeline import evaluate_one, make_auditor

    auditor = make_auditor()
    clock = time.perf_counter
    print(f"\nBoth stages with extraction, per example the least of {repeat} runs")
    for name, items in sets.items():
        best = {"first": [float("inf")] * len(items), "further": [float("inf")] * len(items)}
        for _ in range(repeat):
            for index, (raw, _, gold) in enumerate(items):
                reference = Reference("x", gold)
                for kind in best:
                    forget()  # nothing kept from other examples
                    if kind == "further":
                        gold_blocks(gold)  # what an earlier prediction of this gold left (untimed)
                    start = clock()
                    evaluate_one(raw, reference, auditor)
                    best[kind][index] = min(best[kind][index], clock() - start)
        first, further = (sum(times) / len(items) for times in best.values())
        print(f"  {name:10s} first prediction of a gold {1 / first:6.0f} examples/s   "
              f"a further one (the gold's work kept) {1 / further:6.0f} examples/s")


def _extract_before(revision: str, folder: Path) -> bool:
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", revision, "idsbench"], capture_output=True)
    if archive.returncode != 0:
        print(f"  (skipped: git cannot give revision {revision}: {archive.stderr.decode()[:200].strip()})")
        return False
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive.stdout, check=True)
    return True


def _run_child(folder: Path, corpus_file: Path, repeat: int, package: Path | None) -> dict:
    script = folder / "child.py"
    script.write_text(CHILD)
    env = dict(os.environ, PYTHONPATH=str(package) if package else "")
    done = subprocess.run([sys.executable, str(script), str(corpus_file), str(repeat)], cwd=folder, env=env,
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(done.stderr[-2000:])
    return json.loads(done.stdout.strip().splitlines()[-1])


def comparison_corpora(sets: dict, quick: bool) -> dict:
    golds = [gold for _, _, gold in sets["golds"]]
    big = document(golds, size=2_600_000)
    rejected = big.replace("IDS/1.0/ids.xsd", "IDS/ids.xsd", 1)
    out = dict(sets)
    out["large 2.6 MB"] = [(big, big, big)]
    out["rejected 2.6 MB"] = [(rejected, rejected, big)]
    for count in (100, 1000):
        gold = document(golds, count=count)
        pred = _prediction(gold)
        out[f"{count} specifications"] = [(pred, pred, gold)]
    if quick:
        out["synthetic"] = out["synthetic"][::4]
    return out


def before_section(sets: dict, revision: str, repeat: int, quick: bool) -> dict | None:
    print(f"\nNow against the previous scorer (git {revision}), each in its own process, {ROUNDS} times alternately; "
          f"the least of {ROUNDS} x {repeat} passes (gold-side work once per gold and pass)")
    with tempfile.TemporaryDirectory(prefix="ids-speed-") as tmp:
        old, new = Path(tmp, "before"), Path(tmp, "now")
        old.mkdir()
        new.mkdir()
        if not _extract_before(revision, old):
            return None
        corpus_file = Path(tmp, "corpora.pickle")
        chosen = comparison_corpora(sets, quick)
        corpus_file.write_bytes(pickle.dumps(chosen))
        runs = {"now": [], "before": []}
        for _ in range(ROUNDS):  # alternately, so that both meet the same spells of load
            runs["now"].append(_run_child(new, corpus_file, repeat, ROOT))
            runs["before"].append(_run_child(old, corpus_file, repeat, None))
    now = {k: min(r[k] for r in runs["now"]) for k in runs["now"][0]}
    before = {k: min(r[k] for r in runs["before"]) for k in runs["before"][0]}
    print(f"  {'corpus':22s} {'step':7s} {'before':>12s} {'now':>12s} {'speed-up':>9s}")
    for key in now:
        corpus, step = key.rsplit("/", 1)
        count = len(chosen[corpus])
        print(f"  {corpus:22s} {step:7s} {_rate(before[key], count):>12s} {_rate(now[key], count):>12s} "
              f"{before[key] / now[key]:8.1f}x")
    for step in ("stage2", "both"):
        small, large = now[f"100 specifications/{step}"], now[f"1000 specifications/{step}"]
        old_small, old_large = before[f"100 specifications/{step}"], before[f"1000 specifications/{step}"]
        print(f"  1,000 / 100 specifications, {step}: now {large / small:.1f}x the time, before {old_large / old_small:.1f}x")
    return now


def _published(spec: str) -> Callable[[str, str], object]:
    import runpy

    path, _, name = spec.rpartition(":")
    return runpy.run_path(path, run_name="published_scorer")[name]


def published_section(sets: dict, spec: str | None, repeat: int) -> None:
    from idsbench.example import Reference
    from idsbench.facets.counts import score_documents
    from idsbench.goldside import forget
    from idsbench.pipeline import evaluate_one, make_auditor

    if spec is None:
        print("\nAgainst the published Stage 2: skipped (no local copy; --published FILE:FUNCTION names one)")
        return
    published = _published(spec)
    auditor = make_auditor()
    print(f"\nBoth stages now against the published Stage 2 alone ({spec}); the least of {repeat} passes, "
          f"gold-side work once per gold and pass")
    for name, items in sets.items():
        def ours(item, step):
            raw, candidate, gold = item
            return evaluate_one(raw, Reference("x", gold), auditor) if step == "both" else score_documents(candidate, gold)

        times = {}
        for step in ("both", "stage2"):
            def one_pass(item, step=step):
                ours(item, step)
            times[step] = best_pass(one_pass, items, repeat, before=forget)
        times["published"] = best_pass(lambda item: published(item[0], item[2]), items, repeat)
        count = len(items)
        print(f"  {name:10s} published Stage 2 {_rate(times['published'], count)}   our Stage 2 "
              f"{_rate(times['stage2'], count)} ({times['published'] / times['stage2']:.1f}x)   both stages "
              f"{_rate(times['both'], count)} ({times['published'] / times['both']:.1f}x)")


def large_section(sets: dict, repeat: int) -> None:
    from idsbench.audit import audit
    from idsbench.example import Reference
    from idsbench.goldside import forget
    from idsbench.pipeline import evaluate_one, make_auditor

    golds = [gold for _, _, gold in sets["golds"]]
    auditor = make_auditor()
    print(f"\nLarge documents (the golds' specifications cycled), the least of {repeat} runs")
    for size in (600_000, 2_600_000, 9_500_000):
        text = document(golds, size=size)
        data, megabytes = text.encode(), len(text.encode()) / 1e6
        reference = Reference("large", text)
        audit_time = best_pass(audit, [data], repeat)
        both_time = best_pass(lambda t: evaluate_one(t, reference, auditor), [text], repeat, before=forget)
        print(f"  {megabytes:5.1f} MB: audit {audit_time:6.2f} s ({megabytes / audit_time:5.1f} MB/s), "
              f"both stages {both_time:6.2f} s ({megabytes / both_time:5.1f} MB/s)")
    rejected = document(golds, size=2_600_000).replace("IDS/1.0/ids.xsd", "IDS/ids.xsd", 1).encode()
    seconds = best_pass(audit, [rejected], repeat)
    print(f"  {len(rejected) / 1e6:5.1f} MB with a schemaLocation the validator rejects: audit {seconds * 1e3:.2f} ms "
          f"({audit(rejected).status_text})")
    over = document(golds, size=11_000_000).replace("IDS/1.0/ids.xsd", "IDS/ids.xsd", 1).encode()
    print(f"  {len(over) / 1e6:5.1f} MB (over the 10 MB bound), rejected by the probe: {audit(over).status_text}")


def scale_section(sets: dict, repeat: int) -> None:
    from idsbench.example import Reference
    from idsbench.facets.counts import score_documents
    from idsbench.goldside import forget
    from idsbench.pipeline import evaluate_one, make_auditor

    golds = [gold for _, _, gold in sets["golds"]]
    auditor = make_auditor()
    print(f"\nScale: a near miss against a gold of N specifications, the least of {repeat} runs")
    times = {}
    for count in (100, 1000):
        gold = document(golds, count=count)
        pred = _prediction(gold)
        reference = Reference("scale", gold)

        def stage2(_):
            forget()
            score_documents(pred, gold)

        def both(_):
            forget()
            evaluate_one(pred, reference, auditor)
        times[count] = (best_pass(stage2, [0], repeat), best_pass(both, [0], repeat))
        print(f"  {count:5d} specifications: Stage 2 {times[count][0] * 1e3:8.1f} ms, both stages {times[count][1] * 1e3:8.1f} ms")
    print(f"  1,000 / 100: Stage 2 {times[1000][0] / times[100][0]:.1f}x the time, both stages "
          f"{times[1000][1] / times[100][1]:.1f}x")


def _startup_once(package: Path | None, cache: Path, path: Path, cwd: Path) -> tuple[float, float]:
    env = dict(os.environ, IDS_BENCH_CACHE=str(cache), PYTHONPATH=str(package) if package else "")
    script = cwd / "startup.py"
    script.write_text(STARTUP)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, str(script), str(path)], env=env, cwd=cwd, capture_output=True, text=True)
    wall = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(done.stderr[-2000:])
    return float(done.stdout.split()[0]), wall


def startup_section(sets: dict, revision: str, repeat: int) -> None:
    print(f"\nStart-up: `import` to the first audited document in a fresh process (least of {repeat}; "
          "in brackets the process's wall time, interpreter start included)")
    gold = sets["golds"][0][2]
    with tempfile.TemporaryDirectory(prefix="ids-startup-") as tmp:
        path, cache = Path(tmp, "gold.ids"), Path(tmp, "cache")
        path.write_text(gold, encoding="utf-8")
        work = Path(tmp, "now")
        work.mkdir()
        cold = _startup_once(ROOT, cache, path, work)
        warm = min((_startup_once(ROOT, cache, path, work) for _ in range(repeat)), key=lambda r: r[0])
        print(f"  now:    cold {cold[0]:.2f} s ({cold[1]:.2f} s)   warm {warm[0]:.2f} s ({warm[1]:.2f} s)")
        old = Path(tmp, "before")
        old.mkdir()
        if _extract_before(revision, old):
            runs = [_startup_once(None, cache, path, old) for _ in range(max(1, repeat // 2))]
            first = min(runs, key=lambda r: r[0])
            print(f"  before: {first[0]:.2f} s ({first[1]:.2f} s), the same cold or warm (nothing kept between processes)")
        env = dict(os.environ, IDS_BENCH_CACHE=str(cache))
        walls = []
        for _ in range(repeat):
            start = time.perf_counter()
            subprocess.run([sys.executable, "-m", "idsbench", "audit", str(path)], env=env, cwd=ROOT, capture_output=True)
            walls.append(time.perf_counter() - start)
        print(f"  `ids-bench audit FILE` (warm, the whole command line): {min(walls):.2f} s wall")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0], epilog=__doc__.split("\n", 2)[2],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sections", nargs="+", choices=SECTIONS, default=list(SECTIONS), metavar="SECTION",
                        help=f"which to run (default: all of {', '.join(SECTIONS)})")
    parser.add_argument("--repeat", type=int, default=5, help="runs or passes of which the least is kept (default 5)")
    parser.add_argument("--before", default=BEFORE, help=f"git revision of the previous scorer (default {BEFORE})")
    parser.add_argument("--published", metavar="FILE:FUNCTION",
                        help="a local copy of the published scorer: FUNCTION(raw_output, gold_text) in FILE")
    parser.add_argument("--quick", action="store_true", help="a quarter of the synthetic corpus in 'before'")
    args = parser.parse_args(argv)
    sets = corpora()
    print(f"corpora: {len(sets['golds'])} golds, {len(sets['synthetic'])} synthetic outputs; "
          f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}")
    for section in args.sections:
        started = time.perf_counter()
        if section == "floor":
            floor_section(sets, args.repeat)
        elif section == "reuse":
            reuse_section(sets, args.repeat)
        elif section == "before":
            before_section(sets, args.before, max(2, args.repeat // 2), args.quick)
        elif section == "published":
            published_section(sets, args.published, max(1, args.repeat // 2))
        elif section == "large":
            large_section(sets, max(1, args.repeat // 2))
        elif section == "scale":
            scale_section(sets, args.repeat)
        else:
            startup_section(sets, args.before, args.repeat)
        print(f"  ({time.perf_counter() - started:.0f} s)", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
