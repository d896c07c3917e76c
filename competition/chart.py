"""The profile's rating chart: a small server-rendered SVG (no JavaScript), one line per game."""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.formats import number_format
from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

WIDTH, HEIGHT = 480, 160
PAD_LEFT, PAD_RIGHT, PAD_TOP, PAD_BOTTOM = 40, 10, 10, 20


def rating_chart(values: Sequence[float], *, title: str) -> SafeString:
    """An SVG line of ``values`` (oldest first) with its lowest and highest values on the axis.

    ``title`` names it for screen readers (``role="img"`` with ``<title>``); empty without values.
    """
    if not values:
        return mark_safe("")  # noqa: S308 - a constant
    low, high = min(values), max(values)
    if high - low < 1:
        low, high = low - 0.5, high + 0.5
    inner_w, inner_h = WIDTH - PAD_LEFT - PAD_RIGHT, HEIGHT - PAD_TOP - PAD_BOTTOM
    step = inner_w / max(1, len(values) - 1)

    def y(value: float) -> float:
        return PAD_TOP + inner_h * (high - value) / (high - low)

    points = " ".join(f"{PAD_LEFT + i * step:.1f},{y(v):.1f}" for i, v in enumerate(values))
    last_x, last_y = PAD_LEFT + (len(values) - 1) * step, y(values[-1])
    description = _("Rating after each of the last %(count)s rated games, from %(low)s to %(high)s.") % {
        "count": len(values), "low": number_format(min(values), 1), "high": number_format(max(values), 1),
    }
    parts = [
        format_html(
            '<svg class="rating-chart" viewBox="0 0 {} {}" width="100%" role="img" aria-labelledby="{}">',
            WIDTH, HEIGHT, _chart_id(title),
        ),
        format_html('<title id="{}">{}</title><desc>{}</desc>', _chart_id(title), title, description),
        format_html(
            '<line x1="{}" y1="{}" x2="{}" y2="{}" class="axis"/>', PAD_LEFT, PAD_TOP, PAD_LEFT, HEIGHT - PAD_BOTTOM
        ),
        format_html(
            '<line x1="{}" y1="{}" x2="{}" y2="{}" class="axis"/>',
            PAD_LEFT, HEIGHT - PAD_BOTTOM, WIDTH - PAD_RIGHT, HEIGHT - PAD_BOTTOM,
        ),
        format_html('<text x="{}" y="{}" class="label" text-anchor="end">{}</text>', PAD_LEFT - 4, PAD_TOP + 8,
                    number_format(high, 1)),
        format_html('<text x="{}" y="{}" class="label" text-anchor="end">{}</text>', PAD_LEFT - 4,
                    HEIGHT - PAD_BOTTOM, number_format(low, 1)),
        format_html('<polyline points="{}" class="line" fill="none"/>', points),
        format_html('<circle cx="{}" cy="{}" r="3" class="dot"/>', f"{last_x:.1f}", f"{last_y:.1f}"),
        mark_safe("</svg>"),  # noqa: S308 - a constant
    ]
    return mark_safe("".join(str(p) for p in parts))  # noqa: S308 - every part above is escaped


def _chart_id(title: str) -> str:
    return "chart-" + "".join(c if c.isalnum() else "-" for c in escape(title))[:40]
