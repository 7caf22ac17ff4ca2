"""Intervals (coverage on synthetic data with known truth) and the paired comparison."""
import json
from math import comb

import numpy as np
import pytest

from idsbench.cli import main
from idsbench.leaderboard.compare import compare_runs
from idsbench.leaderboard.results import load_any
from idsbench.leaderboard.stats import (Bootstrap, bootstrap_group, bootstrap_mean, describe_intervals, groups_of,
                               metric_values, paired_compare, sign_flip_p_value, wilson_interval)
from tests.leaderboard.runs import HARNESS_PROVENANCE, make_run, references


def test_signature_part_names_resamples_seed_and_non_default_level():
    assert Bootstrap().signature_part() == "bootstrap:1000,seed:0"
    assert Bootstrap(500, 3, 0.9).signature_part() == "bootstrap:500,seed:3,ci:90"
    with pytest.raises(ValueError):
        Bootstrap(0)


def test_bernoulli_intervals_cover_the_truth_about_95_percent_of_the_time():
    """p = 0.3, n = 166 (the paper's size), 200 simulated datasets, 1000 resamples each."""
    truth, n, datasets = 0.3, 166, 200
    rng = np.random.default_rng(2026)
    covered = 0
    for k in range(datasets):
        sample = (rng.random(n) < truth).astype(float)
        interval = bootstrap_mean(sample, Bootstrap(1000, k))
        covered += interval.low <= truth <= interval.high
    assert 0.93 <= covered / datasets <= 0.97, covered / datasets


@pytest.mark.parametrize("passes, n, confidence, low, high", [
    (8, 10, 0.95, 0.4902, 0.9433),      # textbook values
    (166, 166, 0.95, 0.97738, 1.0),     # a perfect pass rate is not [1, 1]
    (0, 30, 0.95, 0.0, 0.11351),
    (15, 30, 0.95, 0.33150, 0.66850),   # symmetric around one half
    (15, 30, 0.90, 0.35619, 0.64381),   # a lower level is narrower
])
def test_wilson_interval_values(passes, n, confidence, low, high):
    assert wilson_interval(passes, n, confidence) == pytest.approx((low, high), abs=5e-5)


@pytest.mark.parametrize("passes, n", [(1, 0), (-1, 10), (11, 10)])
def test_wilson_interval_refuses_impossible_counts(passes, n):
    with pytest.raises(ValueError):
        wilson_interval(passes, n, 0.95)


@pytest.mark.parametrize("n", [30, 71, 166])
@pytest.mark.parametrize("truth", [0.05, 0.3, 0.65, 0.95])
def test_wilson_coverage_is_near_95_percent_where_the_bootstrap_undercovers(n, truth):
    """Exact coverage (a sum over the binomial distribution, no simulation) in the breakdown cells' range."""
    coverage = sum(comb(n, k) * truth**k * (1 - truth) ** (n - k) for k in range(n + 1)
                   if wilson_interval(k, n, 0.95)[0] <= truth <= wilson_interval(k, n, 0.95)[1])
    assert 0.925 <= coverage <= 0.98, coverage


def test_pass_rates_get_wilson_intervals_and_graded_metrics_the_bootstrap():
    rows = [{"id": str(i), "f1": 1.0, "precision": 1.0, "recall": 1.0, "processability": 1, "structure": 1,
             "content": int(i < 20)} for i in range(30)]
    intervals = bootstrap_group(rows, Bootstrap(200, 0))
    assert (intervals["processability"].low, intervals["processability"].high) == pytest.approx(wilson_interval(30, 30, 0.95))
    assert (intervals["content"].low, intervals["content"].high) == pytest.approx(wilson_interval(20, 30, 0.95))
    assert intervals["processability"].low < 1.0 and intervals["facet_f1"].low == 1.0


def test_interval_description_names_both_methods():
    assert describe_intervals(None) == "no intervals"
    assert describe_intervals({"resamples": 1000, "seed": 0, "confidence": 0.95}) == (
        "95% intervals: percentile bootstrap (1000 resamples, seed 0)")
    assert describe_intervals({"resamples": 1000, "seed": 0, "confidence": 0.95, "pass_rates": "wilson"}) == (
        "95% intervals: Wilson for pass rates, percentile bootstrap (1000 resamples, seed 0) for the rest")


def test_intervals_for_a_continuous_metric_cover_the_truth():
    """A FacetF1-like score: many zeros, many ones, values between (Beta mixture with known mean)."""
    rng = np.random.default_rng(7)
    zero, one = 0.25, 0.35
    truth = one + (1 - zero - one) * 0.6  # Beta(3, 2) has mean 0.6
    covered = 0
    for k in range(200):
        kind = rng.random(166)
        sample = np.where(kind < zero, 0.0, np.where(kind < zero + one, 1.0, rng.beta(3, 2, 166)))
        interval = bootstrap_mean(sample, Bootstrap(1000, k))
        covered += interval.low <= truth <= interval.high
    assert 0.92 <= covered / 200 <= 0.98


