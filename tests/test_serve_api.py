"""`cardz serve`'s JSON API without a browser: the contract's documents, refusals as 4xx with the
CLI's message, sessions kept apart, and no file read but those given."""

from __future__ import annotations

import json
import random
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from serve_helpers import serving

from cardz_core.board_layout import lay_out
from cardz_core.cli.main import main
from cardz_core.engine.logs import replay
from cardz_core.limits import (MAX_PORT, PLANNER_MAX_SECONDS, SERVE_MAX_MESSAGE, SERVE_MAX_PROBLEMS,
                               SERVE_MAX_SESSIONS, SERVE_READ_SECONDS)
from cardz_core.msdeal import deal_ms
from cardz_core.planners import make_planner, usual
from cardz_core.planners.solver import solve
from cardz_core.rulesets import RULESETS_DIR, open_game
from cardz_core.serve import session as session_module
from cardz_core.serve.markdown import to_html


@pytest.fixture(scope="module")
def app():
    with serving() as (server, client):
        yield server, client


@pytest.fixture(scope="module")
def client(app):
    return app[1]


def test_a_session_shows_the_players_view_drawn_with_the_renderers_geometry(client):
    s = client.start("klondike", seed=3)
    game = open_game("klondike")
    view = game.view(game.deal(3))
    assert s["board"] == game.board_document(view)
    assert s["status"] == "playing" and s["moves"] == 0 and s["opening"] == {"seed": 3}
    table = lay_out(game.spec, view.piles)
    drawn = {d["name"]: d for d in s["layout"]["depots"]}
    for pile in table.piles:
        d = drawn[pile.depot.name]
        assert (d["x"], d["y"]) == (round(pile.outline.x, 1), round(pile.outline.y, 1))
        assert [(c["x"], c["y"]) for c in d["cards"]] == [(round(p.x, 1), round(p.y, 1))
                                                         for p in pile.cards]
    # face-down cards are backs that say nothing; face-up cards carry their face
    assert drawn["stock"]["cards"][0] == {**drawn["stock"]["cards"][0], "label": "~?",
                                          "unknown": True}
    assert drawn["column-1"]["cards"][0]["corner"] == "10\u2663"
    assert drawn["stock"]["tap"] and drawn["stock"]["badge"] and drawn["stock"]["count"] == 24
    assert [m["text"] for m in s["legal"]] == [game.move_text(m) for m in game.legal_moves(view)]
    assert s["description"].startswith("<p>The classic patience.")


def test_moves_undo_redo_restart_and_the_log_replays_to_the_board(client):
    s = client.start("klondike", seed=3)
    s = client.act(s, "move", {"move": "tap stock"})
    assert s["moves"] == 1 and s["last"] == "tap stock" and s["canUndo"]
    s = client.act(s, "move", {"move": {"tap": "stock"}})
    s = client.act(s, "undo")
    assert s["moves"] == 2 and s["counters"]["undos"] == 1 and s["canRedo"]
    s = client.act(s, "redo")
    assert not s["canRedo"] and len(s["board"]["depots"]["waste"]) == 2
    game = open_game("klondike")
    log = client.ok("GET", f"/api/sessions/{s['session']}/log")
    assert [step.get("move", "undo") for step in log["steps"]] == \
        ["tap stock", "tap stock", "undo", "tap stock"]
    boards = replay(game, log)
    board = client.ok("GET", f"/api/sessions/{s['session']}/board")
    assert game.board_document(boards[-1]) == board
    s = client.act(s, "restart")
    assert s["moves"] == 0 and not s["canUndo"] and s["board"]["depots"]["waste"] == []


def test_a_refused_move_is_a_409_with_the_reason_the_cli_gives(client):
    s = client.start("klondike", seed=3)
    status, body = client.call("POST", f"/api/sessions/{s['session']}/move",
                               {"move": "column-1@0>column-2"})
    assert status == 409
    assert body["error"] == "column-1@0>column-2 is not legal: 10C can't go on 4H on column-2"
    status, body = client.call("POST", f"/api/sessions/{s['session']}/undo", {})
    assert (status, body["error"]) == (409, "nothing to undo")


