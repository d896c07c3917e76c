"""The vacation page and the one-click unsubscribe."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from accounts.models import NotifyMode
from notifications import vacations
from notifications.forms import AwayForm, user_zone
from notifications.tokens import user_id_from_token


@login_required
@require_http_methods(["GET", "POST"])
def away(request: HttpRequest) -> HttpResponse:
    """Declare an absence (deadlines pause, opponents see "away"), or end it early."""
    user = request.user
    now = timezone.now()
    if request.method == "POST" and request.POST.get("action") == "back":
        vacations.set_away(user=user, until=None, now=now)
        messages.success(request, _("Welcome back! Your deadlines run again."))
        return redirect("notifications:away")
    form = AwayForm(request.POST or None, user=user, now=now)
    if request.method == "POST" and form.is_valid():
        vacations.set_away(user=user, until=form.away_until(), now=now)
        messages.success(request, _("Have a good time! Your deadlines are paused until you are back."))
        return redirect("notifications:away")
    return render(
        request,
        "notifications/away.html",
        {"form": form, "is_away": user.is_away(now=now), "away_until": user.away_until, "zone": user_zone(user)},
    )


def _unsubscribe(user) -> None:
    """Stop every e-mail about games: turn e-mails, digests, invitations, starts, ends and deadline reminders."""
    user.notify_mode = NotifyMode.NEVER
    user.deadline_reminders = False
    user.save(update_fields=["notify_mode", "deadline_reminders"])


@csrf_exempt  # the signed token is the credential; mail clients POST without a form (RFC 8058)
@never_cache
@require_http_methods(["GET", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """GET shows one button (link scanners that prefetch GETs must not unsubscribe anyone); POST unsubscribes.

    A mail client's one-click unsubscribe (``List-Unsubscribe-Post``) POSTs
    ``List-Unsubscribe=One-Click`` to the same URL and gets a plain answer.
    """
    user_id = user_id_from_token(token)
    user = get_user_model().objects.filter(pk=user_id).first() if user_id is not None else None
    if user is None:
        return render(request, "notifications/unsubscribe_invalid.html", status=400)
    if request.method == "POST":
        _unsubscribe(user)
        if request.POST.get("List-Unsubscribe") == "One-Click":
            return HttpResponse(_("You are unsubscribed."), content_type="text/plain; charset=utf-8")
        return render(request, "notifications/unsubscribe_done.html", {"subscriber": user})
    return render(
        request,
        "notifications/unsubscribe.html",
        {"subscriber": user, "already": user.notify_mode == NotifyMode.NEVER and not user.deadline_reminders},
    )
