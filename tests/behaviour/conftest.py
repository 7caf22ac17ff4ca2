import os
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
# Witness sets of the tests are built in a throw-away cache folder, never in the user's.
os.environ.setdefault("IDS_BENCH_CACHE", tempfile.mkdtemp(prefix="ids-bench-witnesses-"))

SCENARIOS = ROOT / "data" / "scenarios"


def gold_text(example: str) -> str:
    """The gold IDS of an example id such as 's012-en' (the last assistant turn)."""
    scenario, language = example.split("-")
    files = sorted((SCENARIOS / scenario / language).glob("*-assistant.ids"))
    if not files:
        pytest.skip(f"{example} is not in this checkout's data")
    return files[-1].read_text("utf-8")
