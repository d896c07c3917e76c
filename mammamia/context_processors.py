from django.conf import settings
from django.http import HttpRequest


class _AwaitingCount:
    """The nav badge's count, queried only if a template shows it (the layout does; the live
    partials a game page polls for do not), and once per request however often it is shown.
    Templates call a callable variable, so ``{{ awaiting_count }}`` is the number."""

    def __init__(self, request) -> None:
        self._request = request
        self._count: int | None = None

    def __call__(self) -> int:
        if self._count is None:
            # The same rows as the game page's "next game" (issue 32): one query for both.
            from games.play.next_game import awaited_game_ids

            visitor = getattr(self._request, "tutorial_visitor", None)
            if visitor is not None:  # a tutorial page, played as its guest: the header counts the visitor's games
                self._count = len(awaited_game_ids(user=visitor)) if visitor.is_authenticated else 0
            else:
                self._count = len(awaited_game_ids(user=self._request.user, request=self._request))
        return self._count


def site(request: HttpRequest) -> dict:
    """Values every page's layout needs (the awaiting-move count is added by games)."""
    context = {"DEBUG": settings.DEBUG, "LANGUAGES": settings.LANGUAGES, "LIVE_UPDATES": settings.LIVE_UPDATES,
               "LIVE_STREAM_URL": settings.LIVE_STREAM_URL}
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        context["awaiting_count"] = _AwaitingCount(request)
    return context
