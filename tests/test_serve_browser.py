"""`cardz serve` in a real browser: Playwright for Python driving Debian's Chromium, headless.

The tests deal, drag a card, click one, undo, ask for a hint, play FreeCell Microsoft deal 1 to
a win along the solver's line, replay a log, play with the keyboard only, open every bundled
game, and check that the board's screenshots are not blank. `.ci/browser` installs Chromium;
where it cannot be had at all the tests are skipped, saying so.
"""

from __future__ import annotations

import base64
import json
import os
import shutil
from pathlib import Path
from typing import Any, Iterator

import pytest
from serve_helpers import Client, serving

from cardz_core.msdeal import deal_ms
from cardz_core.planners.solver import solve
from cardz_core.rulesets import RULESETS_DIR, bundled, open_game

CHROMIUM = os.environ.get("CARDZ_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
sync_api = pytest.importorskip("playwright.sync_api",
                               reason="Playwright is not installed (pip install -e '.[dev]')")
if not Path(CHROMIUM).is_file():
    pytest.skip(f"no Chromium at {CHROMIUM}: the browser tests need Debian's chromium package "
                "(bash .ci/browser installs it)", allow_module_level=True)

TIMEOUT_MS = 15_000


@pytest.fixture(scope="module")
def served() -> Iterator[tuple[str, Client]]:
    with serving() as (server, client):
        yield server.url, client


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
        yield b
        b.close()


class Page:
    """One tab of the app, failing the test on any script error in the page."""

    def __init__(self, browser: Any, url: str, client: Client, hash_: str, strict: bool) -> None:
        self.client = client
        self.errors: list[str] = []
        # the page's policy forbids evaluating strings, which Playwright's waits for a condition
        # do: a strict tab keeps the policy (and waits on elements only)
        self.context = browser.new_context(viewport={"width": 1400, "height": 1000},
                                           bypass_csp=not strict)
        self.page = self.context.new_page()
        self.page.set_default_timeout(TIMEOUT_MS)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.goto(url + "#" + hash_)
        self.page.wait_for_selector("#board .card")

    @property
    def session(self) -> str:
        return self.page.evaluate("sessionStorage.getItem('cardz-session')")

    def doc(self) -> Any:
        return self.client.ok("GET", f"/api/sessions/{self.session}")

    def wait_moves(self, n: int) -> None:
        self.page.wait_for_function(
            "n => document.getElementById('status').textContent.includes(`, ${n} moves`)", arg=n)

    def card(self, depot: str, index: int) -> Any:
        return self.page.locator(f'#board .card[data-depot="{depot}"][data-index="{index}"]')

    def centre(self, locator: Any) -> tuple[float, float]:
        box = locator.bounding_box()
        return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2

    def drag(self, source: Any, target: Any, steps: int) -> None:
        """Press on ``source``, move to ``target`` in ``steps`` steps, let go (a mouse drag)."""
        start, end = self.centre(source), self.centre(target)
        self.page.mouse.move(*start)
        self.page.mouse.down()
        self.page.mouse.move(end[0], end[1], steps=steps)
        self.page.mouse.up()

    def colours(self) -> int:
        """Distinct colours in a screenshot of the board (1 for a blank picture)."""
        shot = base64.b64encode(self.page.locator("#board").screenshot()).decode()
        return self.page.evaluate("""async (data) => {
            const img = new Image();
            img.src = 'data:image/png;base64,' + data;
            await img.decode();
            const canvas = document.createElement('canvas');
            canvas.width = img.width; canvas.height = img.height;
            const ctx = canvas.getContext('2d');
            ctx.drawImage(img, 0, 0);
            const px = ctx.getImageData(0, 0, img.width, img.height).data;
            const seen = new Set();
            for (let i = 0; i < px.length; i += 4) seen.add((px[i] << 16) | (px[i + 1] << 8) | px[i + 2]);
            return seen.size;
        }""", shot)

    def close(self) -> None:
        self.context.close()
        assert not self.errors, self.errors


@pytest.fixture
def tab(browser, served) -> Iterator[Any]:
    url, client = served
    opened: list[Page] = []

    def open_tab(hash_: str, strict: bool = False) -> Page:
        page = Page(browser, url, client, hash_, strict)
        opened.append(page)
        return page

    yield open_tab
    for page in opened:
        page.close()


def test_deal_by_seed_draws_the_board_and_the_rules(tab):
    t = tab("game=klondike&seed=3", strict=True)  # under the page's own policy
    assert t.page.locator("#board .card").count() == 52
    assert "Klondike: playing, 0 moves (seed 3)" in t.page.text_content("#status")
    assert t.page.locator("#rules li").count() >= 3
    assert not t.page.locator("#aids").is_visible()  # Klondike asks for no card aids
    first = t.doc()["board"]
    t.page.fill("#seed", "7")
    t.page.click("#deal")
    sync_api.expect(t.page.locator("#status")).to_contain_text("(seed 7)")
    assert t.doc()["board"] != first
    assert t.colours() > 20
    t.page.fill("#seed", str(2**64 - 1))  # past what a JavaScript number holds exactly
    t.page.click("#deal")
    sync_api.expect(t.page.locator("#status")).to_contain_text("(seed 1844674407370955")
    assert t.doc()["opening"] == {"seed": 2**64 - 1}
    t.page.fill("#seed", "-3")
    t.page.click("#deal")
    sync_api.expect(t.page.locator("#message")).to_have_text(
        'seed must be a whole number from 0, not "-3"')


def test_drag_a_card_click_a_card_and_undo(tab):
    t = tab("game=freecell&ms=1")
    doc = t.doc()
    move = next(m for m in doc["legal"] if "from" in m and m["to"].startswith("cell"))
    top = len(doc["board"]["depots"][move["from"]]) - 1
    assert move["index"] == top
    target = t.page.locator(f'#board .depot[data-depot="{move["to"]}"]')
    t.drag(t.card(move["from"], top), target, 8)
    t.wait_moves(1)
    after = t.doc()
    assert after["last"] == move["text"]
    assert t.card(move["to"], 0).get_attribute("data-label") == \
        doc["board"]["depots"][move["from"]][top]

    # a click sends the card where `usual`'s scores rank first among its moves
    clicked = next(m for m in after["legal"] if "from" in m)
    t.card(clicked["from"], clicked["index"]).click()
    t.wait_moves(2)
    assert t.doc()["last"] is not None

    t.page.click("#undo")
    t.page.wait_for_function("!document.getElementById('redo').disabled")
    t.page.click("#undo")
    t.page.wait_for_function("document.getElementById('undo').disabled")
    undone = t.doc()["board"]
    assert undone["depots"] == doc["board"]["depots"] and undone["counters"]["undos"] == 2


def test_a_refused_drop_shows_the_reason(tab):
    t = tab("game=klondike&seed=3")
    t.drag(t.card("column-1", 0), t.card("column-2", 1), 6)
    t.page.wait_for_function("document.getElementById('message').textContent !== ''")
    assert t.page.text_content("#message") == \
        "column-1@0>column-2 is not legal: 10C can't go on 4H on column-2"
    assert t.doc()["moves"] == 0


def test_the_hint_shows_the_planners_move(tab):
    t = tab("game=klondike&seed=5")
    t.page.select_option("#planner", "usual")
    t.page.click("#hint")
    t.page.wait_for_function("document.getElementById('hint-text').textContent.startsWith('hint:')")
    expected = t.client.act({"session": t.session}, "hint", {"planner": "usual"})["hint"]["text"]
    assert t.page.text_content("#hint-text") == f"hint: {expected}"
    assert t.page.locator("#board .hint-from").count() >= 1
    assert t.doc()["moves"] == 0


def test_play_for_me_plays_and_pauses(tab):
    t = tab("game=golf&seed=2")
    t.page.fill("#speed", "1500")  # no pause between moves
    t.page.click("#autoplay")
    t.page.wait_for_function(
        "document.getElementById('status').textContent.match(/, ([3-9]|\\d\\d+) moves/)")
    t.page.click("#autoplay")  # pause
    assert t.page.text_content("#autoplay") == "Play for me"
    paused = t.doc()["moves"]
    t.page.wait_for_timeout(300)
    assert t.doc()["moves"] == paused


def test_freecell_microsoft_deal_1_to_a_win_along_the_solvers_line(tab):
    game = open_game("freecell")
    result = solve(game, deal_ms(game, 1), max_states=2_000_000, timeout=60)
    assert result.result == "won"
    t = tab("game=freecell&ms=1")
    assert "Microsoft deal 1" in t.page.text_content("#status")
    texts = [game.move_text(m) for m in result.line]
    box = t.page.locator("#move-input")
    for n, text in enumerate(texts[:10], 1):  # the first moves typed, one by one
        box.fill(text)
        box.press("Enter")
        t.wait_moves(n)
    # the rest through the same move box in the page, without a round trip to the test per move
    played = t.page.evaluate("""async (moves) => {
        const box = document.getElementById('move-input');
        const status = document.getElementById('status');
        for (const [i, move] of moves.entries()) {
            const want = `, ${i + 11} moves`;
            box.value = move;
            document.getElementById('play-move').click();
            while (!status.textContent.includes(want)) {
                if (document.getElementById('message').textContent) return i;
                await new Promise((resolve) => setTimeout(resolve, 5));
            }
        }
        return moves.length;
    }""", texts[10:])
    assert played == len(texts) - 10, t.page.text_content("#message")
    t.page.wait_for_selector("#status.won")
    assert t.doc()["status"] == "won"
    assert t.page.text_content("#message") == "The game is won. Undo, restart or deal again."
    assert t.colours() > 20


def test_replay_a_log_forwards_and_backwards(tab):
    url_client = tab("game=klondike&seed=4")
    client = url_client.client
    s = client.start("klondike", seed=4)
    for _ in range(4):
        s = client.act(s, "move", {"move": "tap stock"})
    log = client.ok("GET", f"/api/sessions/{s['session']}/log")
    t = url_client
    t.page.fill("#replay-text", json.dumps(log))
    t.page.click("#replay-start")
    t.page.wait_for_selector("#replay-controls:not([hidden])")
    assert t.page.text_content("#replay-at") == "step 0 of 4"
    for _ in range(3):
        t.page.click("#replay-forward")
    t.page.wait_for_function("document.getElementById('replay-at').textContent === 'step 3 of 4'")
    assert len(t.doc()["board"]["depots"]["waste"]) == 3
    t.page.click("#replay-back")
    t.page.wait_for_function("document.getElementById('replay-at').textContent === 'step 2 of 4'")
    assert t.page.text_content("#replay-step") == "2. tap stock"
    assert t.page.locator('#board .card[data-depot="waste"]').count() == 2
    t.page.click("#replay-last")
    t.page.wait_for_function("document.getElementById('replay-at').textContent === 'step 4 of 4'")
    assert t.doc()["board"] == s["board"]
    t.page.click("#replay-resume")
    t.page.wait_for_selector("#replay-controls[hidden]", state="attached")
    assert t.doc()["canUndo"]


def test_quick_replay_keys_each_count(tab):
    """Keys pressed faster than the server answers step from the last step asked for."""
    t = tab("game=klondike&seed=4")
    s = t.client.start("klondike", seed=4)
    for _ in range(4):
        s = t.client.act(s, "move", {"move": "tap stock"})
    log = t.client.ok("GET", f"/api/sessions/{s['session']}/log")
    t.page.fill("#replay-text", json.dumps(log))
    t.page.click("#replay-start")
    t.page.wait_for_selector("#replay-controls:not([hidden])")
    t.page.evaluate("document.activeElement.blur()")
    # answers arrive late, the later ones sooner: as over a slow, uneven network
    t.page.evaluate("""() => {
        const real = window.fetch;
        let wait = 400;
        window.fetch = (...args) => {
            wait = Math.max(0, wait - 100);
            return new Promise((ok) => setTimeout(ok, wait)).then(() => real(...args));
        };
    }""")
    for key in ["ArrowRight"] * 3 + ["ArrowLeft"] + ["ArrowRight"] * 5:
        t.page.keyboard.press(key)
    t.page.wait_for_function("document.getElementById('replay-at').textContent === 'step 4 of 4'")
    t.page.keyboard.press("Home")
    t.page.wait_for_function("document.getElementById('replay-at').textContent === 'step 0 of 4'")
    assert t.doc()["replay"]["at"] == 0


def test_keyboard_only(tab):
    t = tab("game=klondike&seed=3")
    t.page.keyboard.press("/")  # to the move box
    t.page.keyboard.type("tap stock")
    t.page.keyboard.press("Enter")
    t.wait_moves(1)
    t.page.keyboard.type("column-1@0>column-2")
    t.page.keyboard.press("Enter")
    t.page.wait_for_function("document.getElementById('message').textContent.includes('not legal')")
    t.page.keyboard.press("Tab")  # off the box: single keys are commands
    t.page.keyboard.press("u")
    t.page.wait_for_function("document.getElementById('undo').disabled")
    assert t.doc()["board"]["depots"]["waste"] == []
    t.page.keyboard.press("h")
    t.page.wait_for_function("document.getElementById('hint-text').textContent.startsWith('hint:')")


def test_two_tabs_play_two_games(tab):
    a, b = tab("game=klondike&seed=3"), tab("game=golf&seed=1")
    assert a.session != b.session
    a.page.keyboard.press("/")
    a.page.keyboard.type("tap stock")
    a.page.keyboard.press("Enter")
    a.wait_moves(1)
    assert b.doc()["moves"] == 0 and b.doc()["name"] == "Golf"


def test_every_bundled_game_opens_and_draws(tab):
    t = tab("game=klondike&seed=1")
    for ruleset in bundled():
        t.page.select_option("#game", ruleset.path.stem)
        t.page.wait_for_function(
            "name => document.getElementById('status').textContent.startsWith(name + ':')",
            arg=ruleset.name)
        doc = t.doc()
        drawn = sum(len(d["cards"]) for d in doc["layout"]["depots"])
        assert t.page.locator("#board .card").count() == drawn, ruleset.name
        assert t.page.locator("#board .depot").count() == len(doc["layout"]["depots"])
        if doc["legal"]:  # a move is played and taken back
            played = t.client.act(doc, "move", {"move": doc["legal"][0]["text"]})
            assert played["last"] == doc["legal"][0]["text"], ruleset.name
            assert t.client.act(doc, "undo")["board"]["depots"] == doc["board"]["depots"]


def test_save_and_load_a_game(tab, tmp_path):
    t = tab("game=klondike&seed=6")
    for n in (1, 2):
        t.page.locator("#move-input").fill("tap stock")
        t.page.locator("#move-input").press("Enter")
        t.wait_moves(n)
    saved = {}
    for what in ("log", "board"):
        with t.page.expect_download() as download:
            t.page.click(f"#save-{what}")
        path = tmp_path / f"{what}.json"
        download.value.save_as(path)
        saved[what] = json.loads(path.read_text())
    assert saved["log"]["format"] == "cardz-log/1" and len(saved["log"]["steps"]) == 2
    assert saved["board"] == t.client.ok("GET", f"/api/sessions/{t.session}/board")
    t.page.click("#restart")
    t.wait_moves(0)
    t.page.set_input_files("#load-file", str(tmp_path / "log.json"))
    t.wait_moves(2)
    assert not t.page.locator("#undo").is_disabled()  # the log's moves can be taken back
    t.page.set_input_files("#load-file", str(tmp_path / "board.json"))
    sync_api.expect(t.page.locator("#undo")).to_be_disabled()
    assert t.doc()["opening"] == {"board": True}
    # the board comes back exactly, the generator's 64-bit state included
    assert t.client.ok("GET", f"/api/sessions/{t.session}/board") == saved["board"]


WILD_GAME = {
    "name": "Wild eights",
    "depots": [
        {"name": "stock", "type": "Stock", "acceptRule": "none", "ejectRule": "locked", "col": 0},
        {"name": "a", "type": "Tableau", "ejectRule": "any", "acceptRule": "none", "col": 1},
        {"name": "b", "type": "Tableau", "ejectRule": "locked", "col": 2,
         "acceptRule": {"follow": True, "wildRank": "Eight", "wildDeclares": "suit"}},
    ],
}


def test_a_drop_that_calls_a_suit_asks_which(browser, tmp_path):
    path = tmp_path / "wild.cardz"
    path.write_text(json.dumps(WILD_GAME))
    game = open_game(path)
    doc = game.board_document(game.deal(1))
    cards = [c for pile in doc["depots"].values() for c in pile]
    rest = [c if c.startswith("~") else "~" + c for c in cards
            if c.lstrip("~") not in ("8C", "5H")]
    doc["depots"] = {"stock": rest, "a": ["8C"], "b": ["5H"]}
    (tmp_path / "board.json").write_text(json.dumps(doc))
    with serving([str(path)]) as (server, client):
        t = Page(browser, server.url, client, "game=file-1&seed=1", strict=False)
        try:
            t.page.set_input_files("#load-file", str(tmp_path / "board.json"))
            sync_api.expect(t.page.locator('#board .card[data-depot="a"]')).to_have_count(1)
            asked = []

            def answer(dialog: Any) -> None:
                asked.append(dialog.message)
                dialog.accept("H")

            t.page.on("dialog", answer)
            t.drag(t.card("a", 0), t.card("b", 0), 6)
            t.wait_moves(1)
            assert asked == ["Call a suit: C, D, H, S"]
            assert t.doc()["last"] == "a@0>b=H"
        finally:
            t.close()


def test_text_from_a_game_file_is_shown_never_run(browser, tmp_path):
    data = json.loads((RULESETS_DIR / "golf.cardz").read_text())
    data["name"] = 'Golf <img src=x onerror="window.pwned=1">'
    data["description"] = ('<script>window.pwned=2</script> *rules* '
                           '<a href="javascript:window.pwned=3">x</a>\u202e')
    path = tmp_path / "nasty.cardz"
    path.write_text(json.dumps(data))
    with serving([str(path)]) as (server, client):
        t = Page(browser, server.url, client, "game=file-1&seed=1", strict=True)
        try:
            assert t.page.text_content("#status").startswith(data["name"] + ": playing")
            assert t.page.locator("#rules script, #rules a, #rules img, #status img").count() == 0
            assert t.page.locator("#rules em").text_content() == "rules"
            assert "<script>" in t.page.text_content("#rules")
            assert t.page.evaluate("window.pwned === undefined")
        finally:
            t.close()
