from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET


@require_GET
def my_games_link(request: HttpRequest) -> HttpResponse:
    """The header's "My games" link with its awaiting count, fetched again by a page whose stream said
    one of the user's games changed."""
    if not request.user.is_authenticated:
        return HttpResponse(status=204)
    response = render(request, "live/_my_games_link.html")
    response["Cache-Control"] = "no-store"
    return response
