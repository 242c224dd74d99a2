"""A broken or mistaken plugin is named in a CardzError, never a traceback from inside it, and
nothing it gets wrong is silently dropped: a hook that raises, a misspelt hook, a wrapper hook, a
name no expression can call, a typo in a depot type's facts or a field's kind, a kind's compile
that fails or makes no function."""

from __future__ import annotations

import json
import re
import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any, Callable

import pytest
from conftest import installed
from spec_helpers import game

from cardz_core.cli.main import main
from cardz_core.engine import compile as compile_game
from cardz_core.expr import Function
from cardz_core.hookspecs import hookimpl
from cardz_core.kinds import Aid, ConditionKind, DepotType, Field, StepKind
from cardz_core.problems import CardzError
from cardz_core.registry import build_registry
from cardz_core.spec import load, load_game

ROOT = Path(__file__).resolve().parents[1]


def _plugin(name: str, **hooks: Callable[..., Any]) -> SimpleNamespace:
    plugin = SimpleNamespace(__name__=name)
    for hook, impl in hooks.items():
        setattr(plugin, hook, hookimpl(specname=hook)(impl))
    return plugin


def _refused(plugin: object) -> str:
    with pytest.raises(CardzError) as err:
        build_registry([plugin], entry_points=False)
    return str(err.value)


def test_a_hook_that_raises_is_named_with_its_plugin():
    def boom(register):
        raise RuntimeError("boom in hook")

    assert _refused(_plugin("loud", cardz_depot_types=boom)) == \
        "plugin 'loud', in its cardz_depot_types: RuntimeError: boom in hook"

    def licence(register):
        raise CardzError("slot types need a licence")

    assert _refused(_plugin("loud", cardz_depot_types=licence)) == \
        "plugin 'loud', in its cardz_depot_types: slot types need a licence"


def test_a_misspelt_hook_and_a_wrapper_hook_are_refused():
    misspelt = SimpleNamespace(__name__="typo")
    misspelt.cardz_condition = hookimpl(lambda register: None)  # the hook is cardz_conditions
    said = _refused(misspelt)
    assert said.startswith("plugin 'typo': ") and "cardz_condition" in said

    wrapper = SimpleNamespace(__name__="wrapping")

    def wrapped(register):
        yield
    wrapper.cardz_depot_types = hookimpl(wrapper=True)(wrapped)
    assert "its cardz_depot_types is a wrapper hook" in _refused(wrapper)


@pytest.mark.parametrize("name", ["let", "true", "in", "my-fn", "2x", ""])
def test_a_function_no_expression_could_call_is_refused(name):
    fn = Function.of(("number",), "number", lambda n: n)
    said = _refused(_plugin("names", cardz_functions=lambda register: register(name, fn)))
    assert f"'names' registers functions name {name!r}: " in said
    assert ("no expression could call it" in said) == bool(name)


def test_a_name_that_is_not_text_is_refused():
    said = _refused(_plugin("numbers", cardz_depot_types=lambda register:
                            register(42, DepotType("reserve"))))
    assert said == "'numbers' registers depot_types name 42: a name is a non-empty text"


@pytest.mark.parametrize("facts, said", [
    ({"role": "cel"}, "a depot type's role is one of"),
    ({"role": "cell", "parks": "cells"}, "a depot type's parks is one of '', 'cell', 'column', "
                                         "not 'cells'"),
    ({"role": "tableau", "default_fan": "Sideways"}, "a depot type's default_fan is one of"),
])
def test_a_typo_in_a_depot_types_facts_is_refused(facts, said):
    with pytest.raises(ValueError, match=said):
        DepotType(**facts)
    # made inside the hook, it is the plugin's error, named
    refused = _refused(_plugin("facts", cardz_depot_types=lambda register:
                               register("Slot", DepotType(**facts))))
    assert refused.startswith("plugin 'facts', in its cardz_depot_types: ValueError: " + said)


def test_facts_are_read_in_any_case_and_kept_in_the_formats_spelling():
    made = DepotType("Cell", default_fan="down", parks="CELL")
    assert (made.role, made.default_fan, made.parks) == ("cell", "Down", "cell")
    with pytest.raises(ValueError, match="a field's kind is one of .*not 'integer'"):
        Field("integer")


WOBBLE = game(name="Wobble", dealRules=[{"kind": "dealGroup", "to": "column", "faceDown": 1},
                                         {"kind": "wobble", "depot": "column-1"}])


