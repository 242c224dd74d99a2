"""The converters that hand our deals to fc-solve and Solvitaire (benchmarks/peer_formats.py),
and the readers of their answers. The peers themselves are not needed."""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

import pytest

from cardz_core.cli.common import open_game

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from peer_formats import (ms_fcsolve_board, ms_solvitaire_deal, parse_fcsolve,  # noqa: E402
                          parse_solvitaire, solvitaire_klondike_deal, solvitaire_klondike_rules)

KLONDIKE3 = ROOT / "rulesets" / "klondike_draw3.cardz"


def test_ms_deal_1_is_the_known_board() -> None:
    # Microsoft deal 1 as every FreeCell program shows it: its first column, bottom card first,
    # is JD KD 2S 4C 3S 6D 6S, and the eighth ends with the ten of clubs
    lines = ms_fcsolve_board(1).splitlines()
    assert len(lines) == 8
    assert lines[0] == "JD KD 2S 4C 3S 6D 6S"
    assert lines[7] == "5H 3H 3C 7S 7D TC"
    assert [len(line.split()) for line in lines] == [7, 7, 7, 7, 6, 6, 6, 6]
    assert ms_fcsolve_board(1).endswith("\n")  # fc-solve wants every column ended


def test_ms_board_holds_each_card_once() -> None:
    cards = ms_fcsolve_board(11982).split()
    assert len(set(cards)) == 52 and all(len(c) == 2 and c[0] in "A23456789TJQK" for c in cards)
    piles = ms_solvitaire_deal(11982)["tableau piles"]
    assert sum(len(p) for p in piles) == 52 and "10H" in piles[2]  # Solvitaire writes ten as 10


def test_klondike_deal_keeps_every_card_in_the_peers_order() -> None:
    game = open_game(str(KLONDIKE3))
    doc = game.board_document(game.deal(1))
    deal = solvitaire_klondike_deal(doc, game.roles)
    piles = deal["tableau piles"]
    # columns of 1 to 7 cards, bottom first: the face-down ones first, each with a lower-case
    # suit (Solvitaire's mark), the face-up one last
    assert [len(p) for p in piles] == list(range(1, 8))
    for p, ours in zip(piles, (doc["depots"][f"column-{i}"] for i in range(1, 8))):
        assert p == [c.lstrip("~") if c == ours[-1] else c[1:-1] + c[-1].lower() for c in ours]
        assert all(c[-1].islower() for c in p[:-1]) and p[-1][-1].isupper()
    assert piles[1] == ["9h", "2S"]  # deal 1's second column: the nine of hearts face-down
    # the stock is listed with the card drawn first last, as in our board
    assert deal["stock"] == [c.lstrip("~") for c in doc["depots"]["stock"]]
    every = [c.upper() for p in piles for c in p] + deal["stock"]
    assert len(every) == 52 and Counter(every) == Counter(str(c) for c in game.identity)
    # the card that our first tap turns up on top of the waste is the third from the end
    tapped = game.board_document(game.apply(game.deal(1), game.legal_moves(game.deal(1))[0]))
    assert tapped["depots"]["waste"][-1] == deal["stock"][-3]
    json.dumps(deal)  # it is plain JSON


def test_klondike_deal_refuses_a_position_the_peer_cannot_express() -> None:
    game = open_game(str(KLONDIKE3))
    doc = game.board_document(game.deal(1))
    doc["depots"]["column-3"] = [c.lstrip("~") for c in doc["depots"]["column-3"]]  # all face-up
    with pytest.raises(ValueError, match="column-3"):
        solvitaire_klondike_deal(doc, game.roles)
    doc = game.board_document(game.deal(1))
    doc["depots"]["waste"] = [doc["depots"]["stock"].pop().lstrip("~")]
    with pytest.raises(ValueError, match="waste"):
        solvitaire_klondike_deal(doc, game.roles)


def test_klondike_rules_match_ours() -> None:
    rules = solvitaire_klondike_rules(3)
    assert rules["stock"] == {"size": 24, "deal count": 3, "redeal": True}
    assert rules["foundations"]["removable"] is False  # our foundations are locked
    assert rules["tableau piles"]["spaces policy"] == "kings"


def test_answers_are_read_back() -> None:
    won = "-=-=-\n\nThis game is solveable.\nTotal number of states checked is 123.\nThis scan generated 171 states.\n"
    assert parse_fcsolve(won) == {"result": "won", "searched": 123, "stored": 171}
    assert parse_fcsolve("I could not solve this game.\nTotal number of states checked is 9.\n")["result"] == "lost"
    assert parse_fcsolve("Iterations count exceeded.\n")["result"] == "unknown"
    assert parse_fcsolve("")["result"] == "unknown"  # killed at the time budget
    out = ("Solution Type: unsolvable\nStates Searched: 27\nUnique States Searched: 20\n"
           "Final States In Cache: 20\nTime Taken (milliseconds): 0\n")
    assert parse_solvitaire(out) == {"result": "lost", "searched": 27, "stored": 20}
    assert parse_solvitaire(out.replace("unsolvable", "solved"))["result"] == "won"
    assert parse_solvitaire(out.replace("unsolvable", "timed-out"))["result"] == "unknown"
    assert parse_solvitaire("")["result"] == "unknown"


