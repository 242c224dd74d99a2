"""The native engine's opening deal (src/engine/deal.rs) against the Python engine's: the same
position, field by field, for every bundled game and seeds of any size or sign."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardz_core.engine import Game, compile
from cardz_core.engine.state import Status
from cardz_core.native import NativeEngineGame, NativeState, extension
from cardz_core.rulesets import bundled
from cardz_core.spec import load_game

pytestmark = pytest.mark.skipif(extension() is None, reason="the native extension is not built")

GAMES = {r.path.stem: r.path for r in bundled()}
SEEDS = (0, 1, 2, 977, -1, 2**64 + 5)


def _engines(path: Path) -> tuple[Game, Game]:
    spec = load_game(path, file=str(path))
    return compile(spec, engine="python"), compile(spec, engine="native")


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_native_deal_is_the_python_engines(name: str):
    python, native = _engines(GAMES[name])
    for seed in SEEDS:
        want, got = python.deal(seed), native.deal(seed)
        assert isinstance(got, NativeState), "every bundled game's deal steps run natively"
        assert got.key() == want.key() and got == want, seed
        assert type(got.status) is Status and got.cards == want.cards


def test_a_deal_step_without_a_native_primitive_is_dealt_in_python(monkeypatch: pytest.MonkeyPatch):
    python, native = _engines(GAMES["klondike"])
    assert isinstance(native, NativeEngineGame)
    monkeypatch.setattr(native, "_deal", lambda seed: None)  # what the extension says then
    got = native.deal(5)
    assert isinstance(got, NativeState) and got == python.deal(5)
