"""The HTTP server: the JSON API of docs/serve.md and the static front end.

The standard library's ``ThreadingHTTPServer`` is enough: a handful of routes, JSON in and
out, one thread per request (a planner thinking for one tab does not hold up another). Every
answer to a request the server cannot meet is a 4xx with ``{"error", "problems"}``, the message
the CLI would print; an unexpected failure is a 500 with one line, and its traceback goes to
the server's standard error, never to the page.

Requests are taken only with a ``Host`` naming the address served (a page elsewhere cannot
reach the server through a name of its own pointing at 127.0.0.1) and, for a POST, a JSON
body sent as ``application/json`` (which a page elsewhere cannot send without asking first,
and the server never answers such a question).
"""

from __future__ import annotations

import ipaddress
import secrets
import socket
import sys
import threading
import time
import traceback
from contextlib import nullcontext
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from typing import Any
from urllib.parse import urlsplit

from cardz_core.engine.movetext import move_document
from cardz_core.engine.state import STATUS_NAMES
from cardz_core.limits import (MAX_DOCUMENT_BYTES, SERVE_MAX_MESSAGE, SERVE_MAX_PROBLEMS,
                               SERVE_MAX_SESSIONS, SERVE_READ_SECONDS)
from cardz_core.problems import CardzError
from cardz_core.safe_text import json_text
from cardz_core.serve.board import board_layout
from cardz_core.serve.catalogue import Catalogue
from cardz_core.serve.markdown import to_html
from cardz_core.serve.session import Refused, Session

STATIC = {"": ("index.html", "text/html; charset=utf-8"),
          "app.js": ("app.js", "text/javascript; charset=utf-8"),
          "app.css": ("app.css", "text/css; charset=utf-8")}
PAGE_POLICY = ("default-src 'self'; img-src 'self' data: blob:; style-src 'self'; "
               "script-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; "
               "frame-ancestors 'none'")
# a simulation report is self-contained HTML with inline CSS and SVG and no scripts
REPORT_POLICY = "sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src data:"


class Sessions:
    """The open sessions by id; past ``SERVE_MAX_SESSIONS`` the one used longest ago closes."""

    def __init__(self) -> None:
        self._open: dict[str, Session] = {}
        self._lock = threading.Lock()

    def add(self, session: Session) -> None:
        """Open ``session`` under a new id."""
        session.id = secrets.token_urlsafe(12)
        with self._lock:
            while len(self._open) >= SERVE_MAX_SESSIONS:
                oldest = min(self._open.values(), key=lambda s: s.used)
                del self._open[oldest.id]
            self._open[session.id] = session

    def get(self, ident: str) -> Session:
        with self._lock:
            session = self._open.get(ident)
        if session is None:
            raise NotFound(f"no session {ident!r} (it was closed, or the server restarted): "
                           "start a new game")
        session.used = time.monotonic()
        return session

    def close(self, ident: str) -> None:
        """Close an open session; one not open is a NotFound, as for any other request."""
        with self._lock:
            closed = self._open.pop(ident, None)
        if closed is None:
            raise NotFound(f"no session {ident!r} (it was closed, or the server restarted)")

    def __len__(self) -> int:
        return len(self._open)


class NotFound(CardzError):
    """No such route, session, game or report."""


def session_payload(session: Session) -> dict[str, Any]:
    """What the front end shows of a session (docs/serve.md, "The session document")."""
    game = session.game
    shown = session.shown()
    playing = session.playing
    legal = [] if session.replaying is not None else session.legal()
    board = game.board_document(shown)
    out: dict[str, Any] = {
        "session": session.id, "game": session.entry.as_dict(), "name": game.spec.name,
        "description": to_html(game.spec.description or ""),
        "status": STATUS_NAMES[shown.status], "moves": shown.moves,
        "counters": {**dict.fromkeys(COUNTERS, 0), **board.get("counters", {})},
        "scoring": game.spec.scoring is not None,
        "score": game.score(shown) if game.spec.scoring is not None else None,
        "board": board,
        "layout": board_layout(game, shown, {m.src for m in legal if m.dst < 0}),
        "legal": [{**move_document(game, m), "text": game.move_text(m)} for m in legal],
        "planners": session.planners(),
        "opening": playing.opening.describe(),
        "canUndo": bool(playing.played) and session.replaying is None,
        "canRedo": bool(playing.redo) and session.replaying is None,
        "last": game.move_text(playing.played[-1]) if playing.played else None,
        "replay": None,
    }
    if session.replaying is not None:  # the board shown is the replay's: so is its last step
        r = session.replaying
        out["replay"] = {"at": r.at, "total": len(r.steps), "steps": r.steps}
        out["last"] = r.steps[r.at - 1] if r.at else None
    return out


