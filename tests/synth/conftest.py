"""One small generated folder shared by the tests that only read it (generation is the expensive part)."""
from __future__ import annotations

import pytest

from idsbench.synth.config import Options
from idsbench.synth.generate import generate

SMALL = Options(n=9, seed=11)  # three tasks of each difficulty, both languages


@pytest.fixture(scope="session")
def small_folder(tmp_path_factory):
    out = tmp_path_factory.mktemp("synth") / "small"
    tally = generate(SMALL, out)
    return out, tally
