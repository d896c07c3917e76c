from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from accounts.models import User


@login_required
def settings_view(request: HttpRequest) -> HttpResponse:
    return render(request, "accounts/settings.html", {})


def profile(request: HttpRequest, username: str) -> HttpResponse:
    return render(request, "accounts/profile.html", {"profile_user": get_object_or_404(User, username=username)})
