"""Conformance: every game in ``rulesets/`` passes these, parametrised over the folder, so a new
file is tested as soon as it is added (with its row in ``tests/data/deal_counts.json``).

Random play: ``CARDZ_CONFORMANCE_GAMES`` seeded games per file (default 6; 200 with
``CARDZ_LONG=1``), each stopped at ``MOVE_CAP`` moves. Along every game: no card is lost or
duplicated, undo gives back the exact position, a game that has no legal move has ended, and
the game's log replays to exactly the same boards.
"""

from __future__ import annotations

import json
import os
import random
from collections import Counter
from functools import lru_cache
from pathlib import Path

import pytest

from cardz_core.cards import card_id_of
from cardz_core.engine import PLAYING, Game, State, compile
from cardz_core.engine.logs import LogRecorder, replay
from cardz_core.problems import CardzError
from cardz_core.rulesets import bundled, ruleset_paths
from cardz_core.spec import load, load_game
from conftest import LONG

PATHS = ruleset_paths()
IDS = [p.stem for p in PATHS]
DEAL_COUNTS = json.loads((Path(__file__).parent / "data" / "deal_counts.json").read_text())["games"]
GAMES = int(os.environ.get("CARDZ_CONFORMANCE_GAMES", "200" if LONG else "6"))
MOVE_CAP = 300
DEAL_SEEDS = (0, 1, 2)


@lru_cache(maxsize=None)
def compiled(path: Path) -> Game:
    return compile(load_game(path))


def test_library_holds_at_least_sixty_games():
    assert len(PATHS) >= 60


def test_every_file_has_a_deal_count_row_and_no_row_is_stale():
    assert sorted(DEAL_COUNTS) == sorted(IDS)


def test_names_are_unique_and_files_snake_case():
    names = [r.name.lower() for r in bundled()]
    assert len(names) == len(set(names))
    for stem in IDS:
        assert stem == stem.lower() and " " not in stem and "-" not in stem, stem


@pytest.mark.parametrize("path", PATHS, ids=IDS)
def test_checks_clean(path: Path):
    spec, problems = load(path, file=str(path))
    assert problems == [], "\n".join(str(p) for p in problems)
    assert spec is not None


@pytest.mark.parametrize("path", PATHS, ids=IDS)
def test_description_is_written(path: Path):
    spec = load_game(path)
    assert spec.description.strip(), "a player learns the game from its description"
    assert len(spec.description.split()) >= 20


def expected_counts(game: Game, row: dict) -> tuple[dict[str, int], dict[str, int]]:
    """Per-depot counts and per-group totals from a deal-count row (format: the file's 'about')."""
    exact = {name: 0 for name in game.depot_names}
    totals: dict[str, int] = {}
    for key, value in row.items():
        if key in game.groups:
            copies = [game.depot_names[i] for i in game.groups[key]]
            if isinstance(value, list):
                assert len(value) == len(copies), f"{key}: {len(copies)} copies, {len(value)} counts"
                exact.update(zip(copies, value))
            elif "each" in value:
                exact.update((c, value["each"]) for c in copies)
            else:
                for c in copies:
                    del exact[c]
                totals[key] = value["total"]
        else:
            assert key in exact, f"the table names {key!r}, which the game does not have"
            exact[key] = value
    return exact, totals


@pytest.mark.parametrize("path", PATHS, ids=IDS)
def test_deal_leaves_the_documented_counts(path: Path):
    game = compiled(path)
    exact, totals = expected_counts(game, DEAL_COUNTS[path.stem])
    assert sum(exact.values()) + sum(totals.values()) == game.n_cards
    for seed in DEAL_SEEDS:
        state = game.deal(seed)
        got = {name: len(state.piles[i]) for i, name in enumerate(game.depot_names)}
        assert {n: got[n] for n in exact} == exact, f"seed {seed}"
        for group, total in totals.items():
            assert sum(got[game.depot_names[i]] for i in game.groups[group]) == total, f"seed {seed}"


def card_ids(state: State) -> Counter:
    return Counter(card_id_of(c) for pile in state.piles for c in pile)


def without_counters(state: State) -> tuple:
    key = list(state.key())
    key[4:6] = [None, None]  # moves, undos: undo keeps the one and counts the other
    return tuple(key)


def play_random(game: Game, seed: int) -> tuple[list[State], dict]:
    """One random game: the boards it went through, and its log."""
    state = game.deal(seed)
    full = Counter(range(game.n_cards))
    assert card_ids(state) == full, "the deal lost or duplicated a card"
    rnd = random.Random(seed)
    log = LogRecorder(game, seed=seed)
    boards = [state]
    while state.status == PLAYING and len(boards) <= MOVE_CAP:
        moves = game.legal_moves(state)
        assert moves, f"seed {seed}: no legal move but the game has not ended, after {len(boards) - 1} moves"
        move = rnd.choice(moves)
        after = game.apply(state, move)
        where = f"seed {seed}, move {len(boards)} {game.move_text(move)}"
        assert card_ids(after) == full, f"{where}: a card was lost or duplicated"
        assert after.moves == state.moves + 1
        back = game.undo(state, after)
        assert without_counters(back) == without_counters(state), f"{where}: undo is not exact"
        assert back.moves == after.moves and back.undos == after.undos + 1
        log.record(state, move, after)
        boards.append(after)
        state = after
    return boards, log.document(state)


@pytest.mark.parametrize("path", PATHS, ids=IDS)
def test_random_games_end_keep_every_card_undo_and_replay(path: Path):
    game = compiled(path)
    for seed in range(GAMES):
        boards, log = play_random(game, seed)
        replayed = replay(game, json.loads(json.dumps(log)))
        assert len(replayed) == len(boards)
        for i, (a, b) in enumerate(zip(replayed, boards)):
            assert a == b, f"seed {seed}: the replayed board {i} differs"


def test_cardz_games_lists_every_file(capsys):
    from cardz_core.cli.main import main

    assert main(["games", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert sorted(Path(g["file"]).stem for g in listed) == sorted(IDS)
    assert {"name": "Klondike", "family": "Klondike"}.items() <= next(
        g for g in listed if g["name"] == "Klondike").items()
    assert main(["games", "--family", "spider"]) == 0
    table = capsys.readouterr().out.splitlines()
    assert table[0].split()[:3] == ["name", "family", "file"]
    assert any(line.startswith("Spider (one suit)") for line in table)
    assert not any("Klondike" in line for line in table)


def test_listing_reads_the_export_wrapper_and_refuses_broken_files(tmp_path: Path):
    (tmp_path / "b.cardz").write_text('{"schemaVersion": 1, "setup": {"name": "Wrapped", "family": "X"}}')
    (tmp_path / "a.cardz").write_text('{"name": "plain", "aliases": ["p", 3]}')
    (tmp_path / "notes.txt").write_text("not a game")
    listed = bundled(tmp_path)
    assert [(r.name, r.family, r.aliases) for r in listed] == [("plain", None, ("p",)), ("Wrapped", "X", ())]
    (tmp_path / "c.cardz").write_text("{oops")
    with pytest.raises(CardzError, match="c.cardz"):
        bundled(tmp_path)
    with pytest.raises(CardzError, match="no rule-set folder"):
        bundled(tmp_path / "missing")
