"""Depot rules: ``acceptRule``, ``ejectRule`` and their parts, with short forms and ``$rules``."""

from __future__ import annotations

from typing import Any, Callable

from cardz_core.problems import join
from cardz_core.spec.model import AcceptRule, Build, EjectRule, Unit
from cardz_core.spec.reader import MISSING, Ctx, Obj, as_enum, as_object, as_rank, describe, suggest
from cardz_core.spec.refs import pattern
from cardz_core.spec.tables import (ACCEPT, ACCEPT_WORDS, BARE_UNITS, BUILD, EJECT, GATES,
                                    RULE_PREFIX, UNIT, WILD_DECLARES, canonical, snake)

Reader = Callable[[Ctx, Any, str, "RuleBook | None"], Any]


class RuleBook:
    """The top-level ``rules``. A rule is read where it is used, as an accept or an eject rule,
    once per use kind, so its problems are reported once at the rule's own pointer."""

    def __init__(self, ctx: Ctx, value: Any, ptr: str) -> None:
        self.entries: dict[str, tuple[Any, str]] = {}
        self._cache: dict[tuple[str, str], Any] = {}
        self._used: set[str] = set()
        if value is MISSING:
            return
        if as_object(ctx, value, ptr, "an object of named rules") is None:
            return
        for key in getattr(value, "duplicates", ()):
            ctx.error(join(ptr, key), f"rule {key!r} is written twice")
        for key, item in value.items():
            if isinstance(key, str):
                self.entries[key] = (item, join(ptr, key))
            else:
                ctx.error(ptr, f"rule names must be text, not {describe(key)}")

    def use(self, ctx: Ctx, ref: str, ptr: str, kind: str, read: Reader) -> Any:
        name = ref[len(RULE_PREFIX):]
        key = name if name in self.entries else canonical(name, tuple(self.entries))
        if key is None:
            ctx.error(ptr, f"no rule named {name!r} in 'rules'{suggest(name, list(self.entries))}")
            return None
        self._used.add(key)
        if (key, kind) not in self._cache:
            value, where = self.entries[key]
            self._cache[(key, kind)] = read(ctx, value, where, None)
        return self._cache[(key, kind)]

    def report_unused(self, ctx: Ctx) -> None:
        for name, (_, where) in self.entries.items():
            if name not in self._used:
                ctx.warn(where, f"rule {name!r} is never used")


def _rule_ref(ctx: Ctx, value: str, ptr: str, rules: RuleBook | None, kind: str,
              read: Reader) -> Any:
    if rules is None:
        ctx.error(ptr, f"a rule in 'rules' can't refer to another rule ({value!r})")
        return None
    return rules.use(ctx, value, ptr, kind, read)


def read_build(ctx: Ctx, value: Any, ptr: str) -> Build | None:
    if as_object(ctx, value, ptr, "a build object like {\"direction\": \"Down\"}") is None:
        return None
    obj = Obj(ctx, value, ptr, BUILD, "build")
    # read every field before giving up, so each problem in the object is reported
    direction, step, wrap = obj.get("direction"), obj.get("step", 1), obj.get("wrap", False)
    if direction is None:
        return None
    return Build(direction=direction, step=step, wrap=wrap, ptr=ptr)


