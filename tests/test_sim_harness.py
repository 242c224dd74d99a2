"""The simulation harness on a tiny fake game: seeds, batching, backends, interrupts, card facts.

The fake game and its planners live here, registered through the real ``cardz_planners`` hook, so
worker processes rebuild them from the plugin name ``test_sim_harness`` and the game's text,
exactly as they rebuild a real game.
"""

from __future__ import annotations

import json
import random
from types import SimpleNamespace

import pytest
from conftest import installed

from cardz_core.cards import Card, code, unknown_code
from cardz_core.engine.state import LOST, PLAYING, WON, State
from cardz_core.hookspecs import hookimpl
from cardz_core.problems import CardzError
from cardz_core.sim.job import (Job, Variant, card_labels, compile_game, deck, rebuild_registry,
                                run_batch)
from cardz_core.sim.play import (LOST_TEXT, RESIGNED_TEXT, STUCK_TEXT, UNFINISHED_TEXT,
                                 WON_TEXT)
from cardz_core.sim.rows import RowWriter, read_rows
from cardz_core.sim.run import Collector, plan_batches, simulate
from cardz_core.sim.seeds import deal_seed, planner_seed
from cardz_core.sim.summary import Tally

PLUGIN = "test_sim_harness"
FACTORY = "test_sim_harness:build_fake"
SEAT = "test_sim_harness:FakeSeat"
TABLE, HOME, STOCK = 0, 1, 2
HOME_MOVE, ROTATE = (TABLE, -1, HOME), (TABLE, -1, TABLE)


