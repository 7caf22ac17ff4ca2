"""Work, counted instead of timed: the number of Python function calls a call makes (cProfile's count,
the same on a loaded machine as on an idle one). Tests bound it; benchmarks/ measure time."""
import cProfile


def calls(function, *args, **kwargs):
    """(result, number of Python function calls made while computing it)."""
    profile = cProfile.Profile()
    result = profile.runcall(function, *args, **kwargs)
    return result, sum(entry.callcount for entry in profile.getstats())