class App:
    """The catalogue, the sessions and the routes; ``handle`` answers one request."""

    def __init__(self, catalogue: Catalogue) -> None:
        self.catalogue = catalogue
        self.sessions = Sessions()

    def games(self) -> dict[str, Any]:
        return {"games": [e.as_dict() for e in self.catalogue.games],
                "reports": [{"id": r.id, "name": r.name} for r in self.catalogue.reports]}

    def create(self, body: dict[str, Any]) -> dict[str, Any]:
        _fields(body, {"game", "seed", "winnable", "ms", "board", "log"}, required={"game"})
        entry = self.catalogue.game(body["game"])
        game, lock = self.catalogue.compiled.get(entry)
        start = _opening(body)
        with lock:
            opening = Session.opening(game, start)
            session = Session("", entry, game, opening, lock)
            if "log" in body:
                session.load_log(body["log"])
            self.sessions.add(session)
            return session_payload(session)

    def act(self, session: Session, action: str, body: dict[str, Any]) -> dict[str, Any]:
        """A POST on a session: its action and the session document after it (a hint answers
        the move too, without playing it)."""
        extra: dict[str, Any] = {}
        if action == "new":
            _fields(body, {"seed", "winnable", "ms", "board", "log"})
            start = _opening(body)
            game, lock = self.catalogue.compiled.get(session.entry)  # the file as it is now
            with nullcontext() if lock is session.lock else lock:
                if "log" in body:
                    session.renew(game, lock, lambda: session.load_log(body["log"]))
                else:
                    session.renew(game, lock,
                                  lambda: session.new_game(Session.opening(game, start)))
        elif action == "move":
            _fields(body, {"move"}, required={"move"})
            session.move(body["move"])
        elif action == "click":
            _fields(body, {"depot", "index"}, required={"depot", "index"})
            extra["played"] = session.game.move_text(session.click(body["depot"], body["index"]))
        elif action in ("hint", "step"):
            _fields(body, {"planner", "nodes", "seconds"})
            name = body.get("planner")  # null, as left out: the default planner
            move = session.hint(session.planners()[0] if name is None else name, body)
            extra["hint"] = None if move is None else {
                **move_document(session.game, move), "text": session.game.move_text(move)}
            if action == "step":
                session.still_playing()  # a finished game is refused as a move on it is
                if move is None:
                    raise Refused("the planner finds no move worth making")
                session.move(move_document(session.game, move))
        elif action in SIMPLE_ACTIONS:
            _fields(body, set())
            getattr(session, SIMPLE_ACTIONS[action])()
        elif action == "replay":
            _fields(body, {"log", "solution"})
            if ("log" in body) == ("solution" in body):
                raise CardzError("give a log or a solution (exactly one)")
            if "log" in body:
                session.start_replay(body["log"])
            else:
                session.replay_solution(body["solution"])
        elif action == "goto":
            _fields(body, {"at"}, required={"at"})
            session.goto(body["at"])
        else:
            raise NotFound(f"no action {action!r} (docs/serve.md lists them)")
        return {**session_payload(session), **extra}

    def read(self, session: Session, what: str) -> Any:
        """A GET on a session: its document, or one of the contract's documents of its game."""
        game = session.game
        if what == "":
            return session_payload(session)
        if what == "log":
            return session.playing.document()
        if what == "board":
            return game.board_document(session.playing.seat.state)
        if what == "view":
            return game.board_document(session.shown())
        if what == "moves":
            return [{**move_document(game, m), "text": game.move_text(m)} for m in session.legal()]
        raise NotFound(f"no document {what!r} of a session (docs/serve.md lists them)")


