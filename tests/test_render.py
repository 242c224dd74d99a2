"""`cardz render`: where the layout puts depots and cards, and the SVG drawn from it."""

import json
import math
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from cardz_core.board_layout import (CARD_HEIGHT, CARD_WIDTH, FAN_FACE_DOWN, FAN_FACE_UP, GRID_X,
                                     GRID_Y, RADIAL_STEP, place_pile, spot)
from cardz_core.board_svg import BACK_COLOURS, UNKNOWN_BACK, render_svg
from cardz_core.cli.common import open_game
from cardz_core.cli.main import main
from cardz_core.engine import compile
from cardz_core.engine.documents import board_document
from cardz_core.spec import load_game

SVG = "{http://www.w3.org/2000/svg}"
UP, DOWN = 1, 0  # the face bit of a card code: card id 0, face up or down


def spec_with(pile: dict, **game_fields):
    """A game whose depot "pile" has the given fields, beside a stock kept off the table."""
    return load_game({
        "name": "Layout test", **game_fields,
        "depots": [{"name": "stock", "type": "Stock", "offTable": True},
                   {"name": "pile", "type": "Reserve", **pile}],
        "winCondition": {"kind": "depotsEmpty", "depots": "stock"},
    })


def placed(pile: dict, codes, **game_fields):
    spec = spec_with(pile, **game_fields)
    return place_pile(spec.depots[1], spec, codes)


def centre(p):
    return p.x + CARD_WIDTH / 2, p.y + CARD_HEIGHT / 2


def test_a_depot_sits_in_its_grid_cell_and_x_y_win():
    assert spot(spec_with({"col": 2, "row": 1.5}).depots[1]) == (2 * GRID_X, 1.5 * GRID_Y)
    assert spot(spec_with({"col": 2, "row": 1, "x": 30, "y": 40}).depots[1]) == (30, 40)


def test_repeated_copies_step_right_and_wrap_by_per_row():
    spec = spec_with({"col": 1, "row": 0, "repeat": 5, "perRow": 2})
    spots = [spot(d) for d in spec.depots[1:]]
    assert spots == [(GRID_X, 0), (2 * GRID_X, 0), (GRID_X, GRID_Y), (2 * GRID_X, GRID_Y),
                     (GRID_X, 2 * GRID_Y)]


def test_a_fan_steps_by_the_face_of_the_card_below():
    ps = placed({"fanDirection": "Down"}, [DOWN, DOWN, UP, UP])
    assert [p.y for p in ps] == [0, FAN_FACE_DOWN, 2 * FAN_FACE_DOWN, 2 * FAN_FACE_DOWN + FAN_FACE_UP]
    assert {p.x for p in ps} == {0}
    right = placed({"fanDirection": "Right", "x": 10, "y": 20}, [UP, UP])
    assert [(p.x, p.y) for p in right] == [(10, 20), (10 + FAN_FACE_UP, 20)]
    up = placed({"fanDirection": "Up", "row": 2}, [UP, UP])
    assert [p.y for p in up] == [2 * GRID_Y, 2 * GRID_Y - FAN_FACE_UP]
    left = placed({"fanDirection": "Left", "x": 100, "y": 0}, [UP, UP])
    assert [p.x for p in left] == [100, 100 - FAN_FACE_UP]


def test_a_squared_pile_keeps_every_card_on_its_spot():
    ps = placed({"col": 1}, [UP, DOWN, UP])
    assert {(p.x, p.y) for p in ps} == {(GRID_X, 0)}


def test_fan_offsets_come_from_the_depot_then_the_game():
    game_level = placed({"fanDirection": "Down"}, [DOWN, UP, UP],
                        fanOffsetFaceUp=30, fanOffsetFaceDown=5)
    assert [p.y for p in game_level] == [0, 5, 35]
    own = placed({"fanDirection": "Down", "fanOffsetFaceUp": 12}, [DOWN, UP, UP],
                 fanOffsetFaceUp=30, fanOffsetFaceDown=5)
    assert [p.y for p in own] == [0, 5, 17]


