"""Maintainer tooling behind ishigaki_ids_bench.py (build/check/report); loaded by path, not installed."""
