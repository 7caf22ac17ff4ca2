"""Agreement with the audit tool's own expectations (skipped when ../shared is absent):
its 1.0.96 test files, the buildingSMART IDS test cases under `-x ids.xsd`, and the newer
tool's test files under the ids-tool-latest profile."""
from __future__ import annotations

import csv
import re
from pathlib import Path

import pytest

from idsbench.audit import audit
from idsbench.audit.result import parse_status
from tests.paths import SHARED

CONFORMANCE = SHARED / "conformance"


def _rows(table: Path) -> list[dict]:
    if not table.is_file():
        return []
    with table.open(newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle, delimiter="\t"))


def _expected_1096(row: dict) -> str:
    """The asserted status, or the derived one where the tool's tests assert none."""
    if not row["expected_status"].startswith("("):
        return row["expected_status"]
    return re.search(r"derived status: ([A-Za-z, ]+)", row["expected_codes_if_any"]).group(1).strip()


def _skip_without_shared(rows: list) -> None:
    if not rows:
        pytest.skip("shared/conformance is not available beside this checkout")


ROWS_1096 = _rows(CONFORMANCE / "ids-audit-tool-1.0.96" / "expected.tsv")
ROWS_BSI = _rows(CONFORMANCE / "buildingsmart-ids" / "audit-expected.tsv")
ROWS_HEAD = _rows(CONFORMANCE / "ids-audit-tool-head" / "expected.tsv")


@pytest.mark.parametrize("row", ROWS_1096 or [None], ids=[r["path_in_repo"] for r in ROWS_1096] or ["absent"])
def test_ids_tool_1096_suite(row):
    _skip_without_shared(ROWS_1096)
    document = (CONFORMANCE / "ids-audit-tool-1.0.96" / row["path_in_repo"]).read_bytes()
    result = audit(document)
    assert result.status == parse_status(_expected_1096(row)), result.findings
    asserted = re.search(r"count=(\d+) \(asserted\)", row["expected_codes_if_any"])
    if asserted and "306" not in row["expected_codes_if_any"]:  # .NET and libxml2 may split XSD errors
        assert sum(f.level in ("error", "warning") for f in result.findings) == int(asserted.group(1))


@pytest.mark.parametrize("row", ROWS_BSI or [None], ids=[r["path_in_repo"] for r in ROWS_BSI] or ["absent"])
def test_buildingsmart_ids_cases_with_custom_xsd(row):
    _skip_without_shared(ROWS_BSI)
    document = (CONFORMANCE / "buildingsmart-ids" / row["path_in_repo"]).read_bytes()
    result = audit(document, custom_xsd=True)
    assert result.status == parse_status(row["expected_status"]), result.findings


@pytest.mark.parametrize("row", ROWS_HEAD or [None], ids=[r["path_in_repo"] for r in ROWS_HEAD] or ["absent"])
def test_ids_tool_head_suite_with_latest_profile(row):
    _skip_without_shared(ROWS_HEAD)
    document = (CONFORMANCE / "ids-audit-tool-head" / row["path_in_repo"]).read_bytes()
    omit = "omit content" in row["source_of_expectation"]  # SchemaLoadingTests run with -c
    result = audit(document, "ids-tool-latest", omit_content=omit)
    assert result.status == parse_status(row["expected_status_HEAD"]), result.findings
