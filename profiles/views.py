"""A player's own settings pages (settings, quiet days) and everyone's public profile."""

from __future__ import annotations

import copy

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from accounts.models import User
from accounts.preferences import remember_language
from accounts.time_zones import zone_options
from clocks.forms import QuietDaysForm
from games import clock_settings
from profiles.forms import ConfirmMovesForm, SettingsForm, TurnForm
from profiles.services import set_from_browser
from together.selectors import has_blocked
from trust.views import settings_context


@login_required
def settings_view(request: HttpRequest) -> HttpResponse:
    # The form works on a copy: validating writes the typed values onto its instance, and after a failed save
    # the page (its header's name, its language) must still show the account as it is stored.
    form = SettingsForm(request.POST or None, instance=copy.copy(request.user))
    if request.method == "POST" and form.is_valid():
        user = form.save_for(request.user)
        # The new language applies to this very response (the message below) and the next pages.
        translation.activate(user.language)
        request.LANGUAGE_CODE = user.language
        messages.success(request, _("Your settings are saved."))
        return remember_language(redirect("settings"), language=user.language)
    context = {
        "form": form,
        "time_zones": zone_options(language=translation.get_language() or "en"),
        "confirm_form": ConfirmMovesForm(instance=request.user),
        "turn_form": TurnForm(instance=request.user),
        **settings_context(request.user),
    }
    return render(request, "accounts/settings.html", context)


@login_required
@require_POST
def browser_time_zone(request: HttpRequest) -> HttpResponse:
    """The browser's own zone (``Intl``), sent by ``static/js/site.js`` while the account has none of its own
    choosing: 204 (taken, or nothing to do: the account has one already, e.g. from another tab), 400 for a name
    we do not know (the next page asks again)."""
    name = request.POST.get("time_zone", "")
    if request.user.time_zone_source or set_from_browser(user=request.user, name=name):
        return HttpResponse(status=204)
    return HttpResponse(status=400)


@login_required
@require_POST
def confirm_moves_view(request: HttpRequest) -> HttpResponse:
    """Save the "confirm one-tap moves" setting (its own form on the settings page)."""
    form = ConfirmMovesForm(request.POST, instance=request.user)
    turn = TurnForm(request.POST, instance=request.user)
    if form.is_valid() and turn.is_valid():
        form.save()
        turn.save()
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
            "profile_blocked": has_blocked(user=request.user, other=profile_user),
        },
    )



@login_required
@require_http_methods(["GET", "POST"])
def quiet_days(request: HttpRequest) -> HttpResponse:
    """The weekdays on which a player's clocks do not run."""
    # Not ``request.POST or None``: unticking every day posts nothing, and that is a choice too.
    form = QuietDaysForm(request.POST if request.method == "POST" else None, user=request.user)
    if request.method == "POST":
        if form.is_valid():
            clock_settings.set_quiet_days(user=request.user, weekdays=form.cleaned_data["days"])
            messages.success(request, _("Your quiet days are saved. They apply to your clocks from now on."))
            return redirect("clocks:quiet-days")
        return render(request, "clocks/quiet_days.html", {"form": form}, status=400)
    return render(request, "clocks/quiet_days.html", {"form": form})