def _wobble(compile: Callable[..., Any]) -> Any:
    kind = StepKind({"depot": Field("depot", required=True)}, compile=compile)
    return build_registry([_plugin("wobbly", cardz_deal_steps=lambda register:
                                   register("wobble", kind))], entry_points=False)


def _own_words(step, game):
    raise CardzError("the wobble step can't be played here", step.ptr)


def _fails(step, game):
    raise RuntimeError("wobbled over")


@pytest.mark.parametrize("compile, said", [
    (_own_words, "/dealRules/1: the wobble step can't be played here"),
    (_fails, "/dealRules/1: deal step 'wobble' (plugin 'wobbly') failed to compile: "
             "RuntimeError: wobbled over"),
    (lambda step, game: None, "/dealRules/1: deal step 'wobble' (plugin 'wobbly') compiled to "
                              "NoneType, not a function"),
])
def test_a_kinds_compile_that_fails_is_an_error_at_the_step(compile, said):
    registry = _wobble(compile)
    spec = load_game(WOBBLE, registry=registry)
    with pytest.raises(CardzError) as err:
        compile_game(spec, registry, engine="python")
    assert str(err.value) == said


def test_a_condition_whose_compile_makes_nothing_is_not_dropped():
    kind = ConditionKind({}, compile=lambda cond, game: None, uses=frozenset({"loss"}))
    registry = build_registry([_plugin("never", cardz_conditions=lambda register:
                                       register("never", kind))], entry_points=False)
    spec = load_game({**WOBBLE, "dealRules": WOBBLE["dealRules"][:1],
                      "lossCondition": {"kind": "never"}}, registry=registry)
    with pytest.raises(CardzError, match="/lossCondition: condition 'never' \\(plugin 'never'\\) "
                                         "compiled to NoneType, not a function"):
        compile_game(spec, registry, engine="python")


# A plugin installed as a distribution, run as a user runs cardz: in a process of its own.
WOBBLE_PLUGIN = '''from cardz_core.hookspecs import hookimpl
from cardz_core.kinds import Field, StepKind
from cardz_core.problems import CardzError


def _compile(step, game):
    """Wobble a depot."""
    raise CardzError("the wobble step can't be played here", step.ptr)


@hookimpl
def cardz_deal_steps(register):
    register("wobble", StepKind({"depot": Field("depot", required=True)}, compile=_compile))
'''


def _cardz(site: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CARDZ_")}
    env["PYTHONPATH"] = os.pathsep.join([str(site), str(ROOT)])
    env["CARDZ_NO_CACHE"] = "1"
    code = f"import sys; from cardz_core.cli.main import main; sys.exit(main({list(argv)!r}))"
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                          cwd=site, timeout=120)


def test_check_reports_what_a_kinds_compile_refuses(tmp_path: Path):
    installed(tmp_path, "wobbly", "[cardz]\nwobbly = wobbly_plugin\n",
              {"wobbly_plugin": WOBBLE_PLUGIN})
    game = tmp_path / "wobble.cardz"
    game.write_text(json.dumps(WOBBLE))
    done = _cardz(tmp_path, "check", "--json", str(game))
    assert done.returncode == 1, done.stderr  # it checked clean, and every command then failed
    assert json.loads(done.stdout) == [{"file": str(game), "path": "/dealRules/1",
                                        "message": "the wobble step can't be played here",
                                        "severity": "error"}]
    schema = json.loads(_cardz(tmp_path, "schema").stdout)
    assert "wobble: Wobble a depot." in [a.get("description") for a in
                                         schema["$defs"]["step"]["anyOf"]]


def test_a_plugin_that_cannot_be_imported_is_named(tmp_path: Path):
    installed(tmp_path, "gone", "[cardz]\ngone = no_such_module_xyz\n")
    done = _cardz(tmp_path, "check", "klondike")
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert "plugin 'gone:gone' (module no_such_module_xyz) cannot be loaded: " \
           "ModuleNotFoundError: No module named 'no_such_module_xyz'" in done.stderr


