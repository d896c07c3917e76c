"""Strict JSON fields: a number is a JSON integer, a string a JSON string, a flag true or false.

DRF's fields coerce (``"1"``, ``1.0`` and ``true`` pass as the integer 1, an integer passes as a
UUID); an API whose engines refuse a move of the wrong type (``../shared/rules/ENGINE.md``) refuses
such input too, with 400 — and its messages never echo the Python value that was sent.
"""

from __future__ import annotations

import uuid

from django.utils.translation import gettext_lazy as _
from rest_framework import serializers


class StrictIntegerField(serializers.IntegerField):
    default_error_messages = {"invalid": _("A whole number is required (a JSON integer, not text, true or 1.0).")}

    def to_internal_value(self, data):
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictCharField(serializers.CharField):
    default_error_messages = {"invalid": _("Text is required (a JSON string).")}

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictChoiceField(serializers.ChoiceField):
    """One of the choices, of the choices' own JSON type (``"24"`` is not the choice 24)."""

    default_error_messages = {"invalid_choice": _("This is not one of the allowed values.")}

    def to_internal_value(self, data):
        for key in self.choices:
            if type(key) is type(data) and key == data:
                return key
        self.fail("invalid_choice")


class StrictBooleanField(serializers.BooleanField):
    default_error_messages = {"invalid": _("true or false is required.")}

    def to_internal_value(self, data):
        if not isinstance(data, bool):
            self.fail("invalid")
        return data


class StrictUUIDField(serializers.UUIDField):
    default_error_messages = {"invalid": _("A UUID is required, as text (e.g. “3f2c…-…”).")}

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("invalid")
        try:
            return uuid.UUID(data)
        except ValueError:
            self.fail("invalid")


class JsonObjectField(serializers.DictField):
    default_error_messages = {"not_a_dict": _("A JSON object is required.")}

    def to_internal_value(self, data):
        if not isinstance(data, dict):
            self.fail("not_a_dict")
        return super().to_internal_value(data)
