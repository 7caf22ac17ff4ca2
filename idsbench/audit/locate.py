"""Findings from issues, computed only when findings are asked for: the validator's log order, the
positional path (`/ids1/specifications1/specification2`) and the column of each finding.

The validator logs as it reads: schema errors when the next element starts, content errors at end
tags, children before parents. Checks append issues in end-tag order already, so the order is worked
out (one numbered walk over the tree) only when start-tag issues (107) or schema errors are present.
"""
from __future__ import annotations

import bisect

from lxml import etree

from .context import Issue
from .nodes import ELEMENTS, local
from .result import Finding
from .rules import rule as rule_for


class Numbering:
    """Event index of every element's start and end tag in a walk of the tree (as the validator's
    reader meets them), and the line of every start."""

    def __init__(self, root: etree._Element):
        self.start: dict[etree._Element, int] = {}
        self.end: dict[etree._Element, int] = {}
        self.lines: list[int] = []
        self.events: list[int] = []
        for index, (event, el) in enumerate(etree.iterwalk(root, events=("start", "end"))):
            if event == "start":
                self.start[el] = index
                self.lines.append(el.sourceline or 0)
                self.events.append(index)
            else:
                self.end[el] = index

    def event(self, where: tuple) -> int:
        kind = where[0]
        if kind == "end":
            return self.end[where[1]]
        if kind == "start":
            return self.start[where[1]]
        if kind == "xsd":  # logged when the first element at or after its line starts
            at = min(bisect.bisect_left(self.lines, where[1] or 0), len(self.events) - 1)
            return self.events[at] - 1
        if kind == "after":
            return 2 * len(self.events) - 1
        if kind == "final":
            return 2 * len(self.events)
        return 0  # "first"


def ordered(issues: list[Issue], root: etree._Element | None, stopped: tuple | None = None) -> list[Issue]:
    """Issues in the validator's log order. `stopped`: where an unexpected error ended the pass
    (specifications that start after it were not read by then, so their 107 lines were not logged)."""
    if root is None or all(i.where[0] in ("end", "first", "after", "final") for i in issues):
        return issues
    numbering = Numbering(root)
    if stopped is not None:
        limit = numbering.event(stopped)
        issues = [i for i in issues if i.where[0] != "start" or numbering.event(i.where) < limit]
    return sorted(issues, key=lambda i: (numbering.event(i.where), i.seq))


def _path(node: etree._Element) -> str:
    parts = []
    while node is not None:
        name = local(node)
        index = 1 + sum(1 for s in node.itersiblings(ELEMENTS, preceding=True) if local(s) == name)
        parts.append(f"{name}{index}")
        node = node.getparent()
    return "/" + "/".join(reversed(parts))


def _qname(node: etree._Element) -> str:
    prefix = node.prefix
    return f"{prefix}:{local(node)}" if prefix else local(node)


class Locator:
    """Columns of reported elements: the tool's LinePosition is the column of the name, after `<`."""

    def __init__(self, root: etree._Element, lines: list[str] | None, nodes: list[etree._Element]):
        self.lines = lines
        self.occurrence: dict[etree._Element, int] = {}
        wanted = {n.sourceline for n in nodes}
        seen: dict[tuple[int, str], int] = {}
        for el in root.iter(ELEMENTS):
            line = el.sourceline
            if line in wanted:
                key = (line, _qname(el))
                self.occurrence[el] = seen.get(key, 0)
                seen[key] = self.occurrence[el] + 1
        self.positions: dict[tuple[int, str], list[int]] = {}

    def column(self, node: etree._Element) -> int | None:
        lines, line = self.lines, node.sourceline
        if lines is None or line is None or not 0 < line <= len(lines):
            return None
        qname = _qname(node)
        key = (line, qname)
        found = self.positions.get(key)
        if found is None:  # every `<qname` on the line, found once (one-line documents have thousands)
            text, found = lines[line - 1], []
            pos = _find_tag(text, qname, 0)
            while pos >= 0:
                found.append(pos)
                pos = _find_tag(text, qname, pos + 1)
            self.positions[key] = found
        nth = self.occurrence.get(node, 0)
        return found[nth] + 2 if nth < len(found) else None


def _find_tag(text: str, qname: str, start: int) -> int:
    pos = text.find("<" + qname, start)
    while pos >= 0 and text[pos + 1 + len(qname):pos + 2 + len(qname)] not in ("", " ", "\t", "/", ">", "\r", "\n"):
        pos = text.find("<" + qname, pos + 1)
    return pos


def source_lines(data: bytes, encoding: str | None) -> list[str] | None:
    try:
        return data.decode(encoding or "utf-8").splitlines()
    except (UnicodeDecodeError, LookupError):
        return None


def findings(issues: list[Issue], root: etree._Element | None, data: bytes, encoding: str | None,
             positions: bool = True) -> tuple[Finding, ...]:
    """Findings in issue order; with positions when `positions` and a node is known."""
    with_nodes = [i.node for i in issues if i.node is not None] if positions and root is not None else []
    locator = Locator(root, source_lines(data, encoding), with_nodes) if with_nodes else None
    out = []
    for issue in issues:
        rule, node = rule_for(issue.rule), issue.node
        if node is None or locator is None:
            out.append(Finding(rule.code, rule.level, issue.message(), "", issue.source_line(), issue.column))
        else:
            out.append(Finding(rule.code, rule.level, issue.message(), _path(node), issue.source_line(),
                               locator.column(node)))
    return tuple(out)
