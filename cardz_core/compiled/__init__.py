"""The compiled game: ``compile(spec, registry) -> CompiledGame``, plain data every engine plays
(docs/design.md, "The compiled game")."""

from cardz_core.compiled.build import compile
from cardz_core.compiled.game import FORMAT, CompiledGame
from cardz_core.compiled.records import (AcceptTable, ActionTable, BuildRule, ConditionData,
                                         DrawTable, EjectTable, ExprRef, ScoringTable, StepData,
                                         TriggerTable)

__all__ = ["compile", "CompiledGame", "FORMAT", "AcceptTable", "ActionTable", "BuildRule",
           "ConditionData", "DrawTable", "EjectTable", "ExprRef", "ScoringTable", "StepData",
           "TriggerTable"]
