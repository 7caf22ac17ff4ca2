import os
import tempfile

# The Hub is never reachable from tests, and nothing is cached outside a temporary folder
# (evaluate and datasets read these variables when they are first imported).
os.environ.setdefault("HF_HOME", tempfile.mkdtemp(prefix="ids-bench-hf-"))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("HF_EVALUATE_OFFLINE", "1")
os.environ.setdefault("HF_DATASETS_OFFLINE", "1")
# The project's cache (the derived IFC vocabulary, witness models: idsbench/vocabulary/cache.py,
# idsbench/behaviour/cache.py) is a folder of this session, shared with the processes the tests start.
os.environ.setdefault("IDS_BENCH_CACHE", tempfile.mkdtemp(prefix="ids-bench-cache-"))
