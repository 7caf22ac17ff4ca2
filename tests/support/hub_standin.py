"""A local stand-in for the few Hub API routes publishing uses, on a loopback port (no network).

Routes (as huggingface_hub 2.4 calls them): POST /api/repos/create, POST /api/validate-yaml,
POST /api/{type}s/{org}/{name}/preupload/{rev} (every file "regular", so no LFS/xet upload),
POST /api/{type}s/{org}/{name}/commit/{rev} (NDJSON; files stored decoded). Anything else is a 404 and is
recorded, so a test can assert that publishing used nothing it did not expect.
"""
from __future__ import annotations

import base64
import hashlib
import json
import re
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import yaml

REPO_ROUTE = re.compile(r"^/api/(models|datasets|spaces)/([^/]+)/([^/]+)/(preupload|commit)/([^/?]+)")


@dataclass
class Repo:
    repo_type: str
    sdk: str | None = None
    files: dict[str, bytes] = field(default_factory=dict)
    commits: list[list[str]] = field(default_factory=list)


class HubStandIn:
    """`with HubStandIn() as hub:` -> hub.endpoint, hub.repos[(type, "org/name")], hub.requests."""

    def __init__(self) -> None:
        self.repos: dict[tuple[str, str], Repo] = {}
        self.requests: list[tuple[str, str]] = []
        self.unexpected: list[tuple[str, str]] = []
        self.authorized: list[bool] = []

    def __enter__(self) -> HubStandIn:
        hub = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args) -> None:  # keep test output clean
                pass

            def do_GET(self) -> None:
                hub._record(self)
                self._reply(404, {"error": "not in the stand-in"})
                hub.unexpected.append(("GET", self.path))

            def do_POST(self) -> None:
                hub._record(self)
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                status, payload = hub.handle_post(self.path, body)
                if status == 404:
                    hub.unexpected.append(("POST", self.path))
                self._reply(status, payload)

            def _reply(self, status: int, payload: dict) -> None:
                data = json.dumps(payload).encode("utf-8")
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.endpoint = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()
        return self

    def __exit__(self, *exc_info) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=5)

    def _record(self, handler: BaseHTTPRequestHandler) -> None:
        self.requests.append((handler.command, handler.path.split("?")[0]))
        self.authorized.append(handler.headers.get("Authorization", "").startswith("Bearer "))

    # ------------------------------------------------------------------ routes
    def handle_post(self, path: str, body: bytes) -> tuple[int, dict]:
        route = path.split("?")[0]
        if route == "/api/repos/create":
            return self._create(json.loads(body))
        if route == "/api/validate-yaml":
            return self._validate_yaml(json.loads(body))
        match = REPO_ROUTE.match(route)
        if not match:
            return 404, {"error": f"unknown route {route}"}
        kind, org, name, action, _revision = match.groups()
        repo = self.repos.get((kind[:-1], f"{org}/{name}"))
        if repo is None:
            return 404, {"error": f"repository {org}/{name} not found"}
        return self._preupload(json.loads(body)) if action == "preupload" else self._commit(repo, org, name, body)

    def _create(self, payload: dict) -> tuple[int, dict]:
        repo_type = payload.get("type") or "model"
        repo_id = f"{payload['organization']}/{payload['name']}"
        if repo_type == "space" and payload.get("sdk") not in ("gradio", "streamlit", "docker", "static"):
            return 400, {"error": "a Space needs a valid sdk"}
        self.repos.setdefault((repo_type, repo_id), Repo(repo_type, payload.get("sdk")))
        prefix = "" if repo_type == "model" else f"{repo_type}s/"
        return 200, {"url": f"{self.endpoint}/{prefix}{repo_id}", "name": repo_id}

    @staticmethod
    def _validate_yaml(payload: dict) -> tuple[int, dict]:
        text = payload.get("content", "")
        if text.startswith("---\n"):
            end = text.find("\n---", 4)
            try:
                meta = yaml.safe_load(text[4:end]) if end > 0 else None
            except yaml.YAMLError as exc:
                return 400, {"errors": [{"message": f"invalid YAML: {exc}"}]}
            if end < 0 or not isinstance(meta, dict):
                return 400, {"errors": [{"message": "front matter is not a mapping"}]}
        return 200, {"errors": [], "warnings": []}

    @staticmethod
    def _preupload(payload: dict) -> tuple[int, dict]:
        files = [{"path": f["path"], "uploadMode": "regular", "shouldIgnore": False, "oid": None}
                 for f in payload["files"]]
        return 200, {"files": files, "commitOid": "0" * 40}

    def _commit(self, repo: Repo, org: str, name: str, body: bytes) -> tuple[int, dict]:
        paths = []
        for line in body.decode("utf-8").splitlines():
            item = json.loads(line)
            if item["key"] == "file":
                value = item["value"]
                repo.files[value["path"]] = base64.b64decode(value["content"])
                paths.append(value["path"])
            elif item["key"] != "header":
                return 400, {"error": f"the stand-in only takes regular files, got {item['key']}"}
        repo.commits.append(paths)
        oid = hashlib.sha1(repr(sorted(paths)).encode()).hexdigest()
        return 200, {"commitUrl": f"{self.endpoint}/{org}/{name}/commit/{oid}", "commitOid": oid,
                     "pullRequestUrl": None}

    # ------------------------------------------------------------------ helpers for tests
    def write_repo(self, repo_type: str, repo_id: str, folder: Path) -> Path:
        """Write what the stand-in stored for a repo into a folder, as a clone would have it."""
        for path, data in self.repos[(repo_type, repo_id)].files.items():
            target = folder / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        return folder
