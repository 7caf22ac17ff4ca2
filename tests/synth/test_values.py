"""Numbers, conversions and formats: what the request writes and what the gold writes."""
from __future__ import annotations

import random
import re
from fractions import Fraction

import pytest

from idsbench.synth.lexicon import lexicon
from idsbench.synth.values import decimal_text, sample_format, sample_range, side_values, to_si

UNITS = lexicon().units


@pytest.mark.parametrize("value, text", [
    (Fraction(9, 10), "0.9"), (Fraction(24000), "24000"), (Fraction(0), "0"), (Fraction(-5, 2), "-2.5"),
    (Fraction(1, 3), None), (Fraction(1, 3600), None), (Fraction(123456789, 10**12), "0.000123456789"),
    (Fraction(1234567891, 10**12), None),
])
def test_decimal_text_is_the_shortest_plain_decimal_or_none(value, text):
    assert decimal_text(value) == text


@pytest.mark.parametrize("shown, unit, si", [
    ("900", "mm", "0.9"), ("20", "degC", "293.15"), ("1800", "m3/h", "0.5"), ("24", "t", "24000"),
    ("40", "percent", "0.4"), ("24", "MPa", "24000000"), ("2.5", "kW", "2500"), ("50", "L", "0.05"),
    ("30", "min", "1800"), ("0.25", "W/m2K", "0.25"),
])
def test_units_convert_to_si_exactly(shown, unit, si):
    assert decimal_text(to_si(Fraction(shown), UNITS[unit])) == si


def test_a_format_regex_matches_its_examples_and_not_a_near_miss():
    rng = random.Random(0)
    for _ in range(200):
        found = sample_format(rng)
        for example in found.examples:
            assert re.fullmatch(found.regex, example), (found.regex, example)
            assert not re.fullmatch(found.regex, example + "0")
        assert "{1}" not in found.regex  # one character is written bare, as people write it


def test_a_one_sided_bound_leaves_a_range_to_limit():
    """"At most DN15" of pipes or "at most 1" panel says one value, not a limit: such bounds are drawn again."""
    from idsbench.synth.lexicon import Typical
    from idsbench.synth.values import sample_range

    typical = Typical(Fraction(1), Fraction(3), Fraction(1))
    drawn = [r for r in (sample_range(random.Random(i), typical, None, True) for i in range(300)) if r]
    one_sided = {(r.phrase, r.bounds[0].shown) for r in drawn if len(r.bounds) == 1}
    assert one_sided and not one_sided & {("at most", 1), ("at least", 3), ("less than", 1), ("more than", 3)}


def test_a_limit_is_one_every_object_of_the_group_can_meet():
    """A maximum comes from the top of the typical range and a minimum from the bottom: no beam "at most
    2.5 m" of 2-16 m beams, no room "at least 230 m2" of 5-300 m2 rooms."""
    from idsbench.synth.lexicon import Typical

    beams = Typical(Fraction(2), Fraction(16), Fraction(1, 2), "m")
    assert max(side_values(beams, "min")) <= 6 and min(side_values(beams, "max")) >= 12
    rng = random.Random(4)
    concepts = [c for c in (*lexicon().properties.values(), *lexicon().quantities.values())]
    typicals = [t for c in concepts for t in (c.typical, *dict(c.ranges).values()) if t and t.low is not None]
    drawn = 0
    for typical in typicals:
        low_part, high_part = max(side_values(typical, "min")), min(side_values(typical, "max"))
        for _ in range(12):
            found = sample_range(rng, typical, None, False)
            for bound in found.bounds if found else ():
                drawn += 1
                assert bound.shown <= low_part if bound.facet.startswith("min") else bound.shown >= high_part
    assert drawn > 1000


@pytest.mark.parametrize("seed", range(30))
def test_a_revised_bound_stays_on_its_side_in_range_and_within_a_factor_of_two(seed):
    from idsbench.synth.lexicon import Typical
    from idsbench.synth.values import shift_range
    typical = Typical(Fraction(30), Fraction(400), Fraction(10), "mm", "min")
    unit = lexicon().units["mm"]
    old = sample_range(random.Random(seed), typical, unit, False)
    new = old and shift_range(random.Random(seed + 100), old, typical)
    if new is None:
        return
    assert new.phrase == old.phrase
    for o, n in zip(old.bounds, new.bounds):
        assert typical.low <= n.shown <= typical.high and o.facet == n.facet
        assert Fraction(1, 2) < n.shown / o.shown < 2
