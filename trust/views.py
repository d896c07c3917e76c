"""Pages of the trust app: API tokens, data export and account deletion, from the settings."""

from __future__ import annotations

from allauth.core import ratelimit
from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from games.exceptions import GameError
from trust import account, invites, tokens
from trust.forms import DeleteAccountForm, deletion_attempt_allowed


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


@never_cache
@login_required
@require_GET
def data_export(request: HttpRequest) -> HttpResponse:
    """Download my data: a JSON archive of the account, its settings and every game played."""
    data = account.export_data(request.user)
    response = JsonResponse(data, json_dumps_params={"ensure_ascii": False, "indent": 1})
    stamp = timezone.now().strftime("%Y%m%d")
    response["Content-Disposition"] = f'attachment; filename="mammamia-{request.user.pk}-{stamp}.json"'
    return response


@never_cache
@login_required
def delete_account(request: HttpRequest) -> HttpResponse:
    """Delete my account, after the password (allauth's login rate limits apply to the guessing)."""
    form = DeleteAccountForm(request.POST or None, user=request.user)
    if request.method == "POST":
        if not deletion_attempt_allowed(request):
            return ratelimit.respond_429(request)
        if form.is_valid():
            account.delete_account(user=request.user)
            logout(request)
            messages.success(request, _("Your account is deleted. Thank you for playing."))
            return redirect("home")
    return render(request, "trust/delete_account.html", {"form": form}, status=400 if form.errors else 200)


@login_required
@require_POST
def create_invite_link(request: HttpRequest, game_id: int) -> HttpResponse:
    try:
        invites.create_link(user=request.user, game_id=game_id)
    except GameError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("A new invitation link is ready below."))
    return redirect("game", game_id)


@login_required
@require_POST
def revoke_invite_link(request: HttpRequest, game_id: int, link_id: int) -> HttpResponse:
    try:
        invites.revoke_link(user=request.user, game_id=game_id, link_id=link_id)
    except GameError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("The invitation link no longer works."))
    return redirect("game", game_id)
