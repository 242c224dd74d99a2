"""Random damage to valid game files: the loader reports problems, it never raises."""

import copy
import json
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardz_core.problems import Problem
from cardz_core.spec import load

ROOT = Path(__file__).parent.parent
SOURCES = sorted((ROOT / "tests" / "data" / "spec").glob("*.cardz")) + sorted((ROOT / "rulesets").glob("*.cardz"))
GAMES = [json.loads(p.read_text()) for p in SOURCES]

JUNK = st.one_of(
    st.none(), st.booleans(), st.integers(-10**6, 10**6), st.floats(allow_nan=False),
    st.text(max_size=8), st.sampled_from(["", "@self", "$x", "column", "Foundation", "-", "none",
                                          "King", "faceUp", "single", "stock", "Any"]),
    st.builds(list), st.builds(dict), st.builds(lambda: [1, "a", None]),
    st.builds(lambda: {"kind": "move"}),
)  # fresh containers each draw: a shared one would carry damage from one example to the next


def _containers(node, out):
    """Every dict and list inside ``node`` (including itself)."""
    if isinstance(node, dict):
        out.append(node)
        for v in node.values():
            _containers(v, out)
    elif isinstance(node, list):
        out.append(node)
        for v in node:
            _containers(v, out)
    return out


@st.composite
def damaged(draw):
    doc = copy.deepcopy(draw(st.sampled_from(GAMES)))
    for _ in range(draw(st.integers(1, 4))):
        target = draw(st.sampled_from(_containers(doc, [])))
        action = draw(st.sampled_from(["delete", "retype", "rename", "insert"]))
        if isinstance(target, dict):
            if not target or action == "insert":
                target[draw(st.text(min_size=1, max_size=6))] = draw(JUNK)
                continue
            key = draw(st.sampled_from(sorted(target)))
            if action == "delete":
                del target[key]
            elif action == "retype":
                target[key] = draw(JUNK)
            else:
                target[draw(st.sampled_from([key.upper(), key + "x", key[:-1] or "k"]))] = target.pop(key)
        else:
            if target and action == "delete":
                target.pop(draw(st.integers(0, len(target) - 1)))
            elif target and action in ("retype", "rename"):
                target[draw(st.integers(0, len(target) - 1))] = draw(JUNK)
            else:
                target.append(draw(JUNK))
    return doc


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(damaged(), st.booleans())
def test_damaged_files_give_problems_not_exceptions(doc, as_text):
    source = json.dumps(doc) if as_text else doc
    spec, problems = load(source)
    assert all(isinstance(p, Problem) and (p.path == "" or p.path.startswith("/")) for p in problems)
    assert (spec is None) == any(p.severity == "error" for p in problems)


@settings(max_examples=50, deadline=None)
@given(st.text(max_size=200))
def test_any_text_gives_problems_not_exceptions(text):
    spec, problems = load(text)
    assert spec is None and problems
