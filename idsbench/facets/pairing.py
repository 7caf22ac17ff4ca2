"""Stage 2, part 2: pairing gold and predicted specifications (docs/facet-scorer.md §3).

With at most 18 predicted specifications the pairing is the maximum-weight assignment, ties broken
lexicographically (gold specs in order; for each, "unpaired" before predicted specs in document
order). The published scorer finds it by exhaustive search. We find the same assignment with a
single polynomial assignment solve: each gold spec gets a private "unpaired" column, and every
choice carries a tie-break bonus, a digit in base B = n_pred + 2 at the gold spec's position, scaled
below one unit of overlap. Maximising total weight * B**n_gold + bonus therefore maximises the
overlap first and then picks the lexicographically smallest choice sequence (Python integers keep
this exact).
"""
from __future__ import annotations

from collections.abc import Sequence

EXACT_LIMIT = 18
Pairs = dict[int, int]
"""gold index -> predicted index."""


def hungarian(cost: list[list[int]]) -> list[int]:
    """Minimum-cost perfect assignment of a square integer matrix: the column of each row.

    Jonker–Volgenant potentials, O(n^3). Written here because the matrices are tiny and exact
    integers matter; scipy would be a large dependency (and floats) for one routine.
    """
    n = len(cost)
    u, v = [0] * (n + 1), [0] * (n + 1)
    owner = [0] * (n + 1)  # owner[col] = row (1-based), 0 = free
    way = [0] * (n + 1)
    for row in range(1, n + 1):
        owner[0], col0 = row, 0
        minv, used = [None] * (n + 1), [False] * (n + 1)
        while owner[col0]:
            used[col0] = True
            r, delta, col1 = owner[col0], None, 0
            for col in range(1, n + 1):
                if used[col]:
                    continue
                reduced = cost[r - 1][col - 1] - u[r] - v[col]
                if minv[col] is None or reduced < minv[col]:
                    minv[col], way[col] = reduced, col0
                if delta is None or minv[col] < delta:
                    delta, col1 = minv[col], col
            for col in range(n + 1):
                if used[col]:
                    u[owner[col]] += delta
                    v[col] -= delta
                else:
                    minv[col] -= delta
            col0 = col1
        while col0:
            col1 = way[col0]
            owner[col0] = owner[col1]
            col0 = col1
    assignment = [0] * n
    for col in range(1, n + 1):
        assignment[owner[col] - 1] = col - 1
    return assignment


def _exact_matrix(weights: Sequence[Sequence[int]], n_pred: int) -> list[list[int]]:
    """Gain matrix: rows = gold specs (+ padding), columns = predicted specs + one "unpaired" per gold."""
    n_gold = len(weights)
    base = n_pred + 2
    scale = base**n_gold
    forbidden = -(scale * (1 + sum(max(row, default=0) for row in weights)) * 2)
    size = n_gold + n_pred
    gain = [[0] * size for _ in range(size)]
    for i in range(n_gold):
        place = base ** (n_gold - 1 - i)
        for j in range(n_pred):
            w = weights[i][j]
            gain[i][j] = w * scale + (n_pred - j) * place if w > 0 else forbidden
        for k in range(n_gold):
            gain[i][n_pred + k] = (n_pred + 1) * place if k == i else forbidden
    return gain


def exact_pairs(weights: Sequence[Sequence[int]], n_pred: int) -> Pairs:
    """Maximum-weight assignment with the lexicographic tie-break of the published scorer."""
    gain = _exact_matrix(weights, n_pred)
    columns = hungarian([[-g for g in row] for row in gain])
    return {i: columns[i] for i in range(len(weights)) if columns[i] < n_pred}


def greedy_pairs(weights: Sequence[Sequence[int]], n_pred: int) -> Pairs:
    """Pairs by descending (w, i, j), skipping w = 0 and taken sides."""
    candidates = sorted(
        ((weights[i][j], i, j) for i in range(len(weights)) for j in range(n_pred)), reverse=True
    )
    pairs: Pairs = {}
    taken: set[int] = set()
    for w, i, j in candidates:
        if w > 0 and i not in pairs and j not in taken:
            pairs[i] = j
            taken.add(j)
    return pairs


def pair_specifications(weights: Sequence[Sequence[int]], n_pred: int) -> Pairs:
    """Pair gold specs (rows of `weights`) with predicted specs (columns)."""
    if not weights or n_pred == 0:
        return {}
    if n_pred <= EXACT_LIMIT:
        return exact_pairs(weights, n_pred)
    return greedy_pairs(weights, n_pred)
