"""SVG card backs for マルミエール (Marumiere): the colour's shape, its area proportional to the card's size.

A Marumiere card back shows its colour's shape (red heart, blue drop, yellow
star, green clover) with an area proportional to the card's number; on screen
the engine's views give each face-down card a ``size`` (number × a factor drawn
each round), and this module draws it. Pure Python, no Django: the web pages and
anything else that needs a back call :func:`card_back_svg`.

Each shape is a polygon normalised to area 1 (see :data:`SHAPES`), drawn with
``transform="translate(cx cy) scale(k)"``. ``k`` grows with the square root of
the size, so the drawn area ``k² × area`` is proportional to the size, and the
same size has the same area in every colour. At ``max_size`` the widest shape
fills 80% of the card.
"""

from __future__ import annotations

import html
import math

SHAPE_OF = {"red": "heart", "blue": "drop", "yellow": "star", "green": "clover"}
FILL = {"red": "#d9435b", "blue": "#2f7fd8", "yellow": "#e9b10c", "green": "#2e9b57"}
MAX_SIZE = 9 * 1.15  # the largest back: a 9 drawn at the largest factor
CARD_BOX = (60, 84)  # width, height of a card in SVG units
PAPER = "#fbf6ec"
EDGE = "#b9ad98"
FILL_SHARE = 0.8  # at max_size the widest shape spans this share of the card's width


# Shapes ------------------------------------------------------------------------


def polygon_area(points: list[tuple[float, float]]) -> float:
    """The area of a simple polygon (shoelace formula)."""
    twice = 0.0
    for (x1, y1), (x2, y2) in zip(points, points[1:] + points[:1], strict=True):
        twice += x1 * y2 - x2 * y1
    return abs(twice) / 2


def _heart(steps: int = 120) -> list[tuple[float, float]]:
    """The classic parametric heart, point down (SVG's y grows downwards)."""
    points = []
    for i in range(steps):
        t = 2 * math.pi * i / steps
        x = 16 * math.sin(t) ** 3
        y = 13 * math.cos(t) - 5 * math.cos(2 * t) - 2 * math.cos(3 * t) - math.cos(4 * t)
        points.append((x, -y))
    return points


def _drop(steps: int = 120) -> list[tuple[float, float]]:
    """A teardrop, point up."""
    points = []
    for i in range(steps):
        t = 2 * math.pi * i / steps
        along, across = math.cos(t), math.sin(t) * math.sin(t / 2) ** 1.3
        points.append((across, -along))
    return points


def _star(inner: float = 0.45) -> list[tuple[float, float]]:
    """A five-pointed star, one point up."""
    points = []
    for i in range(10):
        angle = -math.pi / 2 + math.pi * i / 5
        radius = 1.0 if i % 2 == 0 else inner
        points.append((radius * math.cos(angle), radius * math.sin(angle)))
    return points


def _clover(steps: int = 160) -> list[tuple[float, float]]:
    """A four-leaf clover: four round leaves on the diagonals around a small core."""
    points = []
    for i in range(steps):
        angle = 2 * math.pi * i / steps
        radius = 0.3 + 0.7 * abs(math.cos(2 * (angle - math.pi / 4))) ** 0.6
        points.append((radius * math.cos(angle), radius * math.sin(angle)))
    return points


def _normalised(points: list[tuple[float, float]]) -> tuple[tuple[float, float], ...]:
    """The polygon centred on its bounding box and scaled to area 1, coordinates to 4 decimals."""
    xs, ys = [x for x, _ in points], [y for _, y in points]
    cx, cy = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
    scale = 1 / math.sqrt(polygon_area(points))
    return tuple((round((x - cx) * scale, 4), round((y - cy) * scale, 4)) for x, y in points)


SHAPES: dict[str, tuple[tuple[float, float], ...]] = {
    "heart": _normalised(_heart()),
    "drop": _normalised(_drop()),
    "star": _normalised(_star()),
    "clover": _normalised(_clover()),
}


