"""The gold IDS of an example, read from this checkout's scenario folders."""
import pytest

from tests.paths import ROOT

SCENARIOS = ROOT / "data" / "scenarios"


def gold_text(example: str) -> str:
    """The gold IDS of an example id such as 's012-en' (the last assistant turn)."""
    scenario, language = example.split("-")
    files = sorted((SCENARIOS / scenario / language).glob("*-assistant.ids"))
    if not files:
        pytest.skip(f"{example} is not in this checkout's data")
    return files[-1].read_text("utf-8")