@pytest.mark.parametrize("path, body, status, message", [
    ("/api/sessions", {"game": "klondike", "seed": -1}, 400,
     "/seed: seed must be a whole number from 0 to 18446744073709551615, not -1"),
    ("/api/sessions", {"game": "no-such"}, 400,
     "/game: no game 'no-such' on this server (GET /api/games lists them)"),
    ("/api/sessions", {"seed": 1}, 400, "/game: 'game' is missing"),
    ("/api/sessions", {"game": "klondike", "colour": "red"}, 400,
     "/colour: unknown field 'colour' in this request (it takes board, game, log, ms, seed, "
     "winnable)"),
    ("/api/sessions", {"game": "freecell", "ms": 1, "winnable": True}, 400,
     "/winnable: 'winnable' is true or false, and goes with a seed"),
    ("/api/sessions", {"game": "klondike", "winnable": "yes"}, 400,
     "/winnable: 'winnable' is true or false, and goes with a seed"),
    ("/api/sessions", {"game": "klondike", "ms": 1}, 400,
     "/ms: ms 1: Microsoft deals need one 52-card deck and 8 Tableau depots; 'Klondike' has 52 "
     "cards and 7 Tableau depots"),
    ("/api/sessions", {"game": "klondike", "board": {"format": "cardz-board/1", "depots": {}}},
     400, None),
    ("/api/sessions/nope/move", {"move": "tap stock"}, 404, None),
    ("/api/nothing", {}, 404, "no POST /api/nothing (docs/serve.md lists the API)"),
])
def test_bad_requests_are_4xx_with_a_message_never_a_traceback(client, path, body, status,
                                                               message):
    got, value = client.call("POST", path, body)
    assert got == status
    if message is not None:
        assert value["error"] == message
    assert "Traceback" not in value["error"] and value["error"]


def test_a_winnable_deal_is_the_one_cardz_deal_winnable_gives(client):
    from cardz_core.winnable import winnable_deal

    s = client.start("freecell", seed=5, winnable=True)
    assert s["opening"] == {"seed": winnable_deal(open_game("freecell"), 5).seed}


def test_a_bad_board_is_refused_as_the_cli_refuses_it(client):
    game = open_game("klondike")
    doc = game.board_document(game.deal(1))
    doc["depots"]["column-1"].append("KS")
    status, body = client.call("POST", "/api/sessions", {"game": "klondike", "board": doc})
    assert status == 400
    assert body["problems"][0]["message"].endswith(": one KS too many (the decks hold 1)")


def test_a_content_length_that_is_not_ascii_digits_is_refused(client):
    # '²' is a digit to str.isdigit but not to int(); sent as the byte 0xb2 (latin-1)
    for length in ("²", "¹²", "-1", "1e3", ""):
        status, raw, _ = client.raw("POST", "/api/sessions", b'{"game": "klondike"}',
                                    {"Content-Type": "application/json", "Content-Length": length})
        assert status == 400, length
        assert json.loads(raw)["error"] == "a request body needs a Content-Length"


def test_a_content_length_of_any_length_is_read(client):
    # int() refuses 4,300 digits and more, leading zeros counted
    for length in ("9" * 5000, "0" * 5000 + "99999999999"):
        status, raw, _ = client.raw("POST", "/api/sessions", b'{"game": "klondike"}',
                                    {"Content-Type": "application/json", "Content-Length": length})
        assert status == 400 and "a request body is at most" in json.loads(raw)["error"], length
    body = b'{"game": "klondike"}'
    status, _, _ = client.raw("POST", "/api/sessions", body,
                              {"Content-Type": "application/json",
                               "Content-Length": "0" * 5000 + str(len(body))})
    assert status == 201


def test_malformed_bodies_and_foreign_hosts_are_refused(client):
    status, raw, _ = client.raw("POST", "/api/sessions", b'{"game": "klondike", "game": "x"}',
                                {"Content-Type": "application/json"})
    assert status == 400 and "key 'game' is written twice" in json.loads(raw)["error"]
    status, raw, _ = client.raw("POST", "/api/sessions", b"{not json",
                                {"Content-Type": "application/json"})
    assert status == 400 and "request is not valid JSON" in json.loads(raw)["error"]
    # a whole number past Python's 4,300 digits: refused at its pointer, not an internal error
    status, raw, _ = client.raw("POST", "/api/sessions",
                                b'{"game": "klondike", "seed": ' + b"9" * 5000 + b"}",
                                {"Content-Type": "application/json"})
    assert status == 400 and "a number of about 5000 digits" in json.loads(raw)["error"]
    status, raw, _ = client.raw("POST", "/api/sessions", b'{"game": "klondike"}',
                                {"Content-Type": "text/plain"})
    assert status == 400 and json.loads(raw)["error"] == "a POST sends its body as application/json"
    status, raw, _ = client.raw("POST", "/api/sessions", b"\xff",
                                {"Content-Type": "application/json"})
    assert status == 400 and "byte 0 is 0xff" in json.loads(raw)["error"]
    status, raw, _ = client.raw("GET", "/api/games", headers={"Host": "evil.example:80"})
    assert status == 400 and "answers only as" in json.loads(raw)["error"]


