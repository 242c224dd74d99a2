"""The rule-expression language: grammar (``grammar.lark``), type checker and compiler to
programs (plain data, ``program.py``), and the Python engine's closures over them
(``closure.py``). Functions come from plugins (``cardz_functions`` hook) with a declared
``Signature``."""

from cardz_core.expr.api import (GamePrograms, check_expr, check_spec, compile_expr,
                                 compile_program, compile_typed, programs_for, read_problems,
                                 rule_reads)
from cardz_core.expr.check import expressions
from cardz_core.expr.closure import closure
from cardz_core.expr.contexts import CONTEXTS
from cardz_core.expr.env import Env
from cardz_core.expr.program import Program, ProgramError
from cardz_core.signature import (GAME, KINDS, PURE, STATE, STATE_READS, Each, Function,
                                       FunctionError, Signature)
from cardz_core.expr.tables import Tables

__all__ = ["check_expr", "read_problems", "compile_expr", "compile_typed", "compile_program",
           "check_spec", "expressions", "rule_reads", "programs_for", "GamePrograms",
           "closure", "Program", "ProgramError", "CONTEXTS", "Env", "GAME", "KINDS", "PURE",
           "STATE", "STATE_READS", "Each", "Function", "FunctionError", "Signature", "Tables"]
