"""The audit command's input errors: a folder without .ids files is exit 2, not "0 files processed ... Ok";
an XML syntax error names its position once (lxml's message, then the position, then the position again
was the old text)."""
import pytest

from idsbench.audit import audit
from idsbench.audit.cli import format_finding
from idsbench.cli import main
from tests.support.smalldata import GOLD, IDS


def test_audit_of_a_folder_without_ids_files_is_an_error(tmp_path, capsys):
    (tmp_path / "notes.txt").write_text("not an IDS", encoding="utf-8")
    assert main(["audit", str(tmp_path)]) == 2
    captured = capsys.readouterr()
    assert f"no .ids files found in {tmp_path}" in captured.err and "Completed with status: Ok" not in captured.out


XML_ERRORS = {
    "tag mismatch": GOLD[IDS[0]].replace("</applicability>", "", 1),
    "truncated": GOLD[IDS[0]][:400],
}


@pytest.mark.parametrize("document", XML_ERRORS.values(), ids=XML_ERRORS.keys())
def test_an_xml_syntax_error_names_its_position_once(document):
    finding = next(f for f in audit(document).findings if f.code == 502)
    text = format_finding(finding)
    assert finding.line and finding.column and ", line " not in finding.message
    assert text.endswith(f" (line {finding.line}, column {finding.column})") and text.count("column") == 1
