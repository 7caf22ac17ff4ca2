import os
import shutil
import tempfile

# The Hub is never reachable from tests, and nothing is cached outside temporary folders of this session
# (evaluate and datasets read these variables when they are first imported).
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("HF_EVALUATE_OFFLINE", "1")
os.environ.setdefault("HF_DATASETS_OFFLINE", "1")
os.environ.setdefault("IDS_BENCH_PYPI_URL", "http://127.0.0.1:9")  # `publish metric` never asks the real PyPI
CREATED: list[str] = []  # the folders made here, removed when the session ends


def _session_folder(variable: str, prefix: str) -> None:
    if variable not in os.environ:
        os.environ[variable] = tempfile.mkdtemp(prefix=prefix)
        CREATED.append(os.environ[variable])


_session_folder("HF_HOME", "ids-bench-hf-")
# The project's cache (the derived IFC vocabulary, the IDS schema the audit imports, witness models:
# idsbench/vocabulary/cache.py, idsbench/audit/xsd.py, idsbench/behaviour/cache.py) is a folder of this
# session, shared with the processes the tests start, never the user's.
_session_folder("IDS_BENCH_CACHE", "ids-bench-cache-")
_session_folder("GRADIO_TEMP_DIR", "ids-bench-gradio-")  # the Space app's test: gradio's files


def pytest_unconfigure(config):
    for folder in CREATED:
        shutil.rmtree(folder, ignore_errors=True)
