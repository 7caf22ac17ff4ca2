"""The README's worked example: the three offline systems through repair-3. Each system's outputs are the
first answers of a scripted model that, asked to repair, applies exactly the fixes the feedback names (the
fixer of tests/support/repairing_model.py); the loop and the scoring are those of `ids-bench run --protocol
repair-3` (in-process: the endpoint's HTTP is tested elsewhere). The README's table must be what this gives."""
import json
import re

from idsbench.harness.conversation import Plan
from idsbench.harness.examples import load_examples
from idsbench.harness.generate import generate
from idsbench.harness.predictions import Generation
from idsbench.harness.protocol import load_protocol
from idsbench.harness.rounds import score_rounds
from idsbench.harness.systems import System, baseline_system
from idsbench.pipeline import score
from tests.paths import ROOT
from tests.support.repairing_model import answering, conversation_key

SYSTEMS = ("gold", "rule-based", "copy-previous")
README = (ROOT / "README.md").read_text(encoding="utf-8")
COLUMNS = ("processability", "structure", "content", "facet_f1", "ag_facet_f1")


def readme_rows() -> dict[tuple[str, int], tuple[str, ...]]:
    section = README[README.index("#### Worked example: repair-3"):]
    section = section[:section.index("\n\n", section.index("| system |"))]
    rows = re.findall(r"^\| `([a-z-]+)` \| (\d) \| (.*?) \|$", section, re.M)
    return {(name, int(index)): tuple(c.strip() for c in cells.split("|")) for name, index, cells in rows}


def scripted(name, examples) -> System:
    """The baseline's output as the first answer of a model that repairs what it is told."""
    baseline = baseline_system(name)
    first = {conversation_key(e.messages): baseline.call(e if baseline.needs_gold else e.without_gold()).prediction
             for e in examples}
    model = answering(first)
    return System(f"scripted-{name}", lambda example: Generation(model(list(example.messages)), "stop"))


def test_the_readme_table_is_what_repair_3_gives(tmp_path):
    examples = load_examples(ROOT / "data")
    plan = Plan(load_protocol("repair-3").repair)
    ids, references = [e.id for e in examples], [e.reference for e in examples]
    measured = {}
    for name in SYSTEMS:
        path = tmp_path / f"{name}.jsonl"
        generate(examples, scripted(name, examples), path, plan=plan, progress=False)
        rows = {r["id"]: r for r in map(json.loads, path.read_text(encoding="utf-8").splitlines())}
        final = score([rows[i]["prediction"] for i in ids], references)
        for entry in score_rounds(rows, ids, references, plan.repair.rounds, final):
            overall = entry.scores.overall
            measured[(name, entry.index)] = (str(entry.answered), *(f"{100 * getattr(overall, m):.1f}" for m in COLUMNS))
    print("\n".join(f"| `{n}` | {i} | {' | '.join(v)} |" for (n, i), v in measured.items()))
    assert readme_rows() == measured
