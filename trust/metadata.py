"""OPTIONS on the API: DRF's metadata describes a view's serializer, and fails on a view that has none."""

from __future__ import annotations

from rest_framework.metadata import SimpleMetadata


class SafeMetadata(SimpleMetadata):
    def determine_actions(self, request, view):
        if getattr(view, "get_serializer_class", None) is None or getattr(view, "serializer_class", None) is None:
            return {}
        return super().determine_actions(request, view)