def test_a_server_on_every_address_answers_to_an_address_and_refuses_a_name():
    """With --host 0.0.0.0 every Host was refused but the literal 0.0.0.0 (before stop 69): no
    one could play. A name of another site is still refused (DNS rebinding)."""
    with serving(host="0.0.0.0") as (server, client):
        port = server.server_address[1]
        for host, status in ((f"127.0.0.1:{port}", 200), (f"192.0.2.2:{port}", 200),
                             (f"[::1]:{port}", 200), (f"localhost:{port}", 200),
                             (f"{socket.gethostname()}:{port}", 200),
                             (f"evil.example:{port}", 400), (f"127.0.0.1:{port + 1}", 400),
                             ("127.0.0.1", 400), ("", 400)):
            got, raw, _ = client.raw("GET", "/api/games", headers={"Host": host})
            assert got == status, (host, raw[:200])
        got, raw, _ = client.raw("GET", "/api/games", headers={"Host": "evil.example"})
        assert f"an IP address, localhost or {socket.gethostname()}, port {port}" in \
            json.loads(raw)["error"]


def test_a_server_listens_on_an_ipv6_address():
    try:
        with socket.socket(socket.AF_INET6) as probe:
            probe.bind(("::1", 0))
    except OSError:
        pytest.skip("this machine has no IPv6 loopback")
    with serving(host="::1") as (server, client):
        assert server.url.startswith("http://[::1]:")
        assert client.call("GET", "/api/games")[0] == 200  # Host [::1]:PORT, as a browser sends


def test_only_the_api_routes_answer(client):
    """The router read any first segment as api (before stop 69): POST /nonsense/sessions
    started a game and DELETE /reports/sessions/S closed one."""
    s = client.start("golf", seed=1)
    ident = s["session"]
    for method, path in (("POST", "/nonsense/sessions"), ("POST", f"/x/sessions/{ident}/undo"),
                         ("DELETE", f"/reports/sessions/{ident}")):
        body = b"{}" if method == "POST" else None
        status, raw, headers = client.raw(method, path, body, {"Content-Type": "application/json"})
        assert status == 404 and headers.get("Connection") == "close", (method, path, raw)
    assert client.call("GET", f"/api/sessions/{s['session']}")[0] == 200  # still open


def test_every_refusal_closes_its_connection_and_every_unused_method_is_405(client):
    for path in ("/nope", "/reports/nope", "/api/nope"):  # a page not found too (not before)
        status, _, headers = client.raw("GET", path)
        assert status == 404 and headers.get("Connection") == "close", path
    status, _, headers = client.raw("GET", "/")
    assert status == 200 and "Connection" not in headers  # a page found keeps it
    for method in ("TRACE", "CONNECT", "PROPFIND", "PUT"):  # TRACE and the others were 501
        status, raw, _ = client.raw(method, "/api/games")
        assert status == 405 and "is not a method of this server" in json.loads(raw)["error"]


def test_a_body_cut_short_is_not_carried_out(app):
    """A POST whose body ended before its Content-Length started a game (before stop 69)."""
    server, client = app
    opened = len(server.app.sessions._open)
    body = b'{"game": "golf"}'
    with socket.create_connection((client.host, client.port), timeout=30) as conn:
        conn.sendall(b"POST /api/sessions HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n"
                     b"Content-Type: application/json\r\nContent-Length: %d\r\n\r\n%s"
                     % (client.port, len(body) + 50, body))
        conn.shutdown(socket.SHUT_WR)
        assert conn.recv(1000) == b""  # dropped without an answer
    assert len(server.app.sessions._open) == opened


@pytest.mark.parametrize("extra", [SERVE_MAX_PROBLEMS, SERVE_MAX_PROBLEMS + 1, 5_000])
def test_a_refusal_lists_at_most_the_limit_of_problems(client, extra):
    game = open_game("klondike")
    doc = game.board_document(game.deal(1))
    doc["depots"].update({f"zz{i}": [] for i in range(extra)})
    status, value = client.call("POST", "/api/sessions", {"game": "klondike", "board": doc})
    assert status == 400
    problems = value["problems"]
    assert problems[0] == {"path": "/depots/zz0", "message": "'zz0' is not a depot of 'Klondike'"}
    if extra <= SERVE_MAX_PROBLEMS:
        assert len(problems) == extra
    else:
        assert len(problems) == SERVE_MAX_PROBLEMS + 1
        assert problems[-1] == {"path": "", "message": f"and {extra - SERVE_MAX_PROBLEMS:,} more "
                                                       "problems (limits.SERVE_MAX_PROBLEMS)"}


def test_a_hint_on_a_finished_game_checks_its_planner_and_budget(client):
    """A finished game answered 200 with no hint for any planner or budget (before stop 69)."""
    game = open_game("freecell")
    won = client.start("freecell", ms=1)
    for move in solve(game, deal_ms(game, 1), max_states=2_000_000, timeout=60).line:
        won = client.act(won, "move", {"move": game.move_text(move)})
    assert won["status"] == "won"
    for body, words in (({"planner": "no-such-planner"}, "no planner named"),
                        ({"nodes": -5}, "node budget"), ({"planner": 7}, "a planner's name")):
        status, value = client.call("POST", f"/api/sessions/{won['session']}/hint", body)
        assert status == 400 and words in value["error"], (body, value)
    assert client.act(won, "hint")["hint"] is None


