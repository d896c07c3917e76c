"""OPTIONS on the API: DRF's metadata describes the fields a view's serializer accepts for PUT and POST.

DRF's own ``SimpleMetadata`` fails on our views in two ways: a view without a serializer, and (for PUT) a
generic view without a ``queryset``, whose ``get_object()`` it calls to test object permissions (an
AssertionError → 500, issue 29 item 5). Our views check the object inside their handlers (a game you may not
see is a 404 there), so OPTIONS describes the input only after the view's global permissions, never an object.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import Http404
from rest_framework import exceptions
from rest_framework.metadata import SimpleMetadata
from rest_framework.request import clone_request


class SafeMetadata(SimpleMetadata):
    def determine_actions(self, request, view):
        if getattr(view, "get_serializer_class", None) is None or getattr(view, "serializer_class", None) is None:
            return {}
        actions = {}
        for method in sorted({"PUT", "POST"} & set(view.allowed_methods)):
            view.request = clone_request(request, method)
            try:
                view.check_permissions(view.request)
                actions[method] = self.get_serializer_info(view.get_serializer())
            except (exceptions.APIException, PermissionDenied, Http404):
                pass
            finally:
                view.request = request
        return actions
