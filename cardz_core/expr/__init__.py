"""The rule-expression language: grammar (``grammar.lark``), type checker and compiler to closures.
Functions come from plugins (``cardz_functions`` hook) with a declared ``Signature``."""

from cardz_core.expr.api import (check_expr, compile_expr, compile_typed, syntax_problems,
                                  tables_for)
from cardz_core.expr.check import check_spec, expressions
from cardz_core.expr.contexts import CONTEXTS
from cardz_core.expr.env import Env
from cardz_core.expr.signature import (GAME, KINDS, PURE, STATE, Each, Function, FunctionError,
                                       Signature)
from cardz_core.expr.tables import Tables

__all__ = ["check_expr", "syntax_problems", "compile_expr", "compile_typed", "tables_for",
           "check_spec", "expressions", "CONTEXTS", "Env", "GAME", "KINDS", "PURE", "STATE", "Each", "Function",
           "FunctionError", "Signature", "Tables"]
