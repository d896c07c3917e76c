"""Pages of the trust app: API tokens in the settings."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from trust import tokens


def settings_context(user) -> dict:
    """What /settings/ shows of this app: the user's API tokens."""
    return {"api_tokens": tokens.user_tokens(user), "api_tokens_allowed": tokens.has_verified_email(user)}


@never_cache
@login_required
@require_POST
def create_token(request: HttpRequest) -> HttpResponse:
    name = request.POST.get("name", "")
    try:
        row, token = tokens.issue_token(user=request.user, name=name)
    except tokens.TokenRefused as refused:
        messages.error(request, refused.message)
        return redirect("settings")
    return render(request, "trust/token_created.html", {"row": row, "token": token})


@login_required
@require_POST
def revoke_token(request: HttpRequest, token_key: str) -> HttpResponse:
    if tokens.revoke_token(user=request.user, token_key=token_key):
        messages.success(request, _("The API token is revoked."))
    return redirect("settings")
