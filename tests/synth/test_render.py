"""The two languages of a task: the same gold up to localized names, the same shared choices."""
from __future__ import annotations

from idsbench.dataset.ids_analysis import parity_problems
from idsbench.synth import render_en, render_ja
from idsbench.synth.compose import PURPOSES
from idsbench.synth.gold import gold_ids
from idsbench.synth.request import user_messages
from idsbench.synth.sample import sample_task


def test_english_and_japanese_golds_differ_only_in_localized_names():
    for index in range(18):
        plan = sample_task(8, index, "mixed")
        for turn in plan.turns:
            assert parity_problems(gold_ids(plan, turn, "en"), gold_ids(plan, turn, "ja")) == [], index


def test_the_languages_word_the_same_purposes_and_draw_remarks_from_lists_of_equal_length():
    assert set(render_en.PURPOSES) == set(render_ja.PURPOSES) == {p for d in PURPOSES.values() for p, _ in d}
    assert set(render_en.NOISE) == set(render_ja.NOISE) == set(PURPOSES)  # remarks from the task's own trade
    assert all(len(render_en.NOISE[d]) == len(render_ja.NOISE[d]) for d in PURPOSES)


def test_every_request_starts_with_its_header_and_revisions_name_a_new_version():
    for index in range(24):
        plan = sample_task(9, index, "hard")
        for language in ("en", "ja"):
            messages = user_messages(plan, language)
            assert len(messages) == len(plan.turns)
            assert messages[0].startswith(f"IDS Version: {' '.join(plan.turns[0].versions)}\nfilename: ")
            for before, after, text in zip(plan.turns, plan.turns[1:], messages[1:]):
                assert text.startswith("IDS Version:") == (before.versions != after.versions)


def test_a_value_is_named_in_the_words_of_its_own_item():
    """Two flags that are both true in one request each read as their own answer ("external", "load-bearing")."""
    from idsbench.synth.plan import Equals
    from idsbench.synth.render import voice
    from idsbench.synth.request import WRITERS

    checked = 0
    for index in range(30):
        plan = sample_task(5, index, "hard")
        for language in ("en", "ja"):
            v = voice(plan, language)
            for req in (r for s in plan.turns[0].specs for r in s.requirements):
                if isinstance(req.value, Equals) and req.value.words and req.cardinality != "prohibited":
                    text = WRITERS[language].clause(v, req)
                    assert any(w in text for w in req.value.words.of(language)), (index, language, text)
                    checked += 1
    assert checked > 20
