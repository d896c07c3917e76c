"""The quiet-days page (settings): the weekdays on which a player's clocks do not run."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from clocks import services
from clocks.forms import QuietDaysForm


@login_required
@require_http_methods(["GET", "POST"])
def quiet_days(request: HttpRequest) -> HttpResponse:
    # Not ``request.POST or None``: unticking every day posts nothing, and that is a choice too.
    form = QuietDaysForm(request.POST if request.method == "POST" else None, user=request.user)
    if request.method == "POST":
        if form.is_valid():
            services.set_quiet_days(user=request.user, weekdays=form.cleaned_data["days"])
            messages.success(request, _("Your quiet days are saved. They apply to your clocks from now on."))
            return redirect("clocks:quiet-days")
        return render(request, "clocks/quiet_days.html", {"form": form}, status=400)
    return render(request, "clocks/quiet_days.html", {"form": form})
