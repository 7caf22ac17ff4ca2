"""A scripted model for the repair protocols: its first answer is given (e.g. a gold with known audit
errors, or a baseline's output); asked to repair, it fixes exactly the findings the feedback lists, each
at the line the feedback names, and nothing else.

Fixes it knows (what the validator's message says to do): 103, an IFC name in lower case -> upper case
on that line; 204, requirements under a prohibited applicability -> the specification at that line loses
its requirements. A finding it has no fix for is left as it is; "No IDS document found" gets the same
answer again.
"""
from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping

from lxml import etree

from idsbench.extract import extract_candidate

SENT = re.compile(r"^- (\d{3}) .*? at line (\d+)", re.M)  # the template's finding lines
IFC_NAME = re.compile(r"\bifc[a-z0-9_]+\b")


def lower_entities(gold: str) -> str:
    """The gold with every IFC class name in an entity facet written in lower case (103 on each line)."""
    return re.sub(r"(<entity><name><simpleValue>)(IFC[A-Z0-9_]+)", lambda m: m.group(1) + m.group(2).lower(), gold)


def fenced(document: str) -> str:
    return f"```ids\n{document}\n```"


def _upper_line(lines: list[str], line: int) -> None:
    lines[line - 1] = IFC_NAME.sub(lambda m: m.group(0).upper(), lines[line - 1])


def _drop_requirements(document: str, line: int) -> str:
    root = etree.fromstring(document.encode("utf-8"))
    for spec in root.iter("{*}specification"):
        if spec.sourceline == line:
            for requirements in spec.findall("{*}requirements"):
                spec.remove(requirements)
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8").decode("utf-8")


def repaired(previous: str, feedback: str) -> str:
    """The previous answer with exactly the listed findings fixed."""
    document = extract_candidate(previous)
    sent = [(int(code), int(line)) for code, line in SENT.findall(feedback)]
    lines = document.split("\n")
    for code, line in sent:
        if code == 103:
            _upper_line(lines, line)
    document = "\n".join(lines)
    for code, line in sorted(sent, key=lambda s: -s[1]):
        if code == 204:
            document = _drop_requirements(document, line)
    return fenced(document)


def conversation_key(messages) -> str:
    """The turns a model sees, without system messages, as one string."""
    return json.dumps([(m["role"], m["content"]) for m in messages if m["role"] != "system"], ensure_ascii=False)


def answering(first: Mapping[str, str]) -> Callable[[list[dict]], str]:
    """A model: `first` answers by conversation key; any other conversation is a repair request."""
    def answer(messages: list[dict]) -> str:
        known = first.get(conversation_key(messages))
        if known is not None:
            return known
        assistant = [m["content"] for m in messages if m["role"] == "assistant"]
        return repaired(assistant[-1], messages[-1]["content"])

    return answer
