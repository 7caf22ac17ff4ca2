"""Outputs whose XML declaration is damaged (long, unknown or non-ASCII encoding names, another encoding
than the UTF-8 the text is written in, odd versions and standalone values) through every entry point:
each gets a verdict with its reason, never an exception, and every entry point gives the same verdict,
the one the validator gives the UTF-8 file the published harness writes for the output."""
import json

import pytest

from idsbench.audit import audit
from idsbench.audit.verdict import verdict
from idsbench.cli import main
from idsbench.example import Reference
from idsbench.integrations.batch import score_batch
from idsbench.integrations.rewards import compute_score, ids_audit_reward, ids_mix_reward
from idsbench.integrations.scoring import scorer_for
from idsbench.metric import compute
from idsbench.pipeline import evaluate_one, make_auditor, score
from idsbench.synthetic.documents import WALLS, ids
from idsbench.xmlparse import as_written

GOLD = ids(WALLS)
BODY = GOLD.split("\n", 1)[1]
UNREADABLE, READABLE = (0, 0, 0), (1, 1, 1)


def declared(attributes: str, tail: str = "") -> str:
    return f"<?xml {attributes}?>\n{BODY}{tail}"


CASES = {  # name: (output, verdict the validator gives its UTF-8 file)
    "long unknown encoding and a non-ASCII character": (
        declared('version="1.0" encoding="UTF' + "A" * 250 + '-8"', "<!-- é -->"), UNREADABLE),
    "UTF-16 declared, UTF-8 written": (declared('version="1.0" encoding="UTF-16"'), UNREADABLE),
    "unknown encoding": (declared('version="1.0" encoding="no-such-encoding"'), UNREADABLE),
    "non-ASCII encoding name": (declared('version="1.0" encoding="ÜTF-8"', "<!-- é -->"), UNREADABLE),
    "long version": (declared('version="1.' + "0" * 300 + '" encoding="UTF-8"'), UNREADABLE),  # .NET: only "1.0"
    "version 1.1": (declared('version="1.1" encoding="UTF-8"'), UNREADABLE),
    "standalone maybe": (declared('version="1.0" encoding="UTF-8" standalone="maybe"'), UNREADABLE),
    "Latin-1 declared, ASCII written": (declared('version="1.0" encoding="ISO-8859-1"'), READABLE),
}
REFERENCE = Reference("declaration", GOLD)


@pytest.mark.parametrize("name", CASES)
def test_every_entry_point_gives_the_validators_verdict(name, tmp_path):
    output, expected = CASES[name]
    written = as_written(output).encode("utf-8")
    validator = audit(written)
    assert verdict(validator.status) == expected, validator.findings
    assert audit(output).status == validator.status
    result = evaluate_one(output, REFERENCE, make_auditor())
    assert result.verdict == expected
    scored = scorer_for().score(output, GOLD)
    assert scored.result.verdict == result.verdict
    assert ids_audit_reward([output]) == [float(result.verdict[2])]
    assert compute_score("ids", output, GOLD)["content"] == result.verdict[2]
    assert ids_mix_reward([output], gold_ids=[GOLD])[0] >= 0
    assert score_batch({"prediction": [output], "gold_ids": [GOLD]})["content"] == [result.verdict[2]]
    assert compute([output], [GOLD])["content"] == result.verdict[2]
    assert score([output], [REFERENCE]).results[0].verdict == result.verdict
    (tmp_path / "out.ids").write_bytes(written)
    assert main(["audit", str(tmp_path / "out.ids"), "--json"]) == validator.status


def test_score_finishes_a_file_holding_the_long_encoding_output(tmp_path, capsys):
    from idsbench.records import load_references

    references = load_references()
    output = CASES["long unknown encoding and a non-ASCII character"][0]
    predictions = tmp_path / "p.jsonl"
    rows = [{"id": r.id, "prediction": output if i == 0 else r.gold} for i, r in enumerate(references[:3])]
    predictions.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    code = main(["score", "--predictions", str(predictions), "--subset", "--out", str(tmp_path / "scored"),
                 "--no-progress"])
    assert code == 0, capsys.readouterr()
    lines = (tmp_path / "scored" / "results.jsonl").read_text(encoding="utf-8").splitlines()
    first = json.loads(lines[0])
    assert first["processability"] == 0 and first["f1"] == 0 and "encoding" in first.get("error", "")
