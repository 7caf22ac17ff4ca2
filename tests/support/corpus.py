"""A small corpus with every kind of output: golds, and every synthetic variant (valid, near miss, broken)
of a spread of them. The checks of fast paths against straightforward ones need every variant, not
every gold: the full 166 x 14 corpus is for benchmarks/."""
from idsbench.synthetic.corpus import synthetic_corpus


def small_corpus(golds: list[str], every: int, *, all_golds: bool = True) -> list[tuple[str, int]]:
    """(raw output, index of its gold) pairs: the golds (all, or golds[::every]), then every variant of
    golds[::every]."""
    picked = list(range(0, len(golds), every))
    plain = [(golds[i], i) for i in (range(len(golds)) if all_golds else picked)]
    return plain + [(o.text, picked[o.gold_index]) for o in synthetic_corpus([golds[i] for i in picked])]