def test_intervals_are_seeded_per_group_and_shared_across_metrics():
    rows = [{"id": str(i), "f1": i / 9, "precision": 1.0, "recall": i / 9, "processability": 1, "structure": 1,
             "content": i % 2, "language": "en" if i < 5 else "ja"} for i in range(10)]
    first, again = bootstrap_group(rows, Bootstrap(300, 1)), bootstrap_group(rows, Bootstrap(300, 1))
    assert first == again and first != bootstrap_group(rows, Bootstrap(300, 2))
    assert first["precision"].low == first["precision"].high == 1.0
    assert first["ag_facet_f1"].value == pytest.approx(np.mean([i / 9 * (i % 2) for i in range(10)]))
    assert list(groups_of(rows)["language"]) == ["en", "ja"]


def test_metric_values_need_every_row_audited():
    rows = [{"f1": 1.0, "precision": 1.0, "recall": 1.0, "processability": None, "structure": None, "content": None}]
    values = metric_values(rows)
    assert values["content"] is None and values["ag_facet_f1"] is None and values["facet_f1"].tolist() == [1.0]


def test_sign_flip_exact_and_monte_carlo():
    rng = np.random.default_rng(0)
    assert sign_flip_p_value(np.zeros(5), 100, rng) == (1.0, "sign-flip (exact)")
    p, test = sign_flip_p_value(np.array([1.0, 1.0, 1.0]), 100, rng)
    assert test == "sign-flip (exact)" and p == pytest.approx(2 / 8)  # all + or all −
    p, test = sign_flip_p_value(np.ones(40), 2000, rng)
    assert test.startswith("sign-flip (2000") and p == pytest.approx(1 / 2001)
    p, _ = sign_flip_p_value(rng.normal(0, 1, 200), 2000, rng)
    assert p > 0.01


def test_paired_comparison_sees_a_real_difference_and_not_a_fake_one():
    rng = np.random.default_rng(1)
    a = (rng.random(166) < 0.6).astype(float)
    b = np.where(rng.random(166) < 0.3, 0.0, a)  # B loses ~30% of A's successes
    result = paired_compare(a, b, "content", Bootstrap())
    assert result.difference > 0 and result.low > 0 and result.p_value < 0.001 and result.b_better == 0
    same = paired_compare(a, a.copy(), "content", Bootstrap())
    assert same.difference == 0 and same.p_value == 1.0 and same.ties == 166


def test_compare_two_runs_on_the_same_examples(tmp_path):
    refs = references()
    good = make_run(tmp_path / "good", refs, ["gold"], **HARNESS_PROVENANCE)
    weak = make_run(tmp_path / "weak", refs, ["missing", "not-xml", "gold"], **{**HARNESS_PROVENANCE, "model": "weak"})
    comparison = compare_runs(load_any(good), load_any(weak), Bootstrap(500, 0))
    by_metric = {m.metric: m for m in comparison.metrics}
    assert set(by_metric) == {"processability", "structure", "content", "facet_f1", "precision", "recall",
                              "ag_facet_f1"}
    assert by_metric["facet_f1"].difference > 0 and by_metric["facet_f1"].low > 0
    assert by_metric["facet_f1"].p_value < 0.01 and comparison.warning is None


def test_compare_refuses_different_examples(tmp_path):
    a = make_run(tmp_path / "a", references(10), ["gold"])
    b = make_run(tmp_path / "b", references(12), ["gold"])
    assert main(["compare", str(a), str(b)]) == 2


def test_compare_cli_text_and_json(tmp_path, capsys):
    refs = references(12)
    a = make_run(tmp_path / "a", refs, ["gold"], **HARNESS_PROVENANCE)
    b = make_run(tmp_path / "b", refs, ["none", "gold"], **{**HARNESS_PROVENANCE, "model": "b"})
    assert main(["compare", str(a), str(b), "--resamples", "200"]) == 0
    text = capsys.readouterr().out
    assert "FacetF1" in text and "sign-flip" in text and "bootstrap:200,seed:0" in text
    assert main(["compare", str(a), str(b), "--metric", "facet_f1", "--json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert [m["metric"] for m in document["metrics"]] == ["facet_f1"]
    assert document["metrics"][0]["difference"] == pytest.approx(0.5) and document["n"] == 12


def with_behaviour(folder, values):
    """The run as if scored with --behaviour: a Behaviour value per example."""
    path = folder / "results.jsonl"
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    path.write_text("".join(json.dumps({**row, "behaviour": values[i % len(values)]}) + "\n"
                            for i, row in enumerate(rows)), encoding="utf-8")
    return folder


def test_compare_selects_behaviour_when_both_runs_have_it(tmp_path, capsys):
    refs = references(12)
    a = with_behaviour(make_run(tmp_path / "a", refs, ["gold"], **HARNESS_PROVENANCE), [1.0])
    b = with_behaviour(make_run(tmp_path / "b", refs, ["gold"], **HARNESS_PROVENANCE), [1.0, 0.5])
    assert main(["compare", str(a), str(b), "--metric", "behaviour", "--json", "--resamples", "100"]) == 0
    (metric,) = json.loads(capsys.readouterr().out)["metrics"]
    assert metric["metric"] == "behaviour" and metric["difference"] == pytest.approx(0.25)
    assert main(["compare", str(a), str(b), "--resamples", "100"]) == 0  # by default too
    assert "Behaviour" in capsys.readouterr().out
    plain = make_run(tmp_path / "plain", refs, ["gold"], **HARNESS_PROVENANCE)
    assert main(["compare", str(a), str(plain), "--metric", "behaviour"]) == 2
    assert f"Behaviour was not computed for {plain}: score it with --behaviour" in capsys.readouterr().err