def test_a_fan_window_fans_only_the_top_cards():
    ps = placed({"fanDirection": "Right", "fanWindow": 2}, [UP] * 5)
    assert [p.x for p in ps] == [0, 0, 0, 0, FAN_FACE_UP]
    whole = placed({"fanDirection": "Right", "fanWindow": 9}, [UP] * 3)
    assert [p.x for p in whole] == [0, FAN_FACE_UP, 2 * FAN_FACE_UP]


def test_the_fan_anchor_says_which_card_stays_on_the_spot():
    top = placed({"fanDirection": "Right", "fanAnchor": "Top"}, [UP] * 3)
    assert [p.x for p in top] == [-2 * FAN_FACE_UP, -FAN_FACE_UP, 0]
    middle = placed({"fanDirection": "Right", "fanAnchor": "Center"}, [UP] * 3)
    assert [p.x for p in middle] == [-FAN_FACE_UP, 0, FAN_FACE_UP]


def test_an_angle_turns_the_fan_about_the_spot():
    ps = placed({"fanDirection": "Down", "angle": math.pi / 2}, [UP, UP])
    (x0, y0), (x1, y1) = centre(ps[0]), centre(ps[1])
    assert (x0, y0) == pytest.approx((CARD_WIDTH / 2, CARD_HEIGHT / 2))
    assert (x1 - x0, y1 - y0) == pytest.approx((-FAN_FACE_UP, 0))  # "down" now points left
    assert [p.rotation for p in ps] == pytest.approx([math.pi / 2] * 2)


def test_a_radial_hand_is_an_arc_centred_on_the_spot():
    ps = placed({"fanDirection": "Radial"}, [UP] * 3)
    assert [p.rotation for p in ps] == pytest.approx([-RADIAL_STEP, 0, RADIAL_STEP])
    assert (ps[1].x, ps[1].y) == pytest.approx((0, 0))
    (lx, ly), (rx, ry) = centre(ps[0]), centre(ps[2])
    assert lx + rx == pytest.approx(CARD_WIDTH) and ly == pytest.approx(ry)
    assert ly > CARD_HEIGHT / 2  # the outer cards dip below the upright middle one
    turned = placed({"fanDirection": "Radial", "angle": math.pi}, [UP] * 3)  # upside down
    assert [p.rotation for p in turned] == pytest.approx([math.pi - RADIAL_STEP, math.pi,
                                                          math.pi + RADIAL_STEP])
    assert centre(turned[0])[1] < CARD_HEIGHT / 2 and centre(turned[1])[1] == pytest.approx(CARD_HEIGHT / 2)
    base = placed({"fanDirection": "Radial", "fanAnchor": "Base", "fanWindow": 1}, [UP] * 3)
    assert [p.rotation for p in base] == pytest.approx([0, RADIAL_STEP, 2 * RADIAL_STEP])


def _parse(svg: str):
    root = ET.fromstring(svg)
    cards = [g for g in root.iter(SVG + "g") if g.get("class") == "card"]
    return root, cards


def klondike():
    return open_game("rulesets/klondike.cardz")


def test_the_svg_draws_every_card_on_the_table_with_its_notation():
    game = klondike()
    state = game.deal(3)
    drawing = render_svg(game, state)
    root, cards = _parse(drawing.svg)
    doc = board_document(game, state)
    assert drawing.cards == 52 and len(cards) == 52
    titles = [g.find(SVG + "title").text for g in cards]
    assert titles == [c for pile in doc["depots"].values() for c in pile]
    depots = [g.find(SVG + "title").text for g in root.iter(SVG + "g") if g.get("class") == "depot"]
    assert depots == list(doc["depots"])
    assert root.get("width") == str(drawing.width) and root.get("height") == str(drawing.height)
    assert "Klondike \u2014 playing, 0 moves" in drawing.svg


def test_the_picture_holds_every_card():
    game = open_game("rulesets/crazy_quilt.cardz")  # turned depots and a squared stock
    drawing = render_svg(game, game.deal(1))
    left, top, width, height = map(float, ET.fromstring(drawing.svg).get("viewBox").split())
    for g in _parse(drawing.svg)[1]:
        x, y = map(float, g.get("transform").split("(")[1].split(")")[0].split())
        assert left <= x and x + min(CARD_WIDTH, CARD_HEIGHT) <= left + width
        assert top <= y and y + min(CARD_WIDTH, CARD_HEIGHT) <= top + height


