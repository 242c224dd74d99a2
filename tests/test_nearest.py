"""The "did you mean" suggestion: the closest name, the first of equally close ones."""

from cardz_core.nearest import CLOSE, closest, did_you_mean

COPIES = ["stock", "waste"] + [f"foundation-{i}" for i in range(1, 5)] + \
    [f"column-{i}" for i in range(1, 8)]


def test_of_equally_close_names_the_first_is_suggested():
    # difflib's get_close_matches breaks ties by the larger string: 'foundation-4', 'column-7'
    assert closest("fondation", COPIES) == "foundation-1"
    assert closest("colum", COPIES) == "column-1"
    assert did_you_mean("STOK", COPIES) == " (did you mean 'stock'?)"


def test_a_closer_name_wins_over_an_earlier_one():
    assert closest("column-6x", COPIES) == "column-6"
    assert closest("foundation-3", ["foundation-1", "foundation-3"]) == "foundation-3"


def test_a_name_not_close_enough_gets_no_suggestion():
    assert closest("zzz", COPIES) is None and did_you_mean("zzz", COPIES) == ""
    # 'abcde' against 'abcxy': 3 of 5 letters match, a ratio of 0.6 exactly: close enough
    assert CLOSE == 0.6 and closest("abcde", ["abcxy"]) == "abcxy"
    assert closest("abcde", ["abxyz"]) is None  # 0.4
