import os
import tempfile

# Witness sets of the tests are built in a throw-away cache folder, never in the user's.
os.environ.setdefault("IDS_BENCH_CACHE", tempfile.mkdtemp(prefix="ids-bench-witnesses-"))
