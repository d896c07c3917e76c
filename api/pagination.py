"""One pagination shape for every list of the API: ``{"results": [...], "next": url|null,
"previous": url|null}``. Clients follow ``next``; the ``page`` parameter in those URLs is opaque
(a page number for some lists, a position in a history for others). No list counts its rows, so a
page costs the same whatever the length of the list (``COUNT(*)`` over a long history would not)."""

from __future__ import annotations

from django.db.models import QuerySet
from drf_spectacular.utils import OpenApiParameter
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.utils.urls import remove_query_param, replace_query_param

PAGE_PARAMETER = OpenApiParameter(
    "page",
    str,
    description="Opaque: take it from a response's `next` or `previous` URL. Missing or unknown: the first page.",
)
_PAGE_SERIALIZERS: dict[str, type[serializers.Serializer]] = {}


def page_serializer(child: type[serializers.Serializer]) -> type[serializers.Serializer]:
    """The schema of one page of ``child`` items (one component per item type)."""
    name = f"{child.__name__.removesuffix('Serializer')}Page"
    if name not in _PAGE_SERIALIZERS:
        _PAGE_SERIALIZERS[name] = type(
            name,
            (serializers.Serializer,),
            {
                "results": child(many=True),
                "next": serializers.URLField(allow_null=True, help_text="The next page, or null on the last."),
                "previous": serializers.URLField(allow_null=True, help_text="The page before, or null on the first."),
                "__module__": __name__,
            },
        )
    return _PAGE_SERIALIZERS[name]


def page_url(request: Request, token: str | None) -> str | None:
    if token is None:
        return None
    url = request.build_absolute_uri()
    return replace_query_param(url, "page", token) if token else remove_query_param(url, "page")


def page_body(request: Request, results: list, *, next_token: str | None, previous_token: str | None) -> dict:
    return {
        "results": results,
        "next": page_url(request, next_token),
        "previous": page_url(request, previous_token),
    }


def numbered_page(request: Request, queryset: QuerySet, *, per_page: int) -> tuple[list, str | None, str | None]:
    """(rows, next token, previous token) of a numbered page: ``per_page + 1`` rows fetched, no count."""
    raw = request.query_params.get("page", "")
    number = int(raw) if raw.isdigit() and 0 < len(raw) <= 6 and int(raw) > 0 else 1
    start = (number - 1) * per_page
    rows = list(queryset[start : start + per_page + 1])
    more = len(rows) > per_page
    previous = None if number == 1 else ("" if number == 2 else str(number - 1))
    return rows[:per_page], (str(number + 1) if more else None), previous
