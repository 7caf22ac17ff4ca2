"""Every performance figure, in one run (~20 minutes with the 100k run).

    python -m benchmarks.run_all            # speed, throughput, parallel speed-up, scaling 1k..100k
    python -m benchmarks.run_all --quick    # speed with a quarter of the corpus in "before", scaling to 10k only

The long fuzz run is separate: python -m benchmarks.fuzz --minutes 5
"""
from __future__ import annotations

import argparse
import time


from benchmarks import parallel, scaling, speed, throughput


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="scaling to 10k predictions only")
    args = parser.parse_args(argv)
    sizes = ["1000", "10000"] + ([] if args.quick else ["100000"])
    sections = [("speed (audit vs its floor, now vs before and vs the published Stage 2, large files, "
                 "specifications, start-up)", speed.main, ["--quick"] if args.quick else []),
                ("throughput (Stage 1, Stage 2, ratios)", throughput.main, []),
                ("parallel speed-up", parallel.main, []),
                ("scaling of the streaming CLI", scaling.main, ["--sizes", *sizes])]
    for title, run, section_args in sections:
        print(f"\n== {title} ==", flush=True)
        start = time.perf_counter()
        run(section_args)
        print(f"({time.perf_counter() - start:.0f} s)", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
