"""How often do the leaderboard's 95% intervals cover the truth? (synthetic data, known mean)

    python -m benchmarks.bootstrap_coverage                  # default grid, 1000 datasets per cell (~1 min)
    python -m benchmarks.bootstrap_coverage --datasets 200   # quick look

Cells: Bernoulli pass rates (Processability/Content-like) and a FacetF1-like mixture (zeros, ones, Beta(3,2)
between), at group sizes from a small metadata breakdown (30) to the whole benchmark (166). The percentile
bootstrap under-covers for small n and extreme p; this prints by how much, and the exact coverage of the
Wilson score interval that the leaderboard uses for pass rates instead.
"""
from __future__ import annotations

import argparse
import time
from math import comb

import numpy as np


from idsbench.leaderboard.stats import Bootstrap, bootstrap_mean, wilson_interval


def wilson_coverage(p: float, n: int, confidence: float = 0.95) -> float:
    """Exact: the probability, over Binomial(n, p) outcomes, that the interval contains p."""
    return sum(comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1)
               if wilson_interval(k, n, confidence)[0] <= p <= wilson_interval(k, n, confidence)[1])


def bernoulli(p: float):
    return (lambda rng, n: (rng.random(n) < p).astype(float)), p


def f1_like(rng: np.random.Generator, n: int) -> np.ndarray:
    kind = rng.random(n)
    return np.where(kind < 0.25, 0.0, np.where(kind < 0.6, 1.0, rng.beta(3, 2, n)))


F1_TRUTH = 0.35 + 0.4 * 0.6


def coverage(draw, truth: float, n: int, datasets: int, resamples: int) -> float:
    rng = np.random.default_rng(12345 + n)
    hits = 0
    for k in range(datasets):
        interval = bootstrap_mean(draw(rng, n), Bootstrap(resamples, k))
        hits += interval.low <= truth <= interval.high
    return hits / datasets


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--datasets", type=int, default=1000)
    parser.add_argument("--resamples", type=int, default=1000)
    args = parser.parse_args(argv)
    rates = (0.05, 0.3, 0.65, 0.95)
    cells = [(f"Bernoulli p={p}", *bernoulli(p)) for p in rates]
    cells.append(("FacetF1-like mixture", f1_like, F1_TRUTH))
    sizes = (30, 71, 166)
    start = time.perf_counter()
    print(f"coverage of nominal 95% percentile-bootstrap intervals ({args.datasets} datasets, "
          f"{args.resamples} resamples each)")
    print(f"{'distribution':<24}" + "".join(f"{'n=' + str(n):>9}" for n in sizes))
    for name, draw, truth in cells:
        row = [coverage(draw, truth, n, args.datasets, args.resamples) for n in sizes]
        print(f"{name:<24}" + "".join(f"{100 * c:8.1f}%" for c in row))
    print("Wilson score interval (pass rates on the leaderboard), exact coverage")
    for p in rates:
        print(f"{'Bernoulli p=' + str(p):<24}" + "".join(f"{100 * wilson_coverage(p, n):8.1f}%" for n in sizes))
    print(f"({time.perf_counter() - start:.1f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
