"""The game object as a whole: top-level properties, values, scoring, planner and aids."""

from __future__ import annotations

from typing import Any

from cardz_core import cards
from cardz_core.kinds import Aid
from cardz_core.problems import join
from cardz_core.spec.decks import expand, read_decks
from cardz_core.spec.depots import prescan, read_depots
from cardz_core.spec.model import GameSpec, PlannerSpec, Scoring
from cardz_core.spec.reader import (Ctx, Obj, as_bool, as_int, as_object, as_string,
                                    describe, suggest)
from cardz_core.spec.rules import RuleBook
from cardz_core.spec.steps import read_condition, read_steps
from cardz_core.spec.tables import PLANNER, SCORING, TOP

JOKER_KEY = "joker"


def _read_values(ctx: Ctx, value: Any, ptr: str) -> dict[str, int]:
    """``values``: rank (any way a rank is written) or ``joker`` -> a whole number; keys are stored
    as the rank letters ``A`` ... ``K`` and ``joker``."""
    out: dict[str, int] = {}
    if as_object(ctx, value, ptr, "an object of card values like {\"K\": 10}") is None:
        return out
    for key, number in value.items():
        where = join(ptr, key)
        if not isinstance(key, str):
            ctx.error(ptr, f"property names must be text, not {describe(key)}")
            continue
        if key.strip().lower() == JOKER_KEY:
            name = JOKER_KEY
        else:
            rank = cards.parse_rank(key)
            if rank is None:
                ctx.error(where, f"{key!r} is not a rank (A, 2 ... 10, J, Q, K) or 'joker'")
                continue
            name = cards.RANK_LETTERS[rank]
        if name in out:
            ctx.error(where, f"the value of {name!r} is given twice")
            continue
        got = as_int(ctx, number, where)
        if got is not None:
            out[name] = got
    return out


def _read_aids(ctx: Ctx, value: Any, ptr: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if as_object(ctx, value, ptr, "an object of card aids") is None:
        return out
    for key, item in value.items():
        where = join(ptr, key)
        name = ctx.registry.canonical("aids", key) if isinstance(key, str) else None
        if name is None:
            known = list(ctx.registry.aids)
            message = f"unknown card aid {key!r}{suggest(key, known)}"
            (ctx.warn if ctx.lenient else ctx.error)(where, message)
            continue
        aid = ctx.registry.lookup("aids", name)
        assert isinstance(aid, Aid)  # the aids table holds only Aids (registry.TABLE_TYPES)
        if aid.value_kind == "int":
            got: Any = as_int(ctx, item, where)
        elif aid.value_kind == "bool":
            got = as_bool(ctx, item, where)
        else:  # "string", the last of kinds.AID_VALUES
            got = as_string(ctx, item, where)
        if got is not None:
            out[name] = got
    return out


def _read_scoring(ctx: Ctx, value: Any, ptr: str) -> Scoring | None:
    if as_object(ctx, value, ptr, "a scoring object like {\"value\": \"...\"}") is None:
        return None
    obj = Obj(ctx, value, ptr, SCORING, "scoring")
    with ctx.reading("scoring"):
        expr = obj.get("value")
    if expr is None:
        return None
    return Scoring(value=expr, better=obj.get("better", "High"), keep=obj.get("keep", "Won"), ptr=ptr)


def _read_planner(ctx: Ctx, value: Any, ptr: str) -> PlannerSpec:
    """``true``/``false``, or an object (which also opts in) whose ``value`` ranks boards."""
    if isinstance(value, bool):
        return PlannerSpec(enabled=value, ptr=ptr)
    if not isinstance(value, dict):
        ctx.error(ptr, f"expected true, false or an object, found {describe(value)}")
        return PlannerSpec(ptr=ptr)
    obj = Obj(ctx, value, ptr, PLANNER, "planner")
    with ctx.reading("planner"):
        expr = obj.get("value")
    return PlannerSpec(enabled=True, value=expr, ptr=ptr)


def read_game(ctx: Ctx, data: Any, ptr: str, text: str) -> GameSpec | None:
    if not isinstance(data, dict):
        # at the document's own pointer: "" for a whole file (RFC 6901), as a file that is not
        # JSON is; `cardz check` shows it as `/`
        ctx.error(ptr, f"expected the game object, found {describe(data)}")
        return None
    obj = Obj(ctx, data, ptr, TOP, "the game")
    depots_raw = obj.raw("depots")
    prescan(ctx, depots_raw)
    rules = RuleBook(ctx, obj.raw("rules"), obj.at("rules"))
    depots = read_depots(ctx, depots_raw, obj.at("depots"), rules) if obj.has("depots") else ()
    rules.report_unused(ctx)
    packs = read_decks(ctx, obj.raw("decks"), obj.at("decks"))
    depot_only = bool(obj.get("depotOnly", False))
    kw: dict[str, Any] = {}
    for key, attr in (("dealRules", "deal"), ("redealRules", "redeal")):
        if obj.has(key):
            kw[attr] = read_steps(ctx, obj.raw(key), obj.at(key))
    for key, attr, use in (("winCondition", "win", "win"), ("lossCondition", "loss", "loss"),
                           ("redealWhen", "redeal_when", "redeal")):
        if obj.has(key):
            kw[attr] = read_condition(ctx, obj.raw(key), obj.at(key), use, depot_only)
    if obj.has("values"):
        kw["values"] = _read_values(ctx, obj.raw("values"), obj.at("values"))
    if obj.has("aids"):
        kw["aids"] = _read_aids(ctx, obj.raw("aids"), obj.at("aids"))
    if obj.has("scoring"):
        kw["scoring"] = _read_scoring(ctx, obj.raw("scoring"), obj.at("scoring"))
    if obj.has("planner"):
        kw["planner"] = _read_planner(ctx, obj.raw("planner"), obj.at("planner"))
    for key, attr in (("description", "description"), ("family", "family"), ("aliases", "aliases"),
                      ("maxRedeals", "max_redeals"), ("compoundMoves", "compound_moves"),
                      ("tools", "tools"), ("anchor", "anchor"), ("fanOffsetFaceUp", "fan_offset_face_up"),
                      ("fanOffsetFaceDown", "fan_offset_face_down")):
        got = obj.get(key)
        if got is not None:
            kw[attr] = got
    name = obj.get("name")
    if ctx.failed or name is None:
        return None
    return GameSpec(name=name, depots=depots, packs=packs, cards=expand(packs), groups=dict(ctx.groups),
                    depot_only=depot_only, text=text, ptr=ptr, **kw)
