"""The OpenAPI schema's description of our token authentication (drf-spectacular)."""

from __future__ import annotations

from drf_spectacular.contrib.knox_auth_token import KnoxTokenScheme


class ApiTokenScheme(KnoxTokenScheme):
    target_class = "trust.tokens.ApiTokenAuthentication"
    name = "tokenAuth"
