"""Where the tests find the checkout and the conformance files beside it (../shared, when present)."""
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
