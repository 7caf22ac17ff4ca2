"""`audit` subcommand: audit IDS files or folders like `ids-tool audit`, or explain a code.

Each finding prints as one line in the tool's style (`fail: Error 103: …`), then
`Completed with status: …` and what the status means in words; a folder is searched recursively for
`*.<extension>` and ends with `N files processed.`, and the codes found are listed with their meaning.
The exit code is the status number (clamped to 255); a source that does not exist is the validator's
NotFoundError (4), a folder without such files an error (2).
"""
from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import TextIO

from idsbench.audit import audit
from idsbench.extract import extract_candidate
from idsbench.options import add_audit_profile
from idsbench.xmlparse import as_written

from .result import STATUS_NAMES, STATUS_WORDS, AuditResult, Finding, Status, status_line, status_text
from .rules import RULES, explain, meaning

_LEVEL_PREFIX = {"critical": "crit", "error": "fail", "warning": "warn", "info": "info"}
_LEVEL_WORD = {"critical": "Error", "error": "Error", "warning": "Warning", "info": "Information"}
NOT_FOUND = "no such file or folder"
EXAMPLES = """examples:
  ids-bench audit my.ids
  ids-bench audit data/scenarios --json
  ids-bench audit --extract raw-output.txt           # a model's whole answer, audited as the scorer reads it
  ids-bench audit --extract outputs/ -e txt
  ids-bench audit --explain 103"""


def exit_codes_help() -> str:
    """The exit codes, from the status table: the audit exits with the validator's status number."""
    bits = "\n".join(f"  {int(flag):>3} {words} ({STATUS_NAMES[flag]})" for flag, words in STATUS_WORDS.items())
    return ("exit code: the validator's status number, 0 Ok, else the sum of the bits found (24 = 8 + 16;\n"
            f"a folder or several files: every bit any of them has):\n{bits}\n"
            "  130 interrupted (Ctrl-C; stderr says so, which tells it from 128 + 2)")


def _code(value: str) -> int:
    if not value.isdigit() or int(value) not in RULES:
        raise argparse.ArgumentTypeError(f"unknown code {value!r}; codes: {', '.join(map(str, RULES))}")
    return int(value)


def configure_parser(p: argparse.ArgumentParser) -> argparse.ArgumentParser:
    p.description = ("Audit IDS files or folders like buildingSMART's `ids-tool audit` (Stage 1), or explain a code.\n"
                     "Findings print in the tool's style, then the status; folders are searched recursively;\n"
                     "the codes found are listed with their meaning.")
    p.formatter_class = argparse.RawDescriptionHelpFormatter
    p.epilog = f"{EXAMPLES}\n{exit_codes_help()}"
    p.add_argument("source", nargs="*", help="IDS file(s) or folder(s) to audit")
    p.add_argument("--explain", type=_code, metavar="CODE",
                   help="print what a code means, the checks that raise it and an example document, then exit")
    add_audit_profile(p, allow_none=False)
    p.add_argument("--json", action="store_true", help="print one JSON object per file")
    p.add_argument("--xsd-mode", choices=("embedded", "custom"), default="embedded",
                   help="'custom' reproduces `ids-tool audit -x ids.xsd` (no schemaLocation probe)")
    p.add_argument("-e", "--extension", default="ids", help="file extension searched in folders")
    p.add_argument("-c", "--omit-content", action="store_true", help="skip the content audit (XSD only)")
    p.add_argument("--extract", action="store_true",
                   help="the files are raw model outputs (UTF-8 text): audit what the scorer audits, with <think> "
                        "spans removed and only the body of the first fenced block, written out as UTF-8")
    return p


def _location(finding: Finding) -> str:
    node = re.sub(r"\d+$", "", finding.path.rsplit("/", 1)[-1]) if finding.path else ""
    if node and finding.line is not None:
        return f" on `{node}` element at line {finding.line}, position {finding.column or 0}."
    if finding.line is not None:
        return f" (line {finding.line}" + (f", column {finding.column})" if finding.column else ")")
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