COUNTERS = ("moves", "undos", "recycles", "redeals")  # as board documents write them
SIMPLE_ACTIONS = {"undo": "undo", "redo": "redo", "restart": "restart", "resume": "resume",
                  "leave": "leave_replay"}


def _opening(body: dict[str, Any]) -> dict[str, Any]:
    """The fields of ``body`` that say where a new game starts; a log says that itself, so it
    comes alone."""
    start = {k: v for k, v in body.items() if k in ("seed", "winnable", "ms", "board")}
    if "log" in body and start:
        raise CardzError("give a log alone: it says where its game starts", "/" + next(iter(start)))
    return start


def _fields(body: dict[str, Any], allowed: set[str], required: frozenset[str] | set[str] = frozenset()
            ) -> None:
    for key in body:
        if key not in allowed:
            raise CardzError(f"unknown field {key!r} in this request" + (
                f" (it takes {', '.join(sorted(allowed))})" if allowed else " (it takes none)"),
                "/" + key)
    for key in sorted(required - set(body)):
        raise CardzError(f"{key!r} is missing", "/" + key)


def cut(text: str) -> str:
    """A refusal's text cut to ``SERVE_MAX_MESSAGE`` characters: a message that quotes a long
    input (a megabyte of move text) is not sent back whole, twice."""
    if len(text) <= SERVE_MAX_MESSAGE:
        return text
    return text[:SERVE_MAX_MESSAGE - 1] + "…"


