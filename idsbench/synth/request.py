"""The user messages of a task in one language: the first request (letter or checklist) after its header,
then one message per revision (with a new `IDS Version:` line when the version changes)."""
from __future__ import annotations

from . import compose, render_en, render_ja
from .plan import TaskPlan
from .render import changed_turns, filename, header, voice

WRITERS = {"en": render_en, "ja": render_ja}


def user_messages(plan: TaskPlan, language: str) -> list[str]:
    v = voice(plan, language)
    writer = WRITERS[language]
    first = plan.turns[0]
    body = (compose.checklist if plan.input_format == "csv" else compose.letter)(v, plan, first, writer)
    messages = [header(first.versions, filename(plan)) + body]
    for before, after in changed_turns(plan):
        text = compose.revision(v, plan, [before, *after.steps, after], writer)
        messages.append(header(after.versions, None) + text if after.versions != before.versions else text)
    return messages
