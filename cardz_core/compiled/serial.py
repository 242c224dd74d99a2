"""The serialised form of compiled-game records (docs/design.md, "The compiled game").

A record is a JSON object whose ``"$"`` member names its class and whose other members are its
fields; a tuple is a JSON array; a dict (step and condition arguments, groups, aids) is a JSON
object without ``"$"``; ints, strings, bools and None are themselves; an expression program is
``{"$": "Program", "program": <Program.to_json()>}``. Decoding reads every
array back as a tuple, so ``decode(encode(x)) == x`` for every record.
"""

from __future__ import annotations

from typing import Any

import attrs

from cardz_core.compiled import records
from cardz_core.expr.program import Program, ProgramError
from cardz_core.problems import CardzError

RECORDS: dict[str, Any] = {cls.__name__: cls for cls in (
    records.ExprRef, records.BuildRule, records.AcceptTable, records.EjectTable,
    records.DrawTable, records.StepData, records.ConditionData, records.TriggerTable,
    records.ActionTable, records.ScoringTable)}
TAG = "$"


def encode(value: Any) -> Any:
    """The JSON-safe form of a record field's value."""
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, tuple):
        return [encode(v) for v in value]
    if isinstance(value, dict):
        return {k: encode(v) for k, v in value.items()}
    if isinstance(value, Program):
        return {TAG: "Program", "program": value.to_json()}
    record = RECORDS.get(type(value).__name__)
    if record is type(value):
        out: dict[str, Any] = {TAG: record.__name__}
        out.update((f.name, encode(getattr(value, f.name))) for f in attrs.fields(record))
        return out
    raise CardzError(f"a compiled game holds no {type(value).__name__} values")


def decode(value: Any) -> Any:
    """The value ``encode`` wrote."""
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, list):
        return tuple(decode(v) for v in value)
    if isinstance(value, dict):
        if TAG not in value:
            return {k: decode(v) for k, v in value.items()}
        if value[TAG] == "Program":
            try:
                return Program.from_json(value["program"])
            except (ProgramError, KeyError, TypeError, ValueError) as exc:
                raise CardzError(f"a compiled game holds a bad expression program: {exc}") from None
        cls = RECORDS.get(value[TAG])
        if cls is None:
            raise CardzError(f"a compiled game holds no {value[TAG]!r} records")
        return cls(**{k: decode(v) for k, v in value.items() if k != TAG})
    raise CardzError(f"a compiled game holds no {type(value).__name__} values")
