"""`audit` subcommand: audit IDS files or folders like `ids-tool audit`.

Examples:
  python -m ids_metric audit gold.ids
  python -m ids_metric audit data/ --profile ids-tool-latest
  python -m ids_metric audit testcases/ --xsd-mode custom --json

Each finding prints as one line in the tool's style (`fail: Error 103: …`), then
`Completed with status: …`; a folder is searched recursively for `*.<extension>` and ends
with `N files processed.`. The exit code is the status number (clamped to 255).
"""
from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import TextIO

from .audit import audit
from .audit_codes import AuditResult, Finding, Status, status_text
from .audit_profiles import PROFILES

_LEVEL_PREFIX = {"critical": "crit", "error": "fail", "warning": "warn", "info": "info"}
_LEVEL_WORD = {"critical": "Error", "error": "Error", "warning": "Warning", "info": "Information"}


def configure_parser(p: argparse.ArgumentParser) -> argparse.ArgumentParser:
    p.description = __doc__.split("\n\n")[0]
    p.epilog = __doc__.split("\n\n", 1)[1]
    p.formatter_class = argparse.RawDescriptionHelpFormatter
    p.add_argument("source", nargs="+", help="IDS file(s) or folder(s) to audit")
    p.add_argument("--profile", default=PROFILES[0], choices=PROFILES,
                   help="tool behaviour to reproduce (default: %(default)s)")
    p.add_argument("--json", action="store_true", help="print one JSON object per file")
    p.add_argument("--xsd-mode", choices=("embedded", "custom"), default="embedded",
                   help="'custom' reproduces `ids-tool audit -x ids.xsd` (no schemaLocation probe)")
    p.add_argument("-e", "--extension", default="ids", help="file extension searched in folders")
    p.add_argument("-c", "--omit-content", action="store_true", help="skip the content audit (XSD only)")
    return p


def _location(finding: Finding) -> str:
    node = re.sub(r"\d+$", "", finding.path.rsplit("/", 1)[-1]) if finding.path else ""
    if node and finding.line is not None:
        return f" on `{node}` element at line {finding.line}, position {finding.column or 0}."
    if finding.line is not None:
        return f" (line {finding.line})"
    return ""


def format_finding(finding: Finding) -> str:
    """One log line in the tool's style, e.g.
    "fail: Error 103: Invalid entity name `X` (…) on `simpleValue` element at line 5, position 8."."""
    prefix = _LEVEL_PREFIX.get(finding.level, "info")
    if finding.code is None:
        return f"{prefix}: {finding.message}"
    return f"{prefix}: {_LEVEL_WORD[finding.level]} {finding.code}: {finding.message}{_location(finding)}"


def _files(folder: Path, extension: str) -> list[Path]:
    suffix = "." + extension.lower().lstrip(".")
    found = [p for p in folder.rglob("*") if p.is_file() and p.name.lower().endswith(suffix)]
    return sorted(found, key=lambda p: str(p.resolve()))


def _audit_file(path: Path, args: argparse.Namespace) -> AuditResult:
    return audit(path.read_bytes(), args.profile, custom_xsd=args.xsd_mode == "custom",
                 omit_content=args.omit_content)


def _report(path: Path, result: AuditResult, args: argparse.Namespace, out: TextIO) -> None:
    if args.json:
        out.write(json.dumps({"file": str(path), **result.to_dict()}, ensure_ascii=False) + "\n")
        return
    out.write(f"Auditing file: `{path.resolve()}`.\n")
    for finding in result.findings:
        out.write(format_finding(finding) + "\n")


def _run_source(source: str, args: argparse.Namespace, out: TextIO) -> int:
    path = Path(source)
    if path.is_file():
        result = _audit_file(path, args)
        _report(path, result, args, out)
        if not args.json:
            out.write(f"Completed with status: {result.status_text}.\n")
        return result.status
    if path.is_dir():
        status = 0
        files = _files(path, args.extension)
        for file in files:
            result = _audit_file(file, args)
            _report(file, result, args, out)
            status |= result.status
        if not args.json:
            out.write(f"{len(files)} files processed.\nCompleted with status: {status_text(status)}.\n")
        return status
    sys.stderr.write(f"fail: Invalid input source '{source}'\n")
    return int(Status.NOT_FOUND_ERROR)


def run(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Audit every source; the exit code is the OR of the statuses, clamped to 255."""
    out = out or sys.stdout
    status = 0
    for source in args.source:
        status |= _run_source(source, args, out)
    return min(status, 255)


def main(argv: list[str] | None = None) -> int:
    parser = configure_parser(argparse.ArgumentParser(prog="ids_metric audit"))
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    raise SystemExit(main())
