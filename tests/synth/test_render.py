"""The two languages of a task: the same gold up to localized names, the same shared choices."""
from __future__ import annotations

from idsbench.dataset.ids_analysis import parity_problems
from idsbench.synth import render_en, render_ja
from idsbench.synth.gold import gold_ids
from idsbench.synth.request import user_messages
from idsbench.synth.sample import sample_task


def test_english_and_japanese_golds_differ_only_in_localized_names():
    for index in range(18):
        plan = sample_task(8, index, "mixed")
        for turn in plan.turns:
            assert parity_problems(gold_ids(plan, turn, "en"), gold_ids(plan, turn, "ja")) == [], index


def test_the_languages_draw_shared_choices_from_lists_of_equal_length():
    assert {d: len(p) for d, p in render_en.PURPOSES.items()} == {d: len(p) for d, p in render_ja.PURPOSES.items()}
    assert len(render_en.NOISE) == len(render_ja.NOISE)


def test_every_request_starts_with_its_header_and_revisions_name_a_new_version():
    for index in range(24):
        plan = sample_task(9, index, "hard")
        for language in ("en", "ja"):
            messages = user_messages(plan, language)
            assert len(messages) == len(plan.turns)
            assert messages[0].startswith(f"IDS Version: {' '.join(plan.turns[0].versions)}\nfilename: ")
            for before, after, text in zip(plan.turns, plan.turns[1:], messages[1:]):
                assert text.startswith("IDS Version:") == (before.versions != after.versions)
