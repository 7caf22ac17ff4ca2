"""Intervals and paired comparisons over per-example values (never over text).

In the spirit of sacreBLEU: per-example numbers are kept. The graded metrics (FacetF1, Precision, Recall,
AG-FacetF1) get percentile-bootstrap intervals that resample *examples*: the spread of the metric over
datasets of the same size drawn from the observed one. Everything is seeded: the same rows, settings and
group name always give the same interval. The pass rates (Processability, Structure, Content) are 0/1 per
example and get Wilson score intervals instead (PASS_RATE_INTERVAL): the percentile bootstrap collapses to
[1, 1] at a 100% pass rate and covers the truth only 79-88% of the time near 0% or 100% in small groups
(benchmarks/bootstrap_coverage.py), where Wilson stays at 93-97%.
"""
from __future__ import annotations

import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import product
from math import sqrt
from statistics import NormalDist
from types import SimpleNamespace

import numpy as np

from idsbench.example import METADATA_KEYS
from idsbench.report.aggregate import PAPER_METRICS, group_values

METRICS = (*PAPER_METRICS, "behaviour")  # Behaviour: only when every example has a value
PASS_RATES = ("processability", "structure", "content")  # 0/1 per example
PASS_RATE_INTERVAL = "wilson"  # recorded in results files and their signature (`rates:wilson`)
EXACT_SIGN_FLIP_LIMIT = 16  # 2**16 sign patterns: exact p-value below this many non-zero differences


@dataclass(frozen=True)
class Bootstrap:
    """Settings of every interval; they go into the signature so intervals are reproducible."""

    resamples: int = 1000
    seed: int = 0
    confidence: float = 0.95

    def __post_init__(self) -> None:
        if self.resamples < 1 or self.seed < 0 or not 0 < self.confidence < 1:
            raise ValueError(f"bad bootstrap settings: {self}")

    def signature_part(self) -> str:
        """e.g. `bootstrap:1000,seed:0` (the confidence level is added only when it is not 95%)."""
        level = "" if self.confidence == 0.95 else f",ci:{round(100 * self.confidence, 4):g}"
        return f"bootstrap:{self.resamples},seed:{self.seed}{level}"

    def to_json(self) -> dict:
        return {"resamples": self.resamples, "seed": self.seed, "confidence": self.confidence}


@dataclass(frozen=True)
class Interval:
    """A point value and its interval; all None when the metric was not computed."""

    value: float | None
    low: float | None = None
    high: float | None = None

    def to_json(self) -> dict:
        return {"value": self.value, "ci": None if self.low is None else [self.low, self.high]}


def describe_intervals(settings: Mapping | None) -> str:
    """How the intervals of a results file or board were made, from its `bootstrap` settings."""
    if not settings:
        return "no intervals"
    bootstrap = f"percentile bootstrap ({settings['resamples']} resamples, seed {settings['seed']})"
    if settings.get("pass_rates") == "wilson":
        bootstrap = f"Wilson for pass rates, {bootstrap} for the rest"
    return f"{round(100 * settings['confidence'])}% intervals: {bootstrap}"


def rng_for(settings: Bootstrap, stream: str) -> np.random.Generator:
    """An independent, reproducible random stream per group (so adding a group changes no other)."""
    return np.random.default_rng([settings.seed, zlib.crc32(stream.encode("utf-8"))])


def metric_values(rows: Sequence[Mapping]) -> dict[str, np.ndarray | None]:
    """Per-example values of each metric; None where Stage 1 (or Behaviour) was not computed for every row."""
    f1 = np.array([r["f1"] for r in rows], dtype=float)
    values: dict[str, np.ndarray | None] = {
        "facet_f1": f1,
        "precision": np.array([r["precision"] for r in rows], dtype=float),
        "recall": np.array([r["recall"] for r in rows], dtype=float),
    }
    audited = all(r.get("content") is not None for r in rows)
    for name in ("processability", "structure", "content"):
        values[name] = np.array([r[name] for r in rows], dtype=float) if audited else None
    values["ag_facet_f1"] = f1 * values["content"] if audited else None
    scored = all(r.get("behaviour") is not None for r in rows)  # beyond the paper, opt-in
    values["behaviour"] = np.array([r["behaviour"] for r in rows], dtype=float) if scored else None
    return {name: values[name] for name in METRICS}


def percentile_interval(means: np.ndarray, confidence: float) -> tuple[float, float]:
    alpha = (1 - confidence) / 2
    low, high = np.quantile(means, [alpha, 1 - alpha])
    return float(low), float(high)


def wilson_interval(passes: float, n: int, confidence: float) -> tuple[float, float]:
    """Wilson score interval of a pass rate of `passes` out of `n`."""
    if n < 1 or not 0 <= passes <= n:
        raise ValueError(f"need 0 <= passes <= n and n >= 1, got {passes} of {n}")
    z = NormalDist().inv_cdf(0.5 + confidence / 2)
    rate, shrink = passes / n, 1 + z * z / n
    centre = (rate + z * z / (2 * n)) / shrink
    half = z * sqrt(rate * (1 - rate) / n + z * z / (4 * n * n)) / shrink
    low = 0.0 if passes == 0 else max(0.0, centre - half)
    high = 1.0 if passes == n else min(1.0, centre + half)
    return low, high


