"""Stage 2, part 2: pairing gold and predicted specifications (docs/facet-scorer.md §3).

Weights are sparse: `Rows` holds, per gold specification, only the predicted specifications it shares
a block with (weight > 0); a pair of weight 0 is never taken, so the others need not exist (counts.py
builds the rows from an index block -> specifications, near linear in the number of specifications).

With at most 18 predicted specifications the pairing is the maximum-weight assignment, ties broken
lexicographically (gold specs in order; for each, "unpaired" before predicted specs in document
order). The published scorer finds it by exhaustive search. We find the same assignment with a
single polynomial assignment solve: every choice carries a tie-break bonus, a digit in base
B = n_pred + 2 at the gold spec's position, scaled below one unit of overlap. Maximising total
weight * B**k + bonus therefore maximises the overlap first and then picks the lexicographically
smallest choice sequence (Python integers keep this exact). Gold specs that share no block with any
prediction are unpaired in every assignment and take no digit (k counts the others), and the solve
runs with the predicted specs as rows (at most 18) against the candidate gold specs as columns.
"""
from __future__ import annotations

from collections.abc import Sequence
from itertools import repeat
from operator import add, mul

EXACT_LIMIT = 18
Pairs = dict[int, int]
"""gold index -> predicted index."""
Rows = list[dict[int, int]]
"""per gold index: {predicted index: weight > 0}."""


def hungarian(cost: list[list[int]]) -> list[int]:
    """Minimum-cost assignment of every row of an n x m integer matrix (n <= m): the column of each row.

    Jonker–Volgenant potentials, O(n^2 m). Written here because the matrices are small and exact
    integers matter; scipy would be a large dependency (and floats) for one routine.
    """
    n, m = len(cost), len(cost[0]) if cost else 0
    u, v = [0] * (n + 1), [0] * (m + 1)
    owner = [0] * (m + 1)  # owner[col] = row (1-based), 0 = free
    way = [0] * (m + 1)
    for row in range(1, n + 1):
        owner[0], col0 = row, 0
        minv, used = [None] * (m + 1), [False] * (m + 1)
        while owner[col0]:
            used[col0] = True
            r, delta, col1 = owner[col0], None, 0
            costs, ur = cost[r - 1], u[r]
            for col in range(1, m + 1):
                if used[col]:
                    continue
                reduced = costs[col - 1] - ur - v[col]
                if minv[col] is None or reduced < minv[col]:
                    minv[col], way[col] = reduced, col0
                if delta is None or minv[col] < delta:
                    delta, col1 = minv[col], col
            for col in range(m + 1):
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
    for col in range(1, m + 1):
        if owner[col]:
            assignment[owner[col] - 1] = col - 1
    return assignment


def rows_of(weights: Sequence[Sequence[int]]) -> Rows:
    """Sparse rows of a dense weight matrix."""
    return [{j: w for j, w in enumerate(row) if w > 0} for row in weights]


def exact_rows(rows: Rows, n_pred: int) -> Pairs:
    """Maximum-weight assignment with the lexicographic tie-break of the published scorer."""
    candidates = [i for i, row in enumerate(rows) if row]
    if not candidates or n_pred == 0:
        return {}
    k, base = len(candidates), n_pred + 2
    scale = base**k
    forbidden = scale * (2 + n_pred + sum(sum(rows[i].values()) for i in candidates)) * 2
    cost = []
    for j in range(n_pred):  # cost = -(weight * scale - (j + 1) * place): minimised
        line = []
        for c, i in enumerate(candidates):
            w = rows[i].get(j, 0)
            line.append((j + 1) * base ** (k - 1 - c) - w * scale if w > 0 else forbidden)
        cost.append(line + [0] * n_pred)  # "not used": any of n_pred free columns
    columns = hungarian(cost)
    return {candidates[col]: j for j, col in enumerate(columns) if col < k}


def greedy_rows(rows: Rows, n_pred: int) -> Pairs:
    """Pairs by descending (w, i, j), skipping taken sides (every weight in `rows` is positive).

    Each pair is one integer, (w * n_gold + i) * n_pred + j, built and sorted in C; the walk stops once
    one side is all taken."""
    n_gold = len(rows)
    scale = n_gold * n_pred
    keys: list[int] = []
    for i, row in enumerate(rows):
        if row:
            keys.extend(map(add, map(mul, row.values(), repeat(scale)), map(add, row.keys(), repeat(i * n_pred))))
    keys.sort(reverse=True)
    pairs: Pairs = {}
    taken: set[int] = set()
    most = min(n_gold, n_pred)
    for key in keys:
        rest, j = divmod(key, n_pred)
        i = rest % n_gold
        if i not in pairs and j not in taken:
            pairs[i] = j
            taken.add(j)
            if len(pairs) == most:
                break  # one side is all taken: no later pair can be
    return pairs


def pair_rows(rows: Rows, n_pred: int) -> Pairs:
    """Pair gold specs (one sparse row each) with predicted specs."""
    if not rows or n_pred == 0:
        return {}
    if n_pred <= EXACT_LIMIT:
        return exact_rows(rows, n_pred)
    return greedy_rows(rows, n_pred)


def exact_pairs(weights: Sequence[Sequence[int]], n_pred: int) -> Pairs:
    return exact_rows(rows_of(weights), n_pred)


def greedy_pairs(weights: Sequence[Sequence[int]], n_pred: int) -> Pairs:
    return greedy_rows(rows_of(weights), n_pred)


def pair_specifications(weights: Sequence[Sequence[int]], n_pred: int) -> Pairs:
    """Pair gold specs (rows of a dense `weights` matrix) with predicted specs (columns)."""
    return pair_rows(rows_of(weights), n_pred)
