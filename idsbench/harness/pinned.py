"""A prompt that is not ours to ship: fetched at run time from where it is published, cached, verified.

The file is checked byte for byte (size and sha256) before use, whether it comes from the cache, the
network or a file the user passes with --prompt, then read as UTF-8 the way Python's `read_text` reads it
and sent unchanged. Nothing of it is stored in this repository.
"""
from __future__ import annotations

import hashlib
import io
import os
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from idsbench.records import InputError

from .prompt import Prompt, prompt_hash

MAX_BYTES = 1 << 20  # a prompt is a few kilobytes; never read an unbounded response
FETCH_TIMEOUT_S = 30.0


@dataclass(frozen=True)
class PromptSpec:
    source: str  # "pinned" (fetched and verified) or "packaged" (a file of this package)
    file_name: str
    sha256: str
    size: int | None = None  # bytes
    urls: tuple[str, ...] = ()
    where: str = ""  # repository@commit:path, for messages


def cache_dir() -> Path:
    """$IDS_BENCH_CACHE, else the user cache folder ($XDG_CACHE_HOME or ~/.cache)/ids-bench."""
    if os.environ.get("IDS_BENCH_CACHE"):
        return Path(os.environ["IDS_BENCH_CACHE"])
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "ids-bench"


def check(data: bytes, spec: PromptSpec, origin: str) -> str:
    """The text as `read_text` gives it, if `data` is the pinned file; else InputError naming both hashes."""
    digest = hashlib.sha256(data).hexdigest()
    if digest != spec.sha256 or (spec.size is not None and len(data) != spec.size):
        raise InputError(f"{origin}: not the pinned {spec.file_name}: sha256 {digest} ({len(data)} bytes), "
                         f"expected sha256 {spec.sha256}" + (f" ({spec.size} bytes)" if spec.size else ""))
    return io.TextIOWrapper(io.BytesIO(data), encoding="utf-8").read()


def fetch(url: str, timeout: float = FETCH_TIMEOUT_S) -> bytes:
    request = urllib.request.Request(url, headers={"User-Agent": "ishigaki-ids-bench"})
    with urllib.request.urlopen(request, timeout=timeout) as response:  # noqa: S310 (https URLs from protocol files)
        data = response.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        raise OSError(f"response larger than {MAX_BYTES} bytes")
    return data


def _as_prompt(spec: PromptSpec, text: str) -> Prompt:
    return Prompt(Path(spec.file_name).stem, text, prompt_hash(text))


def _store(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)  # atomic: parallel runs never see half a file


def _from_cache(path: Path, spec: PromptSpec) -> Prompt | None:
    try:
        return _as_prompt(spec, check(path.read_bytes(), spec, str(path)))
    except (OSError, InputError):
        return None  # absent or damaged: fetched again


def pinned_prompt(spec: PromptSpec, *, prompt_file: Path | None = None, cache: Path | None = None) -> Prompt:
    """The pinned prompt from `prompt_file`, else the cache, else its URLs (then cached)."""
    if prompt_file is not None:
        try:
            data = Path(prompt_file).read_bytes()
        except OSError as exc:
            raise InputError(f"{prompt_file}: cannot read the prompt: {exc}") from exc
        return _as_prompt(spec, check(data, spec, str(prompt_file)))
    cached = (cache or cache_dir()) / "prompts" / f"{spec.sha256[:16]}-{spec.file_name}"
    prompt = _from_cache(cached, spec)
    if prompt is not None:
        return prompt
    problems = []
    for url in spec.urls:
        try:
            data = fetch(url)
            prompt = _as_prompt(spec, check(data, spec, url))
        except (OSError, urllib.error.URLError, InputError) as exc:
            problems.append(f"{url}: {exc}")
            continue
        _store(cached, data)
        return prompt
    raise InputError(
        f"cannot get {spec.file_name} ({spec.where or 'no source'}):\n  " + "\n  ".join(problems or ["no URL"])
        + f"\nDownload that file where you have network access and pass it with --prompt FILE; it is checked "
          f"against sha256 {spec.sha256}.")