def test_off_table_depots_are_not_drawn():
    game = open_game("rulesets/freecell.cardz")
    drawing = render_svg(game, game.deal(1))
    assert drawing.cards == 52
    assert "<title>stock</title>" not in drawing.svg and "<title>cell-1</title>" in drawing.svg


def test_a_view_draws_unknown_cards_as_backs_marked_unknown():
    game = klondike()
    state = game.deal(3)
    svg = render_svg(game, game.view(state)).svg
    _, cards = _parse(svg)
    titles = [g.find(SVG + "title").text for g in cards]
    assert titles.count("~?") == 45 and len(titles) == 52
    assert "~AD" not in svg  # the view holds no hidden identity, so neither does its picture
    backs = {g.find(SVG + "rect").get("fill") for g in cards if g.find(SVG + "title").text == "~?"}
    assert backs == {UNKNOWN_BACK}


def test_face_down_cards_show_the_back_of_their_pack():
    game = open_game("rulesets/spider.cardz")  # two packs: backs 1 and 2
    _, cards = _parse(render_svg(game, game.deal(0)).svg)
    fills = {}
    for g in cards:
        fills.setdefault(g.find(SVG + "title").text.startswith("~"), set()).add(
            g.find(SVG + "rect").get("fill"))
    assert fills[True] == set(BACK_COLOURS.values()) and fills[False] == {"#ffffff"}


def test_texts_from_the_game_file_are_escaped():
    spec = load_game({"name": "A <b>&</b> game",
                      "depots": [{"name": "stock", "type": "Stock"}],
                      "winCondition": {"kind": "depotsEmpty", "depots": "stock"}})
    game = compile(spec)
    svg = render_svg(game, game.deal(0)).svg
    assert ET.fromstring(svg).find(SVG + "title").text == "A <b>&</b> game"


def test_the_command_writes_the_file_and_reports_it(tmp_path, capsys):
    board = tmp_path / "b.json"
    assert main(["deal", "rulesets/klondike.cardz", "--seed", "3"]) == 0
    board.write_text(capsys.readouterr().out)
    out = tmp_path / "k.svg"
    assert main(["render", "rulesets/klondike.cardz", "--board", str(board), "-o", str(out),
                 "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["file"] == str(out) and report["cards"] == 52
    assert ET.fromstring(out.read_text()).get("width") == str(report["width"])
    assert main(["render", "rulesets/klondike.cardz", "--board", str(board), "-o", "-"]) == 0
    assert capsys.readouterr().out == out.read_text()


def test_the_command_refuses_bad_input_and_writes_nothing(tmp_path, capsys):
    out = tmp_path / "k.svg"
    bad = json.dumps({"format": "cardz-board/1", "depots": {"stock": ["AS", "AS"]}})
    assert main(["render", "rulesets/klondike.cardz", "--board", bad, "-o", str(out)]) == 1
    assert "AS" in capsys.readouterr().err and not out.exists()
    good = tmp_path / "b.json"
    assert main(["deal", "rulesets/klondike.cardz", "--seed", "3"]) == 0
    good.write_text(capsys.readouterr().out)
    assert main(["render", "rulesets/klondike.cardz", "--board", str(good), "-o", "-", "--json"]) == 2
    assert "give -o a file" in capsys.readouterr().err
    nowhere = tmp_path / "missing" / "k.svg"
    assert main(["render", "rulesets/klondike.cardz", "--board", str(good), "-o", str(nowhere)]) == 1
    assert "no such directory" in capsys.readouterr().err


BUNDLED = sorted((Path(__file__).resolve().parent.parent / "rulesets").glob("*.cardz"))


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: p.stem)
def test_every_bundled_game_draws(path):
    game = open_game(str(path))
    state = game.deal(0)
    drawing = render_svg(game, state)
    _, cards = _parse(drawing.svg)
    on_table = sum(len(p) for d, p in zip(game.spec.depots, state.piles) if not d.off_table)
    assert len(cards) == drawing.cards == on_table