def read_accept(ctx: Ctx, value: Any, ptr: str, rules: RuleBook | None) -> AcceptRule | None:
    if isinstance(value, str):
        if value.startswith(RULE_PREFIX):
            return _rule_ref(ctx, value, ptr, rules, "accept", read_accept)
        word = as_enum(ctx, value, ptr, ACCEPT_WORDS)
        if word is None:
            return None
        return AcceptRule(rejects_all=word == "none", empty_only=word == "emptyOnly", ptr=ptr)
    if not isinstance(value, dict):
        ctx.error(ptr, f"expected \"any\", \"none\", \"emptyOnly\", \"$rule\" or an object, "
                       f"found {describe(value)}")
        return None
    obj = Obj(ctx, value, ptr, ACCEPT, "acceptRule")
    kw: dict[str, Any] = {}
    for key in obj.keys():
        prop = ACCEPT[key]
        if prop.kind in ("bool", "int", "enum", "rank", "expr", "string"):
            got = obj.get(key)
            if got is not None:
                kw[snake(key)] = got
    if obj.has("acceptFrom"):
        kw["accept_from"] = pattern(ctx, obj.raw("acceptFrom"), obj.at("acceptFrom"))
    if obj.has("build"):
        kw["build"] = read_build(ctx, obj.raw("build"), obj.at("build"))
    if obj.has("seed"):
        seed = obj.raw("seed")
        if isinstance(seed, str) and seed.strip().lower() == "none":
            kw["seed_none"] = True
        else:
            rank = as_rank(ctx, seed, obj.at("seed"))
            if rank is not None:
                kw["seed"] = rank
    if obj.has("wildDeclares"):
        wild = obj.raw("wildDeclares")
        if isinstance(wild, bool):
            kw["wild_declares"] = "suit" if wild else "none"
        else:
            got = as_enum(ctx, wild, obj.at("wildDeclares"), WILD_DECLARES)
            if got is not None:
                kw["wild_declares"] = got
    return AcceptRule(ptr=ptr, **kw)


def read_unit(ctx: Ctx, value: Any, ptr: str) -> Unit | None:
    if isinstance(value, str):
        if value.strip().lower() == "run":
            ctx.error(ptr, "a Run unit needs its build: write {\"kind\": \"Run\", \"build\": {...}}")
            return None
        kind = as_enum(ctx, value, ptr, BARE_UNITS)
        return None if kind is None else Unit(kind, ptr=ptr)
    if not isinstance(value, dict):
        ctx.error(ptr, f"expected \"single\", \"any\", \"pile\" or a unit object, found {describe(value)}")
        return None
    obj = Obj(ctx, value, ptr, UNIT, "unit")
    kind = obj.get("kind")
    if not obj.has("kind"):
        if obj.has("build") or obj.has("suit"):
            ctx.error(join(ptr, "kind"), "missing 'kind': a unit with 'build' or 'suit' is a Run")
            return None
        kind = "Any"  # `{}` is the Any unit
    if kind is None:
        return None
    if kind != "Run":
        for key in ("build", "suit"):
            if obj.has(key):
                ctx.error(obj.at(key), f"{key!r} applies only to a Run unit, not {kind}")
        return Unit(kind, ptr=ptr)
    suit = obj.get("suit", "Any")  # read first, so a bad suit is reported beside a missing build
    if not obj.has("build"):
        ctx.error(join(ptr, "build"), "missing required property 'build' in a Run unit")
        return None
    build = read_build(ctx, obj.raw("build"), obj.at("build"))
    return Unit("Run", build=build, suit=suit, ptr=ptr)


def read_eject(ctx: Ctx, value: Any, ptr: str, rules: RuleBook | None) -> EjectRule | None:
    if isinstance(value, str):
        if value.startswith(RULE_PREFIX):
            return _rule_ref(ctx, value, ptr, rules, "eject", read_eject)
        gate = as_enum(ctx, value, ptr, GATES)
        return None if gate is None else EjectRule(gate=gate, ptr=ptr)
    if not isinstance(value, dict):
        ctx.error(ptr, f"expected a gate (\"any\", \"faceUp\", \"topOnly\", \"locked\"), \"$rule\" "
                       f"or an object, found {describe(value)}")
        return None
    obj = Obj(ctx, value, ptr, EJECT, "ejectRule")
    unit = read_unit(ctx, obj.raw("unit"), obj.at("unit")) if obj.has("unit") else None
    return EjectRule(gate=obj.get("gate", "Any"), unit=unit, ptr=ptr)