class Handler(BaseHTTPRequestHandler):
    """One request. ``server.app`` is the ``App``; ``server.answers_as`` says which ``Host``
    values it takes."""

    server: CardzServer
    protocol_version = "HTTP/1.1"
    timeout = SERVE_READ_SECONDS  # a client that stops sending is dropped, not waited on for ever

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002  (the base's name)
        """Requests are not logged: the terminal shows where the server listens, and errors."""

    def do_GET(self) -> None:
        self._answer("GET")

    def do_POST(self) -> None:
        self._answer("POST")

    def do_DELETE(self) -> None:
        self._answer("DELETE")

    def _not_allowed(self) -> None:
        """A method the API does not use: refused in JSON like every other refusal."""
        self.close_connection = True  # its body, if any, is not read
        self._error(HTTPStatus.METHOD_NOT_ALLOWED,
                    CardzError(f"{self.command} is not a method of this server: it takes GET, "
                               "POST and DELETE (docs/serve.md)"))

    do_PUT = do_PATCH = do_OPTIONS = do_HEAD = _not_allowed

    def send_error(self, code: int, message: str | None = None, explain: str | None = None
                   ) -> None:
        """A request the HTTP parser refuses (a garbled request line, a header too long): in
        JSON, as the API's own refusals are, and the connection closed. A method without a
        ``do_`` handler (TRACE, CONNECT), which the parser answers 501, is one the API does
        not use: 405, as PUT is."""
        if code == HTTPStatus.NOT_IMPLEMENTED:
            self._not_allowed()
            return
        self.close_connection = True
        self._json(HTTPStatus(code), {"error": message or HTTPStatus(code).phrase,
                                      "problems": []})

    def _answer(self, method: str) -> None:
        # a refused request may leave its body unread, which would be read as the next request:
        # such a connection is closed after the answer
        self.close_connection = True
        try:
            self._check_host()
            path = urlsplit(self.path).path
            if method != "POST":
                self._no_body(method)
            body = self._body() if method == "POST" else None
            if method == "GET" and not path.startswith("/api/"):
                page = self._static(path)
                self.close_connection = False
                self._send(HTTPStatus.OK, *page)
                return
            status, value = self._route(method, path, body)
            self.close_connection = False  # read whole and answered: the connection may go on
            self._json(status, value)
        except (TimeoutError, ConnectionError):  # the body never came whole: nothing to answer
            return
        except NotFound as exc:
            self._error(HTTPStatus.NOT_FOUND, exc)
        except Refused as exc:
            self._error(HTTPStatus.CONFLICT, exc)
        except CardzError as exc:
            self._error(HTTPStatus.BAD_REQUEST, exc)
        except Exception:  # a bug of ours: one line to the page, the traceback to the terminal
            traceback.print_exc(file=sys.stderr)
            self._json(HTTPStatus.INTERNAL_SERVER_ERROR,
                       {"error": "internal error (the server's terminal shows it); please "
                                 "report it", "problems": []})

    def _check_host(self) -> None:
        host = self.headers.get("Host", "")
        if not self.server.answers_as(host):
            raise CardzError(f"this server answers only as {self.server.names_taken}")

    def _no_body(self, method: str) -> None:
        """A GET or DELETE sends no body: one would be read as the next request."""
        if "Transfer-Encoding" in self.headers or self.headers.get("Content-Length", "0") != "0":
            raise CardzError(f"a {method} request sends no body")

    def _body(self) -> dict[str, Any]:
        from cardz_core.cli.reading import parse_document

        kind = self.headers.get("Content-Type", "").split(";")[0].strip().lower()
        if "Transfer-Encoding" in self.headers:
            raise CardzError("a request body is sent whole, with a Content-Length, not in chunks")
        length_text = self.headers.get("Content-Length", "0")
        if not (length_text.isascii() and length_text.isdigit()):  # not '²', which int() refuses
            raise CardzError("a request body needs a Content-Length")
        # int() refuses 4,300 digits and more, leading zeros counted; more digits than the
        # limit has is past it however many
        digits = length_text.lstrip("0") or "0"
        too_long = len(digits) > len(str(MAX_DOCUMENT_BYTES))
        length = MAX_DOCUMENT_BYTES + 1 if too_long else int(digits)
        if length > MAX_DOCUMENT_BYTES:
            raise CardzError(f"a request body is at most {MAX_DOCUMENT_BYTES:,} bytes "
                             "(limits.MAX_DOCUMENT_BYTES)")
        data = self.rfile.read(length)
        if len(data) < length:  # the client stopped sending: nothing of it is carried out
            raise ConnectionAbortedError("the body ended before its Content-Length")
        if kind != "application/json":
            raise CardzError("a POST sends its body as application/json")
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise CardzError(f"the request is not UTF-8 text: byte {exc.start} is "
                             f"0x{data[exc.start]:02x}") from None
        body = parse_document(text, "request") if text.strip() else {}
        if not isinstance(body, dict):
            raise CardzError("a request body is a JSON object")
        return body

    def _route(self, method: str, path: str, body: dict[str, Any] | None
               ) -> tuple[HTTPStatus, Any]:
        app = self.server.app
        head, *parts = path.strip("/").split("/")
        if head != "api":
            raise NotFound(f"no {method} {path} (docs/serve.md lists the API)")
        if parts == ["games"] and method == "GET":
            return HTTPStatus.OK, app.games()
        if parts == ["sessions"] and method == "POST":
            assert body is not None
            return HTTPStatus.CREATED, app.create(body)
        if len(parts) in (2, 3) and parts[0] == "sessions":
            what = parts[2] if len(parts) == 3 else ""
            if method == "DELETE" and not what or method == "POST" and what == "close":
                _fields(body or {}, set())
                app.sessions.close(parts[1])
                return HTTPStatus.OK, {"closed": parts[1]}
            session = app.sessions.get(parts[1])
            with session.lock:
                if method == "GET":
                    return HTTPStatus.OK, app.read(session, what)
                if method == "POST" and what:
                    assert body is not None
                    return HTTPStatus.OK, app.act(session, what, body)
        raise NotFound(f"no {method} {path} (docs/serve.md lists the API)")

    def _static(self, path: str) -> tuple[bytes, str, str]:
        """A page or a report: its bytes, content type and content security policy."""
        if path.startswith("/reports/"):
            ident = path[len("/reports/"):]
            report = self.server.app.catalogue.report(ident)
            if report is None:
                raise NotFound(f"no report {ident!r} on this server")
            return report.read(), "text/html; charset=utf-8", REPORT_POLICY
        found = STATIC.get(path.strip("/"))
        if found is None:
            raise NotFound(f"no page {path}")
        name, kind = found
        return (resources.files("cardz_core.serve") / "static" / name).read_bytes(), kind, \
            PAGE_POLICY

    def _error(self, status: HTTPStatus, exc: CardzError) -> None:
        listed = [{"path": cut(p.path), "message": cut(p.message)}
                  for p in exc.problems[:SERVE_MAX_PROBLEMS]]
        left = len(exc.problems) - len(listed)
        if left:  # a board of 20,000 bad names is not sent back name by name
            listed.append({"path": "", "message": f"and {left:,} more problems "
                                                  "(limits.SERVE_MAX_PROBLEMS)"})
        self._json(status, {"error": cut("; ".join(str(p) for p in exc.problems)),
                            "problems": listed})

    def _json(self, status: HTTPStatus, value: Any) -> None:
        self._send(status, (json_text(value, indent=None) + "\n").encode("utf-8"),
                   "application/json; charset=utf-8", None)

    def _send(self, status: HTTPStatus, data: bytes, kind: str, policy: str | None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        if self.close_connection:
            self.send_header("Connection", "close")
        if policy is not None:
            self.send_header("Content-Security-Policy", policy)
        self.end_headers()
        if self.command != "HEAD":  # a HEAD answer has the headers of the body, not the body
            self.wfile.write(data)


class CardzServer(ThreadingHTTPServer):
    daemon_threads = True  # a planner still thinking does not keep a stopped server alive

    def __init__(self, app: App, host: str, port: int) -> None:
        self.address_family = socket.AF_INET6 if ":" in host else socket.AF_INET
        super().__init__((host, port), Handler)
        self.app = app
        self.port = self.server_address[1]
        self.anywhere = host in WILDCARD
        # this machine's own names, looked up once (getfqdn may ask DNS): not on every request
        self.own_names = {"localhost", socket.gethostname().lower(),
                          socket.getfqdn().lower()} if self.anywhere else set()
        shown = f"[{host}]" if ":" in host else host
        names = {shown, "localhost", "127.0.0.1", "[::1]"} if host in LOOPBACK else {shown}
        self.hosts = {f"{n}:{self.port}".lower() for n in names}

    @property
    def names_taken(self) -> str:
        """The ``Host`` values this server answers to, as a refusal names them."""
        if self.anywhere:
            return f"an IP address, localhost or {socket.gethostname()}, port {self.port}"
        return sorted(self.hosts)[0]

    def answers_as(self, host: str) -> bool:
        """Whether a request's ``Host`` names this server. Listening on one address, only that
        address (and the loopback names for a loopback address); listening on every address
        (``--host 0.0.0.0`` or ``::``), any IP address, localhost or this machine's name, on
        its port. A page elsewhere reaches a server only through a name of its own (DNS
        rebinding), never through an IP address, so that is what the check keeps out."""
        host = host.lower()
        if host in self.hosts:
            return True
        name, _, port = host.rpartition(":")
        if not self.anywhere or port != str(self.port):
            return False
        if name in self.own_names:
            return True
        try:
            ipaddress.ip_address(name[1:-1] if name.startswith("[") and name.endswith("]")
                                 else name)
        except ValueError:
            return False
        return True

    @property
    def url(self) -> str:
        host, port = str(self.server_address[0]), self.server_address[1]
        shown = f"[{host}]" if ":" in host else host
        return f"http://{shown}:{port}/"


LOOPBACK = frozenset({"127.0.0.1", "localhost", "::1"})
WILDCARD = frozenset({"0.0.0.0", "::", ""})  # listening on every address of the machine


def make_server(given: list[str], host: str = "127.0.0.1", port: int = 0) -> CardzServer:
    """A server for the bundled games and the files and folders ``given`` (refused with the
    reason when one is neither a game file, a report nor a folder), not yet serving."""
    return CardzServer(App(Catalogue(given)), host, port)