def resample_indices(n: int, settings: Bootstrap, stream: str) -> np.ndarray:
    """(resamples, n) example indices drawn with replacement."""
    return rng_for(settings, stream).integers(0, n, size=(settings.resamples, n))


def bootstrap_mean(values: Sequence[float] | np.ndarray, settings: Bootstrap, stream: str = "") -> Interval:
    """Mean of per-example values with its percentile bootstrap interval."""
    array = np.asarray(values, dtype=float)
    if array.size == 0:
        raise ValueError("cannot bootstrap an empty group")
    means = array[resample_indices(array.size, settings, stream)].mean(axis=1)
    return Interval(float(array.mean()), *percentile_interval(means, settings.confidence))


def bootstrap_group(rows: Sequence[Mapping], settings: Bootstrap, stream: str = "all") -> dict[str, Interval]:
    """Every paper metric of a group: Wilson intervals for the pass rates, percentile bootstrap for
    the rest (one set of resampled examples shared by all of them)."""
    if not rows:
        raise ValueError(f"cannot bootstrap the empty group {stream!r}")
    indices = resample_indices(len(rows), settings, stream)
    intervals = {}
    for name, array in metric_values(rows).items():
        if array is None:
            intervals[name] = Interval(None)
            continue
        if name in PASS_RATES:
            low, high = wilson_interval(float(array.sum()), array.size, settings.confidence)
        else:
            low, high = percentile_interval(array[indices].mean(axis=1), settings.confidence)
        intervals[name] = Interval(float(array.mean()), low, high)
    return intervals


def groups_of(rows: Sequence[Mapping], keys: Sequence[str] = METADATA_KEYS) -> dict[str, dict[str, list[Mapping]]]:
    """{key: {value: rows}} with the scorer's own membership rule (an example in each of its IFC versions)."""
    table: dict[str, dict[str, list[Mapping]]] = {}
    for key in keys:
        groups: dict[str, list[Mapping]] = {}
        for row in rows:
            for value in group_values(SimpleNamespace(metadata=row), key):
                groups.setdefault(value, []).append(row)
        if groups:
            table[key] = {value: groups[value] for value in sorted(groups)}
    return table


# ------------------------------------------------------------------------------------------ paired comparison

@dataclass(frozen=True)
class PairedComparison:
    """A − B on the same examples: mean difference, paired-bootstrap interval, sign-flip p-value."""

    metric: str
    n: int
    mean_a: float
    mean_b: float
    difference: float
    low: float
    high: float
    p_value: float
    a_better: int
    b_better: int
    ties: int
    test: str

    def to_json(self) -> dict:
        return {"metric": self.metric, "n": self.n, "a": self.mean_a, "b": self.mean_b,
                "difference": self.difference, "ci": [self.low, self.high], "p_value": self.p_value,
                "a_better": self.a_better, "b_better": self.b_better, "ties": self.ties, "test": self.test}


def sign_flip_p_value(differences: np.ndarray, permutations: int, rng: np.random.Generator) -> tuple[float, str]:
    """Two-sided paired permutation test of mean difference 0: under H0 each difference's sign is a coin.

    Exact enumeration when few differences are non-zero (zeros do not move the statistic), else Monte
    Carlo with the (1 + hits) / (1 + permutations) estimate, which is never 0.
    """
    nonzero = differences[differences != 0]
    observed = abs(nonzero.sum())
    if nonzero.size == 0:
        return 1.0, "sign-flip (exact)"
    tolerance = 1e-12 * max(1.0, observed)
    if nonzero.size <= EXACT_SIGN_FLIP_LIMIT:
        signs = np.array(list(product((1.0, -1.0), repeat=nonzero.size)))
        stats = np.abs(signs @ nonzero)
        return float(np.mean(stats >= observed - tolerance)), "sign-flip (exact)"
    signs = rng.choice((-1.0, 1.0), size=(permutations, nonzero.size))
    hits = int(np.sum(np.abs(signs @ nonzero) >= observed - tolerance))
    return (1 + hits) / (1 + permutations), f"sign-flip ({permutations} permutations)"


def paired_compare(a: np.ndarray, b: np.ndarray, metric: str, settings: Bootstrap,
                   permutations: int = 10000) -> PairedComparison:
    """Compare aligned per-example values of two runs (same examples, same order)."""
    if a.shape != b.shape or a.size == 0:
        raise ValueError(f"{metric}: need two non-empty aligned value arrays, got {a.shape} and {b.shape}")
    differences = a - b
    bootstrap = bootstrap_mean(differences, settings, f"paired:{metric}")
    p_value, test = sign_flip_p_value(differences, permutations, rng_for(settings, f"flip:{metric}"))
    return PairedComparison(
        metric=metric, n=int(a.size), mean_a=float(a.mean()), mean_b=float(b.mean()),
        difference=float(differences.mean()), low=bootstrap.low, high=bootstrap.high, p_value=p_value,
        a_better=int(np.sum(differences > 0)), b_better=int(np.sum(differences < 0)),
        ties=int(np.sum(differences == 0)), test=test,
    )
