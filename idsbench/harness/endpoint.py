"""Any OpenAI-compatible chat endpoint as a System, with timeouts and exponential back-off.

Retried: HTTP 408/409/429 and 5xx, timeouts, and connections dropped after they were made. Never
retried: other 4xx (the request's fault) and a connection that cannot be made at all (refused, DNS,
TLS, connect timeout). Until the endpoint has answered once, such a connection error stops the run
(SystemUnreachable): a wrong --base-url or a server not yet up fails in seconds, not one example at a time.
"""
from __future__ import annotations

import os
import random
import ssl
import sys
import threading
import time
from dataclasses import asdict, dataclass, field
from typing import Any

from idsbench.records import InputError

from .examples import Example
from .predictions import Generation
from .prompt import Prompt, chat_messages
from .systems import System, SystemUnreachable

RETRY_STATUS = frozenset({408, 409, 429})  # plus every 5xx; other 4xx are the request's fault: no retry
CONNECT_TIMEOUT_S = 10.0  # a server that exists accepts a connection long before this
UNREACHABLE = ("ConnectError", "ConnectTimeout")  # httpx and httpx2 (the client uses either) name them alike


@dataclass(frozen=True)
class EndpointConfig:
    model: str
    base_url: str | None = None
    api_key_env: str | None = "OPENAI_API_KEY"  # None: no key (local servers)
    temperature: float | None = 0.0
    top_p: float | None = None
    max_tokens: int | None = None
    seed: int | None = None
    extra_body: dict[str, Any] = field(default_factory=dict)
    timeout: float = 600.0
    retries: int = 4
    backoff_s: float = 2.0  # first wait; doubles each attempt
    backoff_max_s: float = 60.0
    top_k: int | None = None
    min_p: float | None = None
    thinking: bool | None = None  # None: not requested, the server's default
    reasoning_effort: str | None = None  # OpenAI-style; when set, it is how thinking is requested

    def request_body(self) -> dict[str, Any]:
        """Fields outside the OpenAI client's own parameters, in the forms common servers take: vLLM and
        SGLang read top_k, min_p and chat_template_kwargs.enable_thinking; OpenAI-style APIs read
        reasoning_effort. --extra-body is merged last, so it can replace any of them."""
        body: dict[str, Any] = {k: v for k, v in (("top_k", self.top_k), ("min_p", self.min_p)) if v is not None}
        if self.reasoning_effort is not None:
            body["reasoning_effort"] = self.reasoning_effort
        elif self.thinking is not None:
            body["chat_template_kwargs"] = {"enable_thinking": self.thinking}
        return body | self.extra_body

    def sampling(self) -> dict[str, Any]:
        """The request parameters that change the output (recorded in provenance and the run hash)."""
        params = {"temperature": self.temperature, "top_p": self.top_p, "max_tokens": self.max_tokens,
                  "seed": self.seed}
        body = self.request_body()
        return {k: v for k, v in params.items() if v is not None} | ({"extra_body": body} if body else {})


def api_key(config: EndpointConfig) -> str:
    """The key from the environment; local servers accept a placeholder."""
    if not config.api_key_env:
        return "none"
    key = os.environ.get(config.api_key_env)
    if key:
        return key
    if config.base_url is None:
        raise InputError(f"environment variable {config.api_key_env} is not set (for a local server without "
                         "keys pass --base-url and --api-key-env none)")
    print(f"warning: {config.api_key_env} is not set; sending no API key to {config.base_url}", file=sys.stderr)
    return "none"


def make_client(config: EndpointConfig):
    from openai import OpenAI, Timeout  # noqa: PLC0415  (baselines run without the client)

    # max_retries=0: the retry policy below is ours, so that attempts are counted and recorded.
    timeout = Timeout(config.timeout, connect=min(config.timeout, CONNECT_TIMEOUT_S))
    return OpenAI(base_url=config.base_url, api_key=api_key(config), timeout=timeout, max_retries=0)


def _root_cause(exc: BaseException) -> str:
    while exc.__cause__ is not None:
        exc = exc.__cause__
    return str(exc) or type(exc).__name__


def _cannot_connect(exc: BaseException) -> bool:
    """The connection was never made: refused, unknown host, TLS handshake, connect timeout."""
    cause = exc.__cause__
    return cause is not None and (isinstance(cause, ssl.SSLError)
                                  or any(k.__name__ in UNREACHABLE for k in type(cause).__mro__))


@dataclass(frozen=True)
class Failure:
    """A client exception, classified."""

    message: str
    retryable: bool = False
    unreachable: bool = False  # the connection could not be made