def test_bench_solver_runs_both_sides_on_the_same_deal(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import bench_solver

    # a stand-in for fc-solve that checks it got deal 1's board and answers like fc-solve
    fake = tmp_path / "fc-solve"
    fake.write_text("#!/bin/sh\nread first\n[ \"$first\" = 'JD KD 2S 4C 3S 6D 6S' ] || exit 3\n"
                    "echo 'This game is solveable.'\necho 'Total number of states checked is 40.'\n"
                    "echo 'This scan generated 50 states.'\n")
    fake.chmod(0o755)
    assert bench_solver.main(["--ms", "1", "--fc-solve", str(fake), "--json", "--timeout", "60"]) == 0
    report = json.loads(capsys.readouterr().out)
    row, summary = report["rows"][0], report["summary"]
    assert row["deal"] == 1 and row["cardz"]["result"] == "won" and row["fc-solve"]["result"] == "won"
    assert row["fc-solve"]["searched"] == 40 and row["fc-solve"]["cpu"] >= 0
    assert summary["fc-solve"]["both decided"] == 1 and summary["fc-solve"]["contradictions"] == []
    assert summary["cardz"]["won"] == 1 and summary["cardz"]["cpu median"] > 0


def test_a_resumed_run_keeps_its_rows_and_solves_only_the_rest(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    import bench_solver

    rows = tmp_path / "rows.jsonl"
    assert bench_solver.main(["--ms", "1", "--out", str(rows), "--json"]) == 0
    first = json.loads(rows.read_text())
    capsys.readouterr()
    assert bench_solver.main(["--ms", "1-2", "--out", str(rows), "--resume", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["rows"][0] == first  # kept as it was, not solved again
    assert [r["deal"] for r in report["rows"]] == [1, 2] and report["summary"]["cardz"]["won"] == 2
    assert [json.loads(line)["deal"] for line in rows.read_text().splitlines()] == [1, 2]
    rows.write_text(rows.read_text() + '{"deal": 3, "card')  # a row cut short
    with pytest.raises(SystemExit, match="rows.jsonl:3"):
        bench_solver.main(["--ms", "1-3", "--out", str(rows), "--resume"])


@pytest.mark.parametrize("memory", [False, True])
def test_a_peer_past_its_time_is_stopped(memory: bool) -> None:
    import bench_solver

    output, cpu, _ = bench_solver.run_child(["sleep", "30"], "", 0.2, memory)
    assert output == "" and cpu < 1.0  # killed, so no verdict: read as unknown


@pytest.mark.parametrize("memory", [False, True])
def test_a_peers_cpu_time_and_output_are_its_own(memory: bool) -> None:
    import bench_solver

    # the child reads its input, spends 0.2 s of its own CPU, and says so
    busy = ("import sys, time\nword = sys.stdin.read()\n"
            "while time.process_time() < 0.2:\n    pass\nprint(word)")
    output, cpu, _ = bench_solver.run_child([sys.executable, "-c", busy], "done", 30.0, memory)
    assert output.strip() == "done" and cpu >= 0.2


def test_summary_lists_contradictions_only_where_both_decided() -> None:
    import bench_solver

    def side(result: str, cpu: float) -> dict[str, object]:
        return {"result": result, "cpu": cpu, "searched": 100, "stored": 100, "peak_kib": 4000}

    rows = [{"deal": 1, "cardz": side("won", 0.2), "peer": side("won", 0.1)},
            {"deal": 2, "cardz": side("lost", 0.4), "peer": side("won", 0.1)},
            {"deal": 3, "cardz": side("unknown", 0.6), "peer": side("lost", 0.1)}]
    s = bench_solver.summarise(rows, ["peer"])
    assert s["cardz"]["won"] == 1 and s["cardz"]["lost"] == 1 and s["cardz"]["unknown"] == 1
    assert s["peer"]["both decided"] == 2
    assert s["peer"]["contradictions"] == [{"deal": 2, "cardz": "lost", "peer": "won"}]
    assert s["peer"]["cardz cpu / peer cpu (median, mean)"] == [4.0, 4.0]


def test_isolated_solve_gives_the_same_answer_and_its_memory() -> None:
    import bench_solver
    from cardz_core.solver.analysis import analysis_of

    game = open_game(str(KLONDIKE3))
    args = (game, analysis_of(game), 1, False, 10_000, 60.0)  # Klondike deal 1: lost in 20
    alone, isolated = bench_solver.solve_cardz(*args), bench_solver.solve_cardz_isolated(*args)
    assert alone["result"] == isolated["result"] == "lost"
    assert alone["stored"] == isolated["stored"] == 20
    assert isinstance(isolated["memory_kib"], int) and isolated["memory_kib"] >= 0
