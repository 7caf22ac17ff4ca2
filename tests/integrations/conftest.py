import pytest

from tests.support.openai_standin import run_standin


@pytest.fixture
def standin(monkeypatch):
    """The OpenAI-compatible stand-in on 127.0.0.1 (tests/support/openai_standin.py)."""
    yield from run_standin(monkeypatch)