class FakeGame:
    """Cards 0..n-2 shuffled face up on a table; card i may go home when i cards are home; the
    table may be rotated (top card to the bottom) ``patience`` times. Card n-1 lies face down on
    a stock and never moves: a dead card. Won when every table card is home; score: cards home."""

    def __init__(self, text: str, registry) -> None:
        conf = json.loads(text)
        self.n = conf["cards"]
        self.patience = conf["patience"]
        self.registry = registry  # where make_planner finds the planners
        self.spec = SimpleNamespace(name="fake")  # shown in messages
        # what the harness and make_planner read of a game
        self.identity = tuple(Card(1 + i % 13, i // 13 % 4) for i in range(self.n))
        self.n_cards = self.n
        self.roles = ("tableau", "foundation", "stock")
        self.depot_names = ("table", "home", "stock")
        self.planner_enabled = True
        self.uses_expressions = False

    def deal(self, seed: int) -> State:
        order = list(range(self.n - 1))
        random.Random(seed).shuffle(order)
        piles = (tuple(code(c, True) for c in order), (), (code(self.n - 1, False),))
        return State(piles, (-1, -1, -1), (0, 0, 0))

    def legal_moves(self, state: State) -> list[tuple[int, int, int]]:
        table, home = state.piles[TABLE], state.piles[HOME]
        moves = []
        if table and table[-1] >> 1 == len(home):
            moves.append(HOME_MOVE)
        if table and state.moves < self.patience:
            moves.append(ROTATE)
        return moves

    def apply(self, state: State, move: tuple[int, int, int]) -> State:
        if move not in self.legal_moves(state):
            raise CardzError(f"illegal move {move}")
        table, home = state.piles[TABLE], state.piles[HOME]
        after = state.copy()
        if move == HOME_MOVE:
            after.piles = (table[:-1], home + table[-1:], state.piles[STOCK])
        else:
            after.piles = (table[-1:] + table[:-1], home, state.piles[STOCK])
            after.moves = state.moves + 1
        return after

    def status(self, state: State) -> int:
        if not state.piles[TABLE]:
            return WON
        return PLAYING if self.legal_moves(state) else LOST

    def score(self, state: State) -> int:
        return len(state.piles[HOME])


class FakeSeat:
    """The true state and the player's view of it: the stock card is not known."""

    def __init__(self, game: FakeGame, state: State) -> None:
        self.game, self.state = game, state

    @property
    def view(self) -> State:
        seen = self.state.copy()
        seen.piles = self.state.piles[:STOCK] + ((unknown_code(0),),)
        return seen

    def play(self, move) -> None:
        self.state = self.game.apply(self.state, move)


class Greedy:
    def choose(self, game, view, rng):
        assert view.piles[STOCK][0] < 0, "a planner must only see the player's view"
        moves = game.legal_moves(view)
        return moves[0] if moves else None


class Wanderer:
    def choose(self, game, view, rng):
        moves = game.legal_moves(view)
        return rng.choice(moves) if moves else None


class Rotator:
    """Only ever rotates; gives up when it may not."""

    def choose(self, game, view, rng):
        return ROTATE if ROTATE in game.legal_moves(view) else None


class Interrupter:
    """Raises KeyboardInterrupt as its game number ``games_before_interrupt + 1`` (counted in
    this process) asks for its first move."""
    games = 0
    games_before_interrupt = 5

    def __init__(self, game) -> None:
        self.started = False

    def choose(self, game, view, rng):
        if not self.started:
            self.started = True
            Interrupter.games += 1
            if Interrupter.games > Interrupter.games_before_interrupt:
                raise KeyboardInterrupt
        return Greedy().choose(game, view, rng)


class Cheater:
    """Answers a move the rules do not allow."""

    def choose(self, game, view, rng):
        return (STOCK, 0, HOME)


@hookimpl
def cardz_planners(register):
    register("fake-cheat", lambda game: Cheater())
    register("fake-greedy", lambda game: Greedy())
    register("fake-random", lambda game: Wanderer())
    register("fake-rotate", lambda game: Rotator())
    register("fake-interrupt", Interrupter)


def build_fake(plugin_names, text, file):
    return FakeGame(text, rebuild_registry(plugin_names))


def fake_variant(cards=8, patience=12, name="fake") -> Variant:
    return Variant(text=json.dumps({"cards": cards, "patience": patience}), name=name)


def fake_job(planners=("fake-greedy", "fake-random"), seed=7, max_moves=200, cards=8,
             patience=12, variants=None) -> Job:
    return Job(variants=variants or (fake_variant(cards, patience),), planners=planners,
               seed=seed, max_moves=max_moves, plugin_names=(PLUGIN,), factory=FACTORY,
               seat=SEAT)


def fake_tally(job: Job, games: int) -> Tally:
    decks = [deck(v.name, build_fake(job.plugin_names, v.text, v.file)) for v in job.variants]
    return Tally(job.planners, games, decks, seed=job.seed)


def run(job: Job, games: int, out=None, **kw) -> tuple[bool, Tally]:
    tally = fake_tally(job, games)
    writer = RowWriter(out) if out else None
    try:
        interrupted = simulate(job, games, Collector(tally, writer), **kw)
    finally:
        if writer:
            writer.close()
    return interrupted, tally


def without_time(rows):
    return [{k: v for k, v in r.items() if k != "seconds"} for r in rows]


def test_seeds_are_fixed_numbers():
    # Frozen values: the derivation is part of the contract (rows must match on every machine).
    assert deal_seed(0, 0) == 8545554912343618
    assert deal_seed(42, 7) == 6581679007083323
    assert deal_seed(-1, 3) == 4614699304290547
    assert planner_seed(42, 7, "usual") == 3135376822432906
    assert deal_seed(42, 7) != deal_seed(7, 42)
    assert planner_seed(1, 2, "a") != planner_seed(1, 2, "b")


def test_plan_batches_cover_every_deal_once():
    assert plan_batches(7, 3) == [(0, 3), (3, 6), (6, 7)]
    assert plan_batches(6, 6) == [(0, 6)]


def test_rows_do_not_depend_on_workers_or_batching(tmp_path):
    job = fake_job()
    _, t1 = run(job, 24, tmp_path / "one.jsonl", workers=1, batch_size=5)
    _, t2 = run(job, 24, tmp_path / "two.jsonl", workers=2, batch_size=4)
    one, two = read_rows(tmp_path / "one.jsonl"), read_rows(tmp_path / "two.jsonl")
    assert len(one) == 48
    assert [(r["deal"], r["planner"]) for r in one] == [
        (d, p) for d in range(24) for p in ("fake-greedy", "fake-random")]
    assert without_time(one) == without_time(two)
    assert {r["result"] for r in one} == {WON_TEXT, LOST_TEXT}
    strip = lambda s: {k: v for k, v in s.items() if k != "seconds"}  # noqa: E731
    s1, s2 = t1.summary(), t2.summary()
    assert [strip(p) for p in s1["planners"].values()] == [
        strip(p) for p in s2["planners"].values()]
    assert s1["paired"] == s2["paired"] and s1["cards"] == s2["cards"]


def test_a_deal_is_the_same_whoever_plays_it():
    job = fake_job()
    rows = run_batch(job, 3, 5)
    alone = run_batch(fake_job(planners=("fake-greedy",)), 3, 5)
    assert [r["seed"] for r in rows] == [deal_seed(7, 3)] * 2 + [deal_seed(7, 4)] * 2
    assert without_time(alone) == without_time([r for r in rows if r["planner"] == "fake-greedy"])


def test_ray_backend_gives_the_same_rows(tmp_path, monkeypatch):
    ray = pytest.importorskip("ray", reason="Ray is not installed (pip install 'cardz[ray]')")
    monkeypatch.setenv("PYTHONPATH", str(__import__("pathlib").Path(__file__).parent))
    job = fake_job()
    run(job, 12, tmp_path / "local.jsonl", workers=1)
    _, tally = run(job, 12, tmp_path / "ray.jsonl", backend="ray", workers=2, batch_size=5)
    assert not ray.is_initialized()
    assert without_time(read_rows(tmp_path / "ray.jsonl")) == without_time(
        read_rows(tmp_path / "local.jsonl"))
    assert tally.deals_done == 12


def test_csv_rows_round_trip(tmp_path):
    job = fake_job()
    run(job, 6, tmp_path / "rows.csv", workers=1)
    run(job, 6, tmp_path / "rows.jsonl", workers=1)
    assert without_time(read_rows(tmp_path / "rows.csv")) == without_time(
        read_rows(tmp_path / "rows.jsonl"))


def test_card_facts_find_the_dead_card():
    job = fake_job(planners=("fake-greedy",))
    rows = run_batch(job, 0, 20)
    dead = card_labels(build_fake(job.plugin_names, job.variants[0].text, ""))[7]
    assert dead == "8C"  # rows name cards
    for row in rows:
        assert dead in row["never_moved"] and dead in row["never_foundation"]
        if row["result"] == WON_TEXT:
            assert row["never_foundation"] == [dead] and row["left"] == {}
            assert row["home"] == 7
        else:
            assert row["left"]["stock"] == [dead]
            assert set(row["left"]["table"]) | {dead} == set(row["never_foundation"])
            assert row["home"] == 7 - len(row["left"]["table"])
        assert row["score"] == 7 - len(row["never_foundation"]) + 1


def test_move_cap_leaves_the_game_unfinished():
    rows = run_batch(fake_job(planners=("fake-rotate",), max_moves=10, patience=50), 0, 3)
    assert [(r["result"], r["end"], r["moves"]) for r in rows] == [
        (UNFINISHED_TEXT, UNFINISHED_TEXT, 10)] * 3
    rows = run_batch(fake_job(planners=("fake-rotate",), max_moves=10, patience=9), 0, 1)
    assert (rows[0]["result"], rows[0]["moves"]) == (LOST_TEXT, 9)


def test_why_a_game_ended():
    # fake-rotate gives up with a move home left once it may rotate no more: resigned
    resigned = run_batch(fake_job(planners=("fake-rotate",), patience=0), 0, 30)
    assert {(r["result"], r["end"]) for r in resigned if r["end"] != LOST_TEXT} <= {
        (LOST_TEXT, RESIGNED_TEXT)}
    assert any(r["end"] == RESIGNED_TEXT for r in resigned)
    # the fake game's own rules lose it when no move is left: lost, never stuck
    greedy = run_batch(fake_job(planners=("fake-greedy",)), 0, 30)
    assert {r["end"] for r in greedy} == {WON_TEXT, LOST_TEXT}


def test_a_planner_out_of_moves_is_stuck(monkeypatch):
    # the rules no longer lose the game when no move is left: a planner without a move is stuck
    monkeypatch.setattr(FakeGame, "status",
                        lambda self, state: WON if not state.piles[TABLE] else PLAYING)
    rows = run_batch(fake_job(planners=("fake-greedy",)), 0, 30)
    assert {r["end"] for r in rows} == {WON_TEXT, STUCK_TEXT}
    assert {r["result"] for r in rows if r["end"] == STUCK_TEXT} == {LOST_TEXT}


def test_interrupt_in_this_process_keeps_finished_rows(tmp_path, monkeypatch):
    monkeypatch.setattr(Interrupter, "games", 0)
    job = fake_job(planners=("fake-greedy", "fake-interrupt"))
    interrupted, tally = run(job, 10, tmp_path / "rows.jsonl", workers=1, batch_size=4)
    assert interrupted
    rows = read_rows(tmp_path / "rows.jsonl")
    # five games of each planner, and the greedy game of the sixth deal
    assert [(r["deal"], r["planner"]) for r in rows][-2:] == [(4, "fake-interrupt"),
                                                             (5, "fake-greedy")]
    assert len(rows) == 11
    summary = tally.summary()
    assert summary["deals_done"] == 5 and not summary["complete"]
    assert summary["planners"]["fake-greedy"]["games"] == 6
    assert summary["paired"][0]["deals"] == 5


def test_interrupt_with_worker_processes_keeps_finished_rows(tmp_path):
    job = fake_job()
    full = without_time(run_batch(job, 0, 40))
    tally = fake_tally(job, 40)
    writer = RowWriter(tmp_path / "rows.jsonl")
    collector = Collector(tally, writer)
    real_add = collector.add

    def add_then_interrupt(rows):
        real_add(rows)
        if rows and rows[0]["deal"] < 4:  # Ctrl-C as the first batch comes back
            raise KeyboardInterrupt

    collector.add = add_then_interrupt
    assert simulate(job, 40, collector, workers=2, batch_size=4)
    writer.close()
    kept = without_time(read_rows(tmp_path / "rows.jsonl"))
    assert len(kept) >= 8 and len({(r["deal"], r["planner"]) for r in kept}) == len(kept)
    assert all(r in full for r in kept)
    assert tally.summary()["planners"]["fake-greedy"]["games"] == sum(
        r["planner"] == "fake-greedy" for r in kept)


def test_workers_rebuild_the_game_from_names_and_text():
    job = fake_job()
    game = build_fake(job.plugin_names, job.variants[0].text, "")
    assert game.registry.plugin_names[-1] == PLUGIN
    assert "fake-greedy" in game.registry.planners
    with pytest.raises(CardzError, match="plugin module 'no_such_plugin_module' cannot be loaded: "
                                         "ModuleNotFoundError"):
        rebuild_registry(("no_such_plugin_module",))


def test_an_entry_point_name_is_loaded_from_its_group(tmp_path, monkeypatch):
    installed(tmp_path, "fakes-dist", f"[cardz]\nfakes = {PLUGIN}\n")  # this module
    monkeypatch.syspath_prepend(str(tmp_path))
    registry = rebuild_registry(("cardz_vocabulary", "fakes"))
    assert "fake-rotate" in registry.planners and "Foundation" in registry.depot_types
    assert registry.owner("planners", "fake-rotate") == "fakes"


def test_the_default_factory_compiles_a_game_file():
    from pathlib import Path

    from cardz_core.registry import default_registry

    text = (Path(__file__).parent.parent / "rulesets" / "pocket_patience.cardz").read_text()
    game = compile_game(default_registry().plugin_names, text, "pocket_patience.cardz")
    assert game.spec.name == "Pocket Patience" and len(game.spec.cards) == 52


def test_an_illegal_move_names_the_deal_and_planner():
    with pytest.raises(CardzError, match=r"deal 2 \(seed \d+\), planner fake-cheat: .*illegal"):
        run_batch(fake_job(planners=("fake-cheat",)), 2, 3)


def test_an_unknown_planner_in_a_job_is_refused():
    with pytest.raises(CardzError, match="no planner named 'nobody'"):
        run_batch(fake_job(planners=("nobody",)), 0, 1)


def test_a_worker_error_reaches_the_caller():
    with pytest.raises(CardzError, match="planner fake-cheat"):
        run(fake_job(planners=("fake-cheat",)), 4, workers=2, batch_size=2)


def test_a_ray_task_error_reaches_the_caller_unwrapped(monkeypatch):
    pytest.importorskip("ray", reason="Ray is not installed (pip install 'cardz[ray]')")
    monkeypatch.setenv("PYTHONPATH", str(__import__("pathlib").Path(__file__).parent))
    with pytest.raises(CardzError) as err:
        run(fake_job(planners=("fake-cheat",)), 4, backend="ray", workers=1, batch_size=2)
    assert type(err.value) is CardzError and str(err.value).startswith("deal ")


def test_an_opening_difference_names_the_depot():
    from cardz_core.sim.variants import opening_difference, opening_key

    job = fake_job()
    six, eight = (build_fake(job.plugin_names, fake_variant(cards=n).text, "") for n in (6, 8))
    again = build_fake(job.plugin_names, fake_variant(cards=8, patience=3).text, "")
    assert opening_key(eight, eight.deal(5)) == opening_key(again, again.deal(5))
    assert opening_difference(eight, "eight", again, "again", 5) is None
    assert opening_key(eight, eight.deal(5)) != opening_key(six, six.deal(5))
    assert opening_difference(six, "six", eight, "eight", 5) == (
        "six deals 5 cards to table, eight deals 7")
    assert opening_difference(eight, "eight", six, "six", 5) == (
        "eight deals 7 cards to table, six deals 5")


def test_variants_of_the_fake_game_in_one_job(tmp_path):
    job = fake_job(planners=("fake-greedy",), variants=(
        fake_variant(name="tight", patience=2), fake_variant(name="loose", patience=30),
        fake_variant(name="small", cards=6)))
    _, tally = run(job, 20, tmp_path / "rows.jsonl", workers=2, batch_size=3)
    rows = read_rows(tmp_path / "rows.jsonl")
    assert [(r["deal"], r["variant"]) for r in rows] == [
        (d, v) for d in range(20) for v in ("tight", "loose", "small")]
    s = tally.summary()
    (pair,) = s["paired"]  # tight and loose deal alike; small deals other cards
    assert (pair["a"], pair["b"], pair["deals"]) == ("tight/fake-greedy", "loose/fake-greedy", 20)
    assert pair["a_only"] == 0 and pair["b_only"] > 0  # more patience never loses a deal won
    assert [(u["a"], u["b"]) for u in s["unpaired"]] == [
        ("tight/fake-greedy", "small/fake-greedy"), ("loose/fake-greedy", "small/fake-greedy")]
    assert set(s["cards"]) == {"tight", "loose", "small"} and len(s["cards"]["small"]) == 6
