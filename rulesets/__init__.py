"""The bundled rule sets, installed as package data (``cardz_core.rulesets`` lists them)."""