def shape_area(shape: str) -> float:
    """The area of a shape's unit polygon (1 up to the rounding of its coordinates)."""
    return polygon_area(list(SHAPES[shape]))


def _extent(shape: str) -> float:
    """The larger side of a shape's unit bounding box."""
    points = SHAPES[shape]
    xs, ys = [x for x, _ in points], [y for _, y in points]
    return max(max(xs) - min(xs), max(ys) - min(ys))


WIDEST = max(_extent(shape) for shape in SHAPES)


def _number(value: float) -> str:
    """A coordinate for SVG: at most 4 decimals, no trailing zeros."""
    text = f"{value:.4f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _path(shape: str) -> str:
    """The SVG path data of a shape's unit polygon."""
    points = SHAPES[shape]
    head, *rest = points
    return f"M{_number(head[0])},{_number(head[1])}" + "".join(f"L{_number(x)},{_number(y)}" for x, y in rest) + "Z"


PATHS = {shape: _path(shape) for shape in SHAPES}


# Backs -------------------------------------------------------------------------


def shape_scale(size: float, *, max_size: float = MAX_SIZE, box: tuple[float, float] = CARD_BOX) -> float:
    """The scale ``k`` of a unit shape for this size: ``k²`` (the drawn area) is proportional to the size."""
    full = FILL_SHARE * min(box) / WIDEST
    return full * math.sqrt(size / max_size)


def card_back_svg(
    colour: str,
    size: float,
    *,
    max_size: float = MAX_SIZE,
    box: tuple[float, float] = CARD_BOX,
    frame: bool = True,
    stack: int = 0,
    label: str | None = None,
    turned: bool = False,
) -> str:
    """An inline SVG of a card back: the colour's shape with area proportional to ``size``.

    ``box`` is the card's width and height in SVG units; ``frame`` draws the
    card's edge; ``stack`` (0-3 shown) draws that many card edges under it, for
    the top of a pile; ``label`` replaces the default accessible name; ``turned`` draws the shape turned a
    quarter (a bid card turned sideways: pass a landscape ``box`` too).
    """
    if colour not in SHAPE_OF:
        raise ValueError(f"no card back for colour {colour!r}")
    if isinstance(size, bool) or not isinstance(size, (int, float)) or not 0 < size <= 10 * max_size:
        raise ValueError(f"a card back's size must be a positive number, not {size!r}")
    if max_size <= 0:
        raise ValueError("max_size must be positive")
    shape = SHAPE_OF[colour]
    width, height = box
    offset = 2 * min(max(stack, 0), 3)
    scale = shape_scale(size, max_size=max_size, box=box)
    name = label if label is not None else f"{colour} {shape}, size {size:g}"
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_number(width + offset)} {_number(height + offset)}"'
        f' width="{_number(width + offset)}" height="{_number(height + offset)}"'
        f' class="card-back card-back--{colour}" role="img" aria-label="{html.escape(name)}">',
        f"<title>{html.escape(name)}</title>",
    ]
    for k in range(offset // 2, 0, -1):
        parts.append(_card_edge(2 * k, width, height))
    if frame:
        parts.append(_card_edge(0, width, height))
    parts.append(
        f'<path class="card-back__shape" d="{PATHS[shape]}" fill="{FILL[colour]}"'
        f' transform="translate({_number(width / 2)} {_number(height / 2)}){" rotate(90)" if turned else ""}'
        f' scale({scale:.6f})"/>'
    )
    parts.append("</svg>")
    return "".join(parts)


def _card_edge(shift: float, width: float, height: float) -> str:
    """A card's rounded outline, shifted right and down by ``shift`` (cards under a pile's top)."""
    return (
        f'<rect class="card-back__card" x="{_number(shift + 0.75)}" y="{_number(shift + 0.75)}"'
        f' width="{_number(width - 1.5)}" height="{_number(height - 1.5)}" rx="{_number(min(width, height) / 10)}"'
        f' fill="{PAPER}" stroke="{EDGE}" stroke-width="1.5"/>'
    )
