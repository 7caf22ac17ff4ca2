"""Command-line options shared by the subcommands: the audit profile, the data, workers and time limit.

Values are checked by argparse (choices, types), so a bad option stops a command before it writes
anything.
"""
from __future__ import annotations

import argparse
from pathlib import Path

from idsbench.audit.profiles import DEFAULT_PROFILE, NO_AUDIT, PROFILES
from idsbench.isolation import DEFAULT_TIME_LIMIT
from idsbench.locations import DATA_HELP


def add_audit_profile(parser: argparse.ArgumentParser, *, allow_none: bool = True) -> None:
    """--audit-profile NAME (the audit command also accepts --profile)."""
    names = ("--audit-profile", "--profile") if not allow_none else ("--audit-profile",)
    choices = (*PROFILES, NO_AUDIT) if allow_none else PROFILES
    skip = f"; {NO_AUDIT}: Stage 2 only" if allow_none else ""
    parser.add_argument(*names, dest="audit_profile", default=DEFAULT_PROFILE, choices=choices, metavar="PROFILE",
                        help=f"Stage 1 profile: {', '.join(PROFILES)} (default: {DEFAULT_PROFILE}, the paper's "
                             f"validator{skip})")


def audit_profile(args: argparse.Namespace) -> str | None:
    """The profile to score with; None skips Stage 1."""
    return None if args.audit_profile == NO_AUDIT else args.audit_profile


def add_data(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--data", type=Path, help=DATA_HELP)


def _positive_number(value: str) -> float:
    number = float(value)
    if not number > 0:
        raise argparse.ArgumentTypeError("must be a positive number of seconds")
    return number


def at_least(minimum: int):
    """An argparse type: an integer >= minimum."""
    def parse(value: str) -> int:
        number = int(value)
        if number < minimum:
            raise argparse.ArgumentTypeError(f"must be at least {minimum}")
        return number
    return parse


def add_isolation(parser: argparse.ArgumentParser) -> None:
    """--workers / --time-limit, shared by `score` and `run`."""
    parser.add_argument("--workers", type=at_least(1), default=1,
                        help="score in N worker processes (default: 1, in this process)")
    parser.add_argument("--time-limit", type=_positive_number, metavar="SECONDS",
                        help="per-example limit for audit + facet scoring; an example over it scores 0 with "
                             f"'timeout after Ns' (runs in worker processes; default: {DEFAULT_TIME_LIMIT:g} with "
                             "--workers > 1, none otherwise)")


def add_progress(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--no-progress", action="store_true", help="no progress bars")


def add_behaviour(parser: argparse.ArgumentParser) -> None:
    """--behaviour, shared by `score` and `run`."""
    parser.add_argument("--behaviour", action="store_true",
                        help="also score behavioural agreement on the gold's witness IFC models (beyond the paper; "
                             "witnesses are built once per gold and cached, IDS_BENCH_CACHE)")