def test_a_plugin_module_inside_a_package_keys_the_cache_by_the_whole_package(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    # the package's other modules hold code the plugin calls: an edit there must change the key
    package = tmp_path / "cachepkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "defs.py").write_text("def hi(card):\n    return 1\n")
    (package / "hooks.py").write_text("from cachepkg.defs import hi\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    registry = build_registry(["cachepkg.hooks"], entry_points=False)
    assert registry.sources is not None and registry.sources[-1] == str(package)


def test_a_native_primitive_is_named_only_with_its_meaning():
    # the native engine checks only how many arguments a call has: (depot) -> number on
    # depot_named, whose meaning is (text) -> depot, played there as a depot named by a text
    wrong = Function.of(("depot",), "number", lambda d: 0, native="depot_named")
    said = _refused(_plugin("natives", cardz_functions=lambda register: register("nf", wrong)))
    assert said == ("'natives' registers functions name 'nf' with an overload (depot) -> number "
                    "that names the native primitive 'depot_named', which means (text) -> depot")
    right = Function.of(("text",), "depot", lambda name: -1, native="depot_named")
    registry = build_registry([_plugin("natives", cardz_functions=lambda register:
                                       register("named", right))], entry_points=False)
    assert registry.owner("functions", "named") == "natives"


def _answering(answer: Any, kind: str, when: str) -> tuple[Any, Any]:
    """A game whose columns accept when ``when`` holds, calling the plugin function ``odd``
    (a depot -> ``kind``) that answers ``answer``; with its registry."""
    wrong = Function.of(("depot",), kind, lambda d: answer)
    registry = build_registry([_plugin("answers", cardz_functions=lambda register:
                                       register("odd", wrong))], entry_points=False)
    doc = game(name="Odd", rules={"col": {"when": when}})
    doc["depots"][2]["acceptRule"] = "$col"
    return doc, registry


@pytest.mark.parametrize("answer, kind", [(1.5, "number"), ("abc", "number"), (1, "bool"),
                                          (None, "depot")])
def test_a_plugin_function_answering_another_kind_is_named_on_both_engines(answer, kind):
    # a text for a number was a TypeError on the Python engine, and read on the native one,
    # which listed moves: the engines disagreed
    test = {"number": "odd(source) == 1", "bool": "odd(source)", "depot": "odd(source) == source"}
    doc, registry = _answering(answer, kind, test[kind])
    spec = load_game(doc, registry=registry)
    said = f"plugin 'answers''s function 'odd' returned {answer!r}, not a {kind}"
    for engine in ("python", "native"):
        played = compile_game(spec, registry, engine=engine)
        with pytest.raises(CardzError, match=re.escape(said)):
            state = played.deal(1)
            for _ in range(20):  # until a move drops a card on a column, which asks odd()
                state = played.apply(state, played.legal_moves(state)[0])


def test_a_plugin_functions_answer_of_another_kind_worked_out_when_loading_is_named_there():
    doc, registry = _answering(1.5, "number", "odd(depot) == 1")  # depot: known per column
    spec, problems = load(doc, registry=registry)
    assert spec is None and [(p.path, p.message) for p in problems] == [
        ("/rules/col/when", "column 1: plugin 'answers''s function 'odd' returned 1.5, not a "
                            "number")]


@pytest.mark.parametrize("make, said", [
    (lambda: StepKind({}, reads={"rgn"}), "a step kind's reads are words of counters, "
                                          "expressions, rng, not 'rgn'"),
    (lambda: ConditionKind({}, reads={"pile"}), "a condition kind's reads are words of counters, "
                                                "expressions, faces, moves, piles, not 'pile'"),
    (lambda: Aid("integer"), "an aid's value_kind is one of 'bool', 'int', 'string', not "
                             "'integer'"),
])
def test_a_kinds_reads_and_an_aids_value_kind_are_words_it_knows(make, said):
    # a misspelt reads word hid what the kind reads from the solver's key; an aid's unknown
    # value kind handed the game file's value through unchecked
    with pytest.raises(ValueError, match=re.escape(said)):
        make()


def test_the_plugin_docs_step_example_runs_as_written(tmp_path: Path, monkeypatch):
    # the example lacked its imports and its registration: it could not run as written
    text = (ROOT / "docs" / "plugins.md").read_text()
    block = text.split("```python\nfrom typing import Callable\n", 1)[1].split("```", 1)[0]
    (tmp_path / "turn_one_plugin.py").write_text("from typing import Callable\n" + block)
    monkeypatch.syspath_prepend(str(tmp_path))
    registry = build_registry(["turn_one_plugin"], entry_points=False)
    doc = game(name="Turn one", dealRules=[{"kind": "dealGroup", "to": "column", "faceDown": 1},
                                           {"kind": "turnOne", "to": "waste"}])
    played = compile_game(load_game(doc, registry=registry), registry, engine="python")
    waste = played.deal(1).piles[played.depot_index["waste"]]
    assert len(waste) == 1 and waste[0] & 1  # one card, face up
