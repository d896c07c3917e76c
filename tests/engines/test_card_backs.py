"""Marumiere card backs: the drawn area of the colour's shape follows the card's size."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from marumiere import card_backs as cb
from marumiere import engine as marumiere

SVG = "{http://www.w3.org/2000/svg}"
SIZES = [0.92, 1.0, 2.5, 4.87, 5.0, 7.36, 8.64, 9.0, 9.72]


def parse(svg: str):
    """The root element, and the shape's polygon in card coordinates (after its transform)."""
    root = ET.fromstring(svg)
    (path,) = root.iter(f"{SVG}path")
    match = re.fullmatch(r"translate\(([-\d.]+) ([-\d.]+)\) scale\(([-\d.]+)\)", path.get("transform"))
    tx, ty, k = (float(v) for v in match.groups())
    d = path.get("d")
    assert re.fullmatch(r"M[-\d.]+,[-\d.]+(L[-\d.]+,[-\d.]+)+Z", d), "a plain polygon path"
    points = [(float(x) * k + tx, float(y) * k + ty) for x, y in re.findall(r"([-\d.]+),([-\d.]+)", d)]
    return root, points, path


def area(points):
    """Shoelace area, written here independently of the module."""
    return abs(sum(x1 * y2 - x2 * y1 for (x1, y1), (x2, y2) in zip(points, points[1:] + points[:1], strict=True))) / 2


def test_each_colour_has_its_shape():
    assert cb.SHAPE_OF == {"red": "heart", "blue": "drop", "yellow": "star", "green": "clover"}
    assert cb.SHAPE_OF == marumiere.SHAPES, "the renderer and the card data agree"
    paths = {colour: parse(cb.card_back_svg(colour, 5))[2].get("d") for colour in cb.SHAPE_OF}
    assert len(set(paths.values())) == 4
    fills = {parse(cb.card_back_svg(colour, 5))[2].get("fill") for colour in cb.SHAPE_OF}
    assert len(fills) == 4


@pytest.mark.parametrize("colour", ["red", "blue", "yellow", "green"])
def test_drawn_area_is_proportional_to_size(colour):
    ratios = [area(parse(cb.card_back_svg(colour, size))[1]) / size for size in SIZES]
    assert max(ratios) / min(ratios) < 1.005, ratios
    # twice the size, twice the area
    assert area(parse(cb.card_back_svg(colour, 8))[1]) == pytest.approx(
        2 * area(parse(cb.card_back_svg(colour, 4))[1]), rel=0.005
    )


def test_same_size_same_area_in_every_colour():
    for size in (1, 5, 9.72):
        areas = [area(parse(cb.card_back_svg(colour, size))[1]) for colour in cb.SHAPE_OF]
        assert max(areas) / min(areas) < 1.005, areas


def test_area_follows_size_for_other_boxes_and_max_sizes():
    for box, max_size in (((100, 140), 9.72), ((40, 40), 12)):
        ratios = [area(parse(cb.card_back_svg("green", s, box=box, max_size=max_size))[1]) / s for s in SIZES]
        assert max(ratios) / min(ratios) < 1.005


def test_the_largest_back_fits_inside_the_card():
    for colour in cb.SHAPE_OF:
        root, points, _ = parse(cb.card_back_svg(colour, cb.MAX_SIZE))
        _, _, width, height = (float(v) for v in root.get("viewBox").split())
        xs, ys = [x for x, _ in points], [y for _, y in points]
        assert min(xs) > 0 and max(xs) < width
        assert min(ys) > 0 and max(ys) < height
        assert max(max(xs) - min(xs), max(ys) - min(ys)) > 0.5 * width, "the largest shape is not tiny"


def test_unit_shapes_have_area_one():
    for shape in cb.SHAPES:
        assert cb.shape_area(shape) == pytest.approx(1, abs=1e-3)
        assert area(list(cb.SHAPES[shape])) == pytest.approx(1, abs=1e-3)


def test_svg_is_well_formed_accessible_and_deterministic():
    svg = cb.card_back_svg("yellow", 4.87)
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    assert root.get("role") == "img" and root.get("aria-label") == "yellow star, size 4.87"
    assert root.find(f"{SVG}title").text == "yellow star, size 4.87"
    assert "card-back--yellow" in root.get("class")
    assert svg == cb.card_back_svg("yellow", 4.87)
    assert (
        ET.fromstring(cb.card_back_svg("red", 3, label='<a "quoted"> & more')).get("aria-label")
        == '<a "quoted"> & more'
    )


def test_pile_top_draws_cards_under_it_and_frame_is_optional():
    rects = lambda svg: len(list(ET.fromstring(svg).iter(f"{SVG}rect")))  # noqa: E731
    assert rects(cb.card_back_svg("blue", 3)) == 1
    assert rects(cb.card_back_svg("blue", 3, frame=False)) == 0
    assert rects(cb.card_back_svg("blue", 3, stack=2)) == 3
    assert rects(cb.card_back_svg("blue", 3, stack=99)) == 4
    top = parse(cb.card_back_svg("blue", 3, stack=2))[1]
    assert area(top) == pytest.approx(area(parse(cb.card_back_svg("blue", 3))[1]), rel=1e-6)


@pytest.mark.parametrize(
    ("colour", "size"), [("purple", 3), ("Red", 3), ("red", 0), ("red", -1), ("red", "3"), ("red", True), ("red", None)]
)
def test_refuses_unknown_colours_and_bad_sizes(colour, size):
    with pytest.raises(ValueError):
        cb.card_back_svg(colour, size)


def test_renders_what_a_view_gives():
    engine = marumiere.engine
    view = engine.view(engine.setup(3, 1), None)
    for pile in view["piles"]:
        root, points, _ = parse(cb.card_back_svg(pile["top"]["colour"], pile["top"]["size"], stack=8))
        assert area(points) > 0


def test_pure_python_no_django():
    source = Path(cb.__file__).read_text(encoding="utf-8")
    assert "django" not in source and "import random" not in source