def test_tabs_have_sessions_of_their_own(client):
    a = client.start("klondike", seed=3)
    b = client.start("klondike", seed=3)
    client.act(a, "move", {"move": "tap stock"})
    assert client.ok("GET", f"/api/sessions/{b['session']}")["moves"] == 0
    assert client.ok("GET", f"/api/sessions/{a['session']}")["moves"] == 1
    client.ok("DELETE", f"/api/sessions/{a['session']}")
    assert client.call("GET", f"/api/sessions/{a['session']}")[0] == 404


def test_past_the_session_limit_the_one_used_longest_ago_closes():
    with serving() as (_, client):
        first, second = client.start("golf", seed=1), client.start("golf", seed=1)
        for _ in range(SERVE_MAX_SESSIONS - 2):
            client.start("golf", seed=1)
        assert client.call("GET", f"/api/sessions/{first['session']}")[0] == 200  # at the limit
        client.start("golf", seed=1)  # one past it: the second was used longest ago
        assert client.call("GET", f"/api/sessions/{first['session']}")[0] == 200
        status, body = client.call("GET", f"/api/sessions/{second['session']}")
        assert status == 404 and "start a new game" in body["error"]


def test_the_hint_is_the_planners_move_on_the_view(client):
    s = client.start("klondike", seed=5)
    hinted = client.act(s, "hint", {"planner": "usual"})
    game = open_game("klondike")
    expected = make_planner(game, "usual").choose(game, game.view(game.deal(5)), random.Random(5))
    assert hinted["hint"]["text"] == game.move_text(expected)
    assert hinted["moves"] == 0  # a hint plays nothing
    # null stands for a field left out: the default planner (usual here), its default budget
    nulls = client.act(s, "hint", {"planner": None, "nodes": None, "seconds": None})
    assert nulls["hint"] == hinted["hint"]


def test_planners_see_only_the_view(monkeypatch):
    seen = []

    class Spy:
        name = "spy"

        def choose(self, game, view, rng):
            seen.append(view)
            return None

    game = open_game("klondike")
    opening = session_module.Opening(game.deal(2), seed=2)
    s = session_module.Session("x", None, game, opening)
    monkeypatch.setattr(session_module, "make_planner", lambda *a, **k: Spy())
    assert s.hint("spy", {}) is None
    hidden = [c for pile in seen[0].piles for c in pile if not c & 1]
    assert hidden and all(c < 0 for c in hidden)  # every face-down card unknown to the planner


def test_step_plays_the_planners_move_and_a_game_without_planners_refuses(client):
    s = client.start("golf", seed=2)
    stepped = client.act(s, "step", {"planner": "usual"})
    assert stepped["moves"] == 1 and stepped["last"] == stepped["hint"]["text"]
    status, body = client.call("POST", f"/api/sessions/{s['session']}/hint",
                               {"planner": "expectimax", "nodes": 0})
    assert (status, body["error"]) == (400, "/nodes: a planner's node budget is a whole number "
                                            "from 1 to 10000000, not 0")
    # a budget of the wrong type is refused at its pointer, for every planner, never a 500
    for planner in ("expectimax", "usual", "sampling"):
        for bad in ({"nodes": "5"}, {"nodes": [1]}, {"nodes": True}, {"nodes": 1.5},
                    {"seconds": "x"}, {"seconds": {}}, {"seconds": PLANNER_MAX_SECONDS + 1}):
            for action in ("hint", "step"):
                status, body = client.call("POST", f"/api/sessions/{s['session']}/{action}",
                                           {"planner": planner, **bad})
                field = next(iter(bad))
                assert status == 400 and body["error"].startswith(f"/{field}: a planner's"), \
                    (planner, bad, action, status, body)
    gated = client.start("climb_to_ten", seed=1)
    assert gated["planners"] == ["random"]
    status, body = client.call("POST", f"/api/sessions/{gated['session']}/hint",
                               {"planner": "usual"})
    assert status == 400 and "offers no planner" in body["error"]


def test_a_click_plays_the_hints_move_of_that_card_else_its_first_legal_one(client):
    s = client.start("klondike", seed=3)
    clicked = client.act(s, "click", {"depot": "stock", "index": 23})
    assert clicked["played"] == "tap stock"
    status, body = client.call("POST", f"/api/sessions/{s['session']}/click",
                               {"depot": "column-7", "index": 0})
    assert status == 409 and body["error"] == "no legal move of card 0 of column-7"
    status, body = client.call("POST", f"/api/sessions/{s['session']}/click",
                               {"depot": "column-7", "index": 99})
    assert status == 400 and body["problems"][0]["path"] == "/index"


