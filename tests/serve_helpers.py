"""A `cardz serve` server on a free port in a thread, and a small JSON client for it (the API
tests and the browser tests share them)."""

from __future__ import annotations

import http.client
import json
import socket
import threading
from contextlib import contextmanager
from typing import Any, Iterator

from cardz_core.serve.server import CardzServer, make_server


class Client:
    """Requests to one server; ``call`` returns (HTTP status, decoded JSON body)."""

    def __init__(self, server: CardzServer) -> None:
        self.host = "::1" if server.address_family == socket.AF_INET6 else "127.0.0.1"
        self.port = server.server_address[1]

    def raw(self, method: str, path: str, body: bytes | None = None,
            headers: dict[str, str] | None = None) -> tuple[int, bytes, dict[str, str]]:
        conn = http.client.HTTPConnection(self.host, self.port, timeout=60)
        try:
            conn.request(method, path, body=body, headers=headers or {})
            response = conn.getresponse()
            return response.status, response.read(), dict(response.getheaders())
        finally:
            conn.close()

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        data = None if body is None else json.dumps(body).encode("utf-8")
        headers = {"Content-Type": "application/json"} if data is not None else {}
        status, raw, _ = self.raw(method, path, data, headers)
        return status, json.loads(raw)

    def ok(self, method: str, path: str, body: Any = None) -> Any:
        status, value = self.call(method, path, body)
        assert status in (200, 201), value
        return value

    def start(self, game: str, **opening: Any) -> Any:
        return self.ok("POST", "/api/sessions", {"game": game, **opening})

    def act(self, session: Any, action: str, body: Any = None) -> Any:
        return self.ok("POST", f"/api/sessions/{session['session']}/{action}", body or {})


@contextmanager
def serving(given: list[str] | None = None, host: str = "127.0.0.1"
            ) -> Iterator[tuple[CardzServer, Client]]:
    server = make_server(given or [], host, port=0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server, Client(server)
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
