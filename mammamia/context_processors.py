from django.conf import settings
from django.http import HttpRequest


def site(request: HttpRequest) -> dict:
    """Values every page's layout needs (the awaiting-move count is added by games)."""
    context = {"DEBUG": settings.DEBUG, "LANGUAGES": settings.LANGUAGES}
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        from games.selectors import count_games_awaiting

        context["awaiting_count"] = count_games_awaiting(user=user)
    return context