def test_replaying_a_solvers_line_forwards_backwards_and_playing_on(client, tmp_path):
    game = open_game("freecell")
    state = deal_ms(game, 1)
    result = solve(game, state, max_states=2_000_000, timeout=60)
    lines = [game.move_text(m) for m in result.line]
    s = client.start("freecell", ms=1)
    text = f"won in {len(lines)} moves; 1 positions searched in 1.00 s\n" + "\n".join(lines)
    r = client.act(s, "replay", {"solution": text})
    assert r["replay"] == {"at": 0, "total": len(lines), "steps": lines} and r["legal"] == []
    assert r["last"] is None  # the replay's, not the game's: nothing played before the first
    r = client.act(s, "goto", {"at": len(lines)})
    assert r["status"] == "won" and r["last"] == lines[-1]
    r = client.act(s, "goto", {"at": 3})
    assert r["moves"] == 3 and r["last"] == lines[2]
    status, body = client.call("POST", f"/api/sessions/{s['session']}/move", {"move": lines[3]})
    assert status == 409 and "replayed" in body["error"]
    r = client.act(s, "resume")
    assert r["replay"] is None and r["moves"] == 3 and r["canUndo"]
    assert r["opening"] == {"ms": 1}  # the solution's board is the game's own opening
    for action, body in (("resume", {}), ("goto", {"at": 1})):  # well-formed, not now: a 409
        status, answer = client.call("POST", f"/api/sessions/{s['session']}/{action}", body)
        assert (status, answer["error"]) == (409, "no log is being replayed"), action
    r = client.act(r, "move", {"move": lines[3]})
    assert r["moves"] == 4
    for line in lines[4:]:  # played to the end: a step and a move on the won game say so
        r = client.act(r, "move", {"move": line})
    assert r["status"] == "won"
    for action, body in (("step", {"planner": "usual"}), ("move", {"move": lines[0]})):
        status, answer = client.call("POST", f"/api/sessions/{s['session']}/{action}", body)
        assert (status, answer["error"]) == (409, "the game is won: no more moves (undo, restart "
                                                  "or deal again)"), action


def test_a_saved_log_loads_and_plays_on(client):
    s = client.start("klondike", seed=4)
    for _ in range(3):
        s = client.act(s, "move", {"move": "tap stock"})
    log = client.ok("GET", f"/api/sessions/{s['session']}/log")
    loaded = client.ok("POST", "/api/sessions", {"game": "klondike", "log": log})
    assert loaded["board"] == s["board"] and loaded["canUndo"] and loaded["replay"] is None
    game = open_game("klondike")
    log["steps"][1]["revealed"] = ["KS"]
    status, body = client.call("POST", "/api/sessions", {"game": "klondike", "log": log})
    assert status == 400 and body["problems"][0]["path"] == "/steps/1/revealed"
    board = client.ok("GET", f"/api/sessions/{s['session']}/board")
    fresh = client.act(loaded, "new", {"board": board})
    assert fresh["opening"] == {"board": True} and fresh["moves"] == 3
    assert game.board_document(game.view(game.load_board(board))) == fresh["board"]
    # a log that can be replayed but not played on (it starts from a view) is refused by new,
    # and the game it came to stays as it was: not left in a replay
    view = client.ok("GET", f"/api/sessions/{s['session']}/view")
    from_view = {"format": "cardz-log/1", "hash": log["hash"], "board": view, "steps": [],
                 "status": "playing"}
    status, body = client.call("POST", f"/api/sessions/{s['session']}/new", {"log": from_view})
    assert status == 400 and "it can be replayed, not played on" in body["error"]
    after = client.ok("GET", f"/api/sessions/{s['session']}")
    assert after["replay"] is None and after["moves"] == 3 and after["board"] == s["board"]
    assert after["canUndo"] and client.act(after, "undo", {})["board"] != after["board"]


