"""Mutated bundled games through the whole way a game is used: load, compile, deal and a few
moves. Whatever the file says, nothing but ``CardzError`` comes out, and every problem has a
JSON pointer. A short run by default; ``CARDZ_LONG=1`` runs many more examples."""

from __future__ import annotations

import copy
import json
import os
import random
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardz_core.engine.game import compile as compile_game
from cardz_core.problems import CardzError
from cardz_core.spec import load

ROOT = Path(__file__).parent.parent
SOURCES = sorted((ROOT / "rulesets").glob("*.cardz"))
GAMES = [json.loads(p.read_text(encoding="utf-8")) for p in SOURCES]
EXAMPLES = 20_000 if os.environ.get("CARDZ_LONG") == "1" else 150
MOVES = 6

# numbers a hostile file would try: past every limit, past 64 bits, past a double
NUMBERS = st.one_of(
    st.integers(-3, 300), st.sampled_from([2**31, 2**53, 2**63, -2**63, 2**64, 10**18, 10**30,
                                           10**400, -10**400, 10**6, 10**9]),
    st.floats(allow_nan=False, allow_infinity=False), st.sampled_from([1e308, -1e308, 0.5, -0.0]),
)
JUNK = st.one_of(
    NUMBERS, st.none(), st.booleans(), st.text(max_size=8),
    st.sampled_from(["", "@self", "column", "Foundation", "none", "King", "stock", "Any",
                     "moves * moves * moves", "count(column) * 99999999"]),
    st.builds(list), st.builds(dict), st.builds(lambda: {"kind": "dealGroup"}),
)  # fresh containers each draw: a shared one would carry damage from one example to the next


def _slots(node: Any, out: list) -> list:
    """Every (container, key) inside ``node``: the places a mutation can change."""
    if isinstance(node, dict):
        for k, v in node.items():
            out.append((node, k))
            _slots(v, out)
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out.append((node, i))
            _slots(v, out)
    return out


@st.composite
def mutant(draw: Any) -> Any:
    doc = copy.deepcopy(draw(st.sampled_from(GAMES)))
    for _ in range(draw(st.integers(1, 3))):
        slots = _slots(doc, [])
        container, key = draw(st.sampled_from(slots))
        old = container[key]
        if isinstance(old, (int, float)) and not isinstance(old, bool) and draw(st.booleans()):
            container[key] = draw(NUMBERS)  # most limits are on numbers: change them most
        elif isinstance(container, dict) and draw(st.integers(0, 5)) == 0:
            del container[key]
        else:
            container[key] = draw(JUNK)
    if draw(st.integers(0, 30)) == 0:
        doc = draw(JUNK)  # a file that is not a game object at all
    return doc


def play(doc: Any, as_text: bool, seed: int) -> None:
    """Load, compile, deal and make a few moves; CardzError is the only refusal allowed."""
    source = json.dumps(doc) if as_text or not isinstance(doc, dict) else doc
    spec, problems = load(source)
    # every problem at a JSON pointer: "" is the whole document
    assert all(p.path == "" or p.path.startswith("/") for p in problems), problems
    if spec is None:
        return
    game = compile_game(spec)
    state = game.deal(seed)
    rng = random.Random(seed)
    for _ in range(MOVES):
        game.status(state)
        game.score(state)
        game.load_board(game.board_document(state))
        moves = game.legal_moves(state)
        if not moves:
            break
        state = game.apply(state, rng.choice(moves))


@settings(max_examples=EXAMPLES, deadline=None, derandomize=os.environ.get("CARDZ_LONG") != "1",
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(mutant(), st.booleans(), st.integers(0, 2**64 - 1))
def test_mutated_games_are_refused_or_played_never_crash(doc, as_text, seed):
    try:
        play(doc, as_text, seed)
    except CardzError as exc:
        assert exc.problems and all(p.message for p in exc.problems)
