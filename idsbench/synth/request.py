"""The user messages of a task in one language: the first request (letter or checklist) after its header,
then one message per revision (with a new `IDS Version:` line when the version changes)."""
from __future__ import annotations

from . import render_en, render_ja
from .plan import TaskPlan
from .render import changed_turns, filename, header, voice

WRITERS = {"en": render_en, "ja": render_ja}


def user_messages(plan: TaskPlan, language: str) -> list[str]:
    v = voice(plan, language)
    writer = WRITERS[language]
    first = plan.turns[0]
    body = writer.checklist(v, plan, first) if plan.input_format == "csv" else writer.letter(v, plan, first)
    messages = [header(first.versions, filename(plan)) + body]
    for before, after in changed_turns(plan):
        text = writer.revision(v, plan, [before, *after.steps, after])
        messages.append(header(after.versions, None) + text if after.versions != before.versions else text)
    return messages