def test_only_the_given_files_are_read(tmp_path):
    folder = tmp_path / "games"
    folder.mkdir()
    shutil.copy(RULESETS_DIR / "golf.cardz", folder / "mine.cardz")
    (folder / "notes.txt").write_text("not a game")
    report = tmp_path / "report.html"
    report.write_text("<!DOCTYPE html><html><body><h1>cardz simulation</h1></body></html>")
    with serving([str(folder), str(report)]) as (_, client):
        listing = client.ok("GET", "/api/games")
        mine = [g for g in listing["games"] if g["source"] == "file"]
        assert mine == [{"id": "file-1", "name": "Golf", "family": "Golf", "source": "file",
                         "file": str(folder / "mine.cardz")}]
        assert listing["reports"] == [{"id": "report-1", "name": "report.html"}]
        status, raw, headers = client.raw("GET", "/reports/report-1")
        assert status == 200 and b"cardz simulation" in raw
        assert headers["Content-Security-Policy"].startswith("sandbox")
        for path in ("/reports/report-2", "/../../etc/passwd", "/static/../server.py",
                     "/api/games/../../etc/passwd"):
            assert client.raw("GET", path)[0] == 404
        s = client.start("file-1", seed=1)
        assert s["game"]["source"] == "file"
        # the file is read again for each new game: an edit shows on the next deal
        data = json.loads((folder / "mine.cardz").read_text())
        data["name"] = "Golf, edited"
        (folder / "mine.cardz").write_text(json.dumps(data))
        assert client.start("file-1", seed=1)["name"] == "Golf, edited"
        # and for a new game in a tab opened before the edit (it dealt the old rules before
        # stop 69, and refused a log saved under the new ones, as the page's Load sends it)
        assert client.act(s, "new", {"seed": 2})["name"] == "Golf, edited"
        data["name"] = "Golf, edited again"
        (folder / "mine.cardz").write_text(json.dumps(data))
        other = client.start("file-1", seed=4)
        log = client.ok("GET", f"/api/sessions/{other['session']}/log")
        loaded = client.act(s, "new", {"log": log})
        assert (loaded["name"], loaded["opening"]) == ("Golf, edited again", {"seed": 4})
        (folder / "mine.cardz").write_text("{")
        status, body = client.call("POST", "/api/sessions", {"game": "file-1"})
        assert status == 400 and body["error"]
        status, body = client.call("POST", f"/api/sessions/{s['session']}/new", {"seed": 3})
        assert status == 400 and body["error"]
        kept = client.ok("GET", f"/api/sessions/{s['session']}")  # refused: the tab plays on
        assert (kept["name"], kept["opening"]) == ("Golf, edited again", {"seed": 4})
        assert client.act(kept, "restart")["name"] == "Golf, edited again"


def test_the_page_and_its_scripts_are_served_with_a_policy(client):
    status, raw, headers = client.raw("GET", "/")
    assert status == 200 and b'<script src="/app.js"' in raw
    assert "script-src 'self'" in headers["Content-Security-Policy"]
    assert client.raw("GET", "/app.js")[2]["Content-Type"].startswith("text/javascript")


def test_the_command_refuses_what_it_cannot_serve(tmp_path, capsys):
    assert main(["serve", str(tmp_path / "missing")]) == 1
    assert capsys.readouterr().err.strip() == f"cardz serve: {tmp_path / 'missing'}: no such file or folder"
    (tmp_path / "x.txt").write_text("")
    assert main(["serve", str(tmp_path / "x.txt")]) == 1
    assert "neither a .cardz game file nor a .html simulation report" in capsys.readouterr().err
    for bad in ("-1", str(MAX_PORT + 1)):
        assert main(["serve", "--port", bad]) == 2  # a usage error, found before any file is read
        assert capsys.readouterr().err.strip().endswith(
            f"cardz serve: error: argument --port: must be from 0 to 65,535, not {int(bad):,}")


