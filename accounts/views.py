"""A player's own settings page and everyone's public profile."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.forms import ConfirmMovesForm, SettingsForm, time_zone_names
from accounts.models import User
from accounts.preferences import remember_language
from clocks.services import change_clock_settings


@login_required
def settings_view(request: HttpRequest) -> HttpResponse:
    form = SettingsForm(request.POST or None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        if "time_zone" in form.changed_data:
            # Quiet days follow the time zone: running clocks are re-read first, so the change counts from now on.
            change_clock_settings(user=request.user, apply=lambda locked: form.save())
            user = form.instance
        else:
            user = form.save()
        # The new language applies to this very response (the message below) and the next pages.
        translation.activate(user.language)
        request.LANGUAGE_CODE = user.language
        messages.success(request, _("Your settings are saved."))
        return remember_language(redirect("settings"), language=user.language)
    from trust.views import settings_context

    context = {
        "form": form,
        "confirm_form": ConfirmMovesForm(instance=request.user),
        "time_zones": time_zone_names(),
        **settings_context(request.user),
    }
    return render(request, "accounts/settings.html", context)


@login_required
@require_POST
def confirm_moves_view(request: HttpRequest) -> HttpResponse:
    """Save the "confirm one-tap moves" setting (its own form on the settings page)."""
    form = ConfirmMovesForm(request.POST, instance=request.user)
    if form.is_valid():
        form.save()
        messages.success(request, _("Your settings are saved."))
    else:
        messages.error(request, _("Choose one of the options."))
    return redirect(reverse("settings") + "#confirm-moves")


def profile(request: HttpRequest, username: str) -> HttpResponse:
    profile_user = get_object_or_404(User, username=username, is_active=True)
    return render(
        request,
        "accounts/profile.html",
        {
            "profile_user": profile_user,
            "is_own_profile": request.user == profile_user,
            "profile_blocked": _has_blocked(request.user, profile_user),
        },
    )


def _has_blocked(user, other) -> bool:
    from together.selectors import has_blocked

    return has_blocked(user=user, other=other)