def classify(exc: Exception) -> Failure:
    import openai  # noqa: PLC0415

    url = getattr(getattr(exc, "request", None), "url", None)
    if isinstance(exc, (openai.APITimeoutError, openai.APIConnectionError)) and _cannot_connect(exc):
        # "Connection error." alone does not say which, or why
        return Failure(f"connection error{f' to {url}' if url else ''}: {_root_cause(exc)}", unreachable=True)
    if isinstance(exc, openai.APITimeoutError):
        return Failure("timeout", retryable=True)
    if isinstance(exc, openai.APIConnectionError):
        return Failure(f"connection dropped{f' by {url}' if url else ''}: {_root_cause(exc)}", retryable=True)
    if isinstance(exc, openai.APIStatusError):
        status = exc.status_code
        return Failure(f"HTTP {status}: {str(exc)[:300]}", retryable=status in RETRY_STATUS or status >= 500)
    return Failure(f"{type(exc).__name__}: {str(exc)[:300]}")


def backoff(config: EndpointConfig, attempt: int, exc: Exception) -> float:
    """Seconds to wait before attempt `attempt + 1`: Retry-After when the server sends one, else 2^n with jitter."""
    response = getattr(exc, "response", None)
    retry_after = response.headers.get("retry-after") if response is not None else None
    if retry_after and retry_after.replace(".", "", 1).isdigit():
        return min(float(retry_after), config.backoff_max_s)
    base = min(config.backoff_s * 2 ** attempt, config.backoff_max_s)
    return base * (0.5 + random.random() / 2)  # jitter keeps parallel workers from retrying in lockstep


def _usage(response: Any) -> dict | None:
    usage = getattr(response, "usage", None)
    return usage.model_dump(exclude_none=True) if usage is not None else None


def to_generation(response: Any, attempts: int) -> Generation:
    choice = response.choices[0] if getattr(response, "choices", None) else None
    if choice is None:
        return Generation(None, None, _usage(response), "the response has no choices", attempts=attempts)
    content = choice.message.content if choice.message is not None else None
    error = None if content is not None else f"no message content (finish_reason {choice.finish_reason})"
    return Generation(content, choice.finish_reason, _usage(response), error, attempts=attempts)


class Unreachable(Exception):
    """No connection could be made (see classify); `attempts` were made."""

    def __init__(self, message: str, attempts: int) -> None:
        super().__init__(message)
        self.attempts = attempts


def complete(client: Any, config: EndpointConfig, messages: list[dict]) -> Generation:
    """One example, retried as the module says; a final failure is returned, not raised, except a
    connection that cannot be made (Unreachable)."""
    params = config.sampling()
    extra_body = params.pop("extra_body", None)
    for attempt in range(config.retries + 1):
        try:
            response = client.chat.completions.create(model=config.model, messages=messages,
                                                      extra_body=extra_body, **params)
            return to_generation(response, attempt + 1)
        except Exception as exc:  # noqa: BLE001  (a failed example is data, never an abort)
            failure = classify(exc)
            if failure.unreachable:
                raise Unreachable(failure.message, attempt + 1) from exc
            if not failure.retryable or attempt == config.retries:
                return Generation(None, None, None, failure.message, attempts=attempt + 1)
            time.sleep(backoff(config, attempt, exc))
    raise AssertionError("unreachable")


def endpoint_system(config: EndpointConfig, prompt: Prompt, protocol: str | None = None) -> System:
    """`protocol`: the run's protocol signature part (e.g. paper-0shot), recorded on every prediction row."""
    client = make_client(config)
    reached = threading.Event()  # set once the endpoint has answered a request of this run

    def call(example: Example) -> Generation:
        try:
            generation = complete(client, config, chat_messages(prompt, list(example.messages)))
        except Unreachable as exc:
            if not reached.is_set():
                raise SystemUnreachable(str(exc)) from None
            return Generation(None, None, None, str(exc), attempts=exc.attempts)  # it answered before: one failure
        reached.set()
        return generation

    settings = {"model": config.model, "endpoint": config.base_url or "https://api.openai.com/v1",
                "sampling": config.sampling(), "prompt": prompt.to_json()}
    return System("endpoint", call, settings | ({"protocol": protocol} if protocol else {}))


def describe(config: EndpointConfig) -> dict[str, Any]:
    """Provenance without secrets: the key's variable name, never its value."""
    row = asdict(config)
    row["api_key_env"] = config.api_key_env or "none"
    return row