def as_scored(raw: bytes) -> str:
    """A raw model output as the scorer audits it: the extracted candidate, as the file the published
    harness writes for the validator (a str is audited as that UTF-8 file). UnicodeDecodeError when the
    output is not UTF-8 text."""
    return as_written(extract_candidate(raw.decode("utf-8-sig")))


def _audit_file(path: Path, args: argparse.Namespace) -> AuditResult:
    data = path.read_bytes()
    return audit(as_scored(data) if args.extract else data, args.audit_profile,
                 custom_xsd=args.xsd_mode == "custom", omit_content=args.omit_content)


def _json_row(path: Path, result: AuditResult) -> dict:
    row = {"file": str(path), **result.to_dict()}
    for finding in row["findings"]:
        finding["meaning"] = meaning(finding["code"]) if finding["code"] is not None else None
    return row


def _missing_row(source: str, profile: str) -> dict:
    """The --json line of a source that does not exist: the shape of a file's, with the reason."""
    status = Status.NOT_FOUND_ERROR
    return {"file": source, "status": int(status), "status_text": status_text(status), "profile": profile,
            "findings": [], "error": NOT_FOUND}


def _report(path: Path, result: AuditResult, args: argparse.Namespace, out: TextIO) -> None:
    if args.json:
        out.write(json.dumps(_json_row(path, result), ensure_ascii=False) + "\n")
        return
    extracted = " (the candidate extracted from it: lines are the candidate's)" if args.extract else ""
    out.write(f"Auditing file: `{path.resolve()}`{extracted}.\n")
    for finding in result.findings:
        out.write(format_finding(finding) + "\n")


def _run_source(source: str, args: argparse.Namespace, out: TextIO, codes: set[int]) -> int:
    path = Path(source)
    files = [path] if path.is_file() else _files(path, args.extension) if path.is_dir() else None
    if files is None:
        sys.stderr.write(f"fail: Invalid input source '{source}' ({NOT_FOUND})\n")
        if args.json:
            out.write(json.dumps(_missing_row(source, args.audit_profile), ensure_ascii=False) + "\n")
        return int(Status.NOT_FOUND_ERROR)
    if not files:  # the tool says "0 files processed ... Ok": a typo in a path would look like a pass
        sys.stderr.write(f"error: no .{args.extension.lstrip('.')} files found in {source} (searched "
                         "recursively; -e EXT for another extension)\n")
        return int(Status.INVALID_OPTIONS_ERROR)
    status = 0
    for file in files:
        try:
            result = _audit_file(file, args)
        except UnicodeDecodeError as exc:  # only with --extract: the bytes alone are audited as they are
            sys.stderr.write(f"error: {file}: --extract reads model outputs as UTF-8 text, and this file is not "
                             f"(byte {exc.start}); audit it without --extract\n")
            status |= Status.INVALID_OPTIONS_ERROR
            continue
        _report(file, result, args, out)
        codes.update(result.codes)
        status |= result.status
    if not args.json:
        processed = f"{len(files)} files processed.\n" if path.is_dir() else ""
        out.write(f"{processed}Completed with status: {status_line(status)}.\n")
    return status


def run(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Audit every source; the exit code is the OR of the statuses, clamped to 255."""
    out = out or sys.stdout
    if args.explain is not None:
        out.write(explain(args.explain) + "\n")
        return 0
    if not args.source:
        sys.stderr.write("error: give IDS files or folders to audit, or --explain CODE\n")
        return int(Status.INVALID_OPTIONS_ERROR)
    status, codes = 0, set()
    for source in args.source:
        status |= _run_source(source, args, out, codes)
    if codes and not args.json:
        out.write("Codes: " + "; ".join(f"{code} {meaning(code)}" for code in sorted(codes)) + "\n")
    return min(status, 255)