@pytest.mark.parametrize("port", [0, MAX_PORT])  # 0: any free port; the highest port taken
def test_the_command_serves_until_stopped(tmp_path, port):
    proc = subprocess.Popen([sys.executable, "-m", "cardz_core.cli.main", "serve", "--port",
                             str(port), "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line, proc.stderr.read() if proc.stderr else ""
        url = json.loads(line)["url"]
        assert url.startswith("http://127.0.0.1:")
        assert port == 0 or url.endswith(f":{port}/") or url.endswith(f":{port}")
    finally:
        proc.terminate()
        assert proc.wait(timeout=20) == 143


@pytest.mark.parametrize("text, html", [
    ("<script>alert(1)</script>", "<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>"),
    ("a *b* **c** `<d>` _e_ snake_case", "<p>a <em>b</em> <strong>c</strong> <code>&lt;d&gt;</code> "
                                          "<em>e</em> snake_case</p>"),
    ("one\ntwo\n\nthree", "<p>one two</p>\n<p>three</p>"),
    ("- a\n- b\n  more\n\n1. c\n2. d", "<ul><li>a</li><li>b more</li></ul>\n<ol><li>c</li><li>d</li></ol>"),
    ("# Title\n```\n<b>x</b>\n```", "<h1>Title</h1>\n<pre><code>&lt;b&gt;x&lt;/b&gt;</code></pre>"),
    ('[link](javascript:alert(1)) <img src=x onerror="y">',
     "<p>[link](javascript:alert(1)) &lt;img src=x onerror=&quot;y&quot;&gt;</p>"),
    ("*`<i>`*", "<p>*<code>&lt;i&gt;</code>*</p>"),  # emphasis does not span a code span
    ("\x1b[2J", "<p>\\x1b[2J</p>"),
])
def test_rules_markdown_is_escaped_then_marked_up(text, html):
    assert to_html(text) == html


def test_every_bundled_description_renders_without_a_raw_tag():
    for path in sorted(Path(RULESETS_DIR).glob("*.cardz")):
        description = json.loads(path.read_text()).get("description", "")
        html = to_html(description)
        for tag in ("<script", "<img", "<a ", "<iframe", "href="):
            assert tag not in html, path.name


def test_compiled_games_are_reused_until_their_file_changes_and_only_so_many_are_kept(
        tmp_path, monkeypatch):
    from cardz_core.serve import catalogue as catalogue_module

    monkeypatch.setattr(catalogue_module, "SERVE_MAX_GAMES", 2)
    for name in ("a", "b"):
        shutil.copy(RULESETS_DIR / "golf.cardz", tmp_path / f"{name}.cardz")
    cat = catalogue_module.Catalogue([str(tmp_path)])
    a, b = cat.game("file-1"), cat.game("file-2")
    golf = cat.game("golf")
    game_a, lock_a = cat.compiled.get(a)
    assert cat.compiled.get(a) == (game_a, lock_a)  # the same text: the same game and lock
    game_b = cat.compiled.get(b)[0]
    assert cat.compiled.get(a)[0] is game_a  # two kept: at the limit, both stay
    cat.compiled.get(golf)  # past it: b, used longest ago, is dropped
    assert cat.compiled.get(a)[0] is game_a
    assert cat.compiled.get(b)[0] is not game_b
    data = json.loads(a.path.read_text())
    data["name"] = "Golf again"
    a.path.write_text(json.dumps(data))
    assert cat.compiled.get(a)[0].spec.name == "Golf again"


def _a_card_the_scores_send_elsewhere(game, view, rng):
    """(depot, index, that card's moves, the one `usual`'s scores rank first) for a card whose
    first legal move is not its best scored one, or None."""
    ranked = [m for _, _, m in usual.UsualPlanner(game, solve=0).ranked(game, view, rng)]
    by_card: dict[tuple[int, int], list] = {}
    for m in game.legal_moves(view):
        by_card.setdefault((m.src, m.index), []).append(m)
    for (src, index), mine in by_card.items():
        best = next((m for m in ranked if m in mine), mine[0])
        if best != mine[0]:
            return src, index, mine, best
    return None


def test_a_click_on_a_card_with_several_moves_plays_its_best_scored_move(client, monkeypatch):
    def no_solver(*args, **kwargs):
        raise AssertionError("a click asked the solver")

    monkeypatch.setattr(usual, "solve", no_solver)  # a click does not wait on a look ahead
    game = open_game("freecell")
    view = game.view(deal_ms(game, 1))
    rng = random.Random(1)
    played = []
    while (found := _a_card_the_scores_send_elsewhere(game, view, rng)) is None:
        move = rng.choice(game.legal_moves(view))  # on to a board that has such a card
        played.append(game.move_text(move))
        view = game.apply(view, move)
    src, index, mine, best = found
    s = client.start("freecell", ms=1)
    for text in played:
        client.act(s, "move", {"move": text})
    clicked = client.act(s, "click", {"depot": game.depot_names[src], "index": index})
    assert clicked["played"] == game.move_text(best) != game.move_text(mine[0])


def test_the_server_writes_no_file(tmp_path, monkeypatch):
    folder = tmp_path / "games"
    folder.mkdir()
    shutil.copy(RULESETS_DIR / "golf.cardz", folder / "mine.cardz")
    monkeypatch.chdir(tmp_path)

    def files() -> dict[str, float]:
        return {str(p): p.stat().st_mtime for p in tmp_path.rglob("*")}

    before = files()
    with serving([str(folder)]) as (_, client):
        s = client.start("file-1", seed=3)
        s = client.act(s, "step", {"planner": "usual"})
        log = client.ok("GET", f"/api/sessions/{s['session']}/log")
        client.ok("GET", f"/api/sessions/{s['session']}/board")
        client.act(s, "replay", {"log": log})
        client.ok("POST", "/api/sessions", {"game": "file-1", "log": log})
    assert files() == before


def _exchange(client, data: bytes, timeout: float = 10.0) -> bytes:
    """Send raw bytes on one connection and read until the server closes it."""
    with socket.create_connection((client.host, client.port), timeout=timeout) as conn:
        conn.sendall(data)
        got = b""
        while chunk := conn.recv(65536):
            got += chunk
        return got


def _request(client, head: str, body: bytes = b"") -> bytes:
    host = f"Host: {client.host}:{client.port}\r\n"
    return head.replace("\r\n", "\r\n" + host, 1).encode("latin-1") + body


def test_a_refused_body_is_never_read_as_the_next_request(client):
    """A request refused before its body is read, a body sent in chunks or with a GET: the
    answer closes the connection, so the body is not taken for a second request."""
    smuggled = b"GET /api/games HTTP/1.1\r\nHost: x\r\n\r\n"
    for head in (f"POST /api/sessions HTTP/1.1\r\nContent-Type: application/json\r\n"
                 f"Content-Length: {10 ** 12}\r\n\r\n",
                 "POST /api/sessions HTTP/1.1\r\nContent-Type: application/json\r\n"
                 "Transfer-Encoding: chunked\r\n\r\n",
                 f"GET /api/games HTTP/1.1\r\nContent-Length: {len(smuggled)}\r\n\r\n"):
        got = _exchange(client, _request(client, head, smuggled))
        assert got.count(b"HTTP/1.1 ") == 1 and got.startswith(b"HTTP/1.1 400"), got[:200]
        assert b"Connection: close" in got
    # a request read whole keeps its connection for the next one
    keep = _request(client, "GET /api/games HTTP/1.1\r\n\r\n")
    with socket.create_connection((client.host, client.port), timeout=10) as conn:
        conn.sendall(keep + keep)
        conn.settimeout(2)
        got = b""
        try:
            while got.count(b"HTTP/1.1 200") < 2 and (chunk := conn.recv(65536)):
                got += chunk
        except TimeoutError:
            pass
    assert got.count(b"HTTP/1.1 200") == 2


def test_a_client_that_stops_sending_is_dropped(client, monkeypatch):
    from cardz_core.serve import server as server_module

    assert SERVE_READ_SECONDS == 30.0
    monkeypatch.setattr(server_module.Handler, "timeout", 0.5)
    head = "POST /api/sessions HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n"
    started = time.monotonic()
    got = _exchange(client, _request(client, head, b'{"game"'), timeout=20)
    assert got == b"" and time.monotonic() - started < 10  # closed, not held for ever
    assert client.ok("GET", "/api/games")["games"]  # and the server serves on


def test_closing_a_session_not_open_is_a_404_and_close_takes_no_field(client):
    s = client.start("golf", seed=1)
    status, body = client.call("POST", f"/api/sessions/{s['session']}/close", {"x": 1})
    assert (status, body["problems"][0]["path"]) == (400, "/x")
    assert client.ok("DELETE", f"/api/sessions/{s['session']}") == {"closed": s["session"]}
    for method, path in (("DELETE", f"/api/sessions/{s['session']}"),
                         ("POST", f"/api/sessions/{s['session']}/close"), ("DELETE", "/api/sessions/x")):
        status, body = client.call(method, path, {} if method == "POST" else None)
        assert status == 404 and body["error"].startswith("no session"), (method, path)


def test_a_method_the_api_does_not_use_is_refused_in_json(client):
    for method in ("PUT", "PATCH", "OPTIONS"):
        status, raw, headers = client.raw(method, "/api/games")
        assert status == 405 and headers["Connection"] == "close"
        assert json.loads(raw)["error"] == (f"{method} is not a method of this server: it takes "
                                            "GET, POST and DELETE (docs/serve.md)")
    status, raw, headers = client.raw("HEAD", "/api/games")
    assert status == 405 and raw == b""  # a HEAD answer has no body
    got = _exchange(client, _request(client, "GET /api/games HTTP/1.1\r\nX: " + "a" * 70_000 +
                                     "\r\n\r\n"))
    assert got.startswith(b"HTTP/1.1 431") and got.endswith(b'{"error": "Line too long", '
                                                            b'"problems": []}\n')


def test_a_refusal_quoting_a_long_input_is_cut():
    from cardz_core.serve.server import cut

    assert cut("x" * SERVE_MAX_MESSAGE) == "x" * SERVE_MAX_MESSAGE
    assert cut("x" * (SERVE_MAX_MESSAGE + 1)) == "x" * (SERVE_MAX_MESSAGE - 1) + "…"


def test_a_megabyte_of_move_text_is_not_sent_back(client):
    s = client.start("golf", seed=1)
    status, raw, _ = client.raw("POST", f"/api/sessions/{s['session']}/move",
                                json.dumps({"move": "x" * 1_000_000}).encode(),
                                {"Content-Type": "application/json"})
    assert status == 400 and len(raw) < 4 * SERVE_MAX_MESSAGE


def test_a_log_comes_alone_whether_it_starts_a_session_or_a_new_game(client):
    s = client.start("freecell", seed=1)
    log = client.ok("GET", f"/api/sessions/{s['session']}/log")
    for extra in ({"seed": 99}, {"winnable": True}, {"ms": 99}):
        for method, path, body in (("POST", "/api/sessions", {"game": "freecell"}),
                                   ("POST", f"/api/sessions/{s['session']}/new", {})):
            status, answer = client.call(method, path, {**body, "log": log, **extra})
            assert status == 400 and answer["error"] == (f"/{next(iter(extra))}: give a log alone: "
                                                         "it says where its game starts"), path
    status, answer = client.call("POST", "/api/sessions", {"game": "freecell", "log": None})
    assert status == 400 and answer["error"] == "a log is a JSON object"  # not a seed-1 game
