"""On the pages of a tutorial its visitor plays, the visitor is the tutorial's guest (issue 27).

A tutorial is played by a throwaway guest user (``games.models.TutorialGuest``) so that nothing of it reaches a
real account: not its My games, its badge, its e-mails, its statistics. The visitor's session names the guest and
the tutorial games it plays (``games.tutorial.services.remember``); only on those games' page, live partial, move
and log is ``request.user`` the guest (the page's header still shows the visitor: ``request.tutorial_visitor``).
Everywhere else the visitor is who they were (signed in or not).
"""

from __future__ import annotations

from django.urls import Resolver404, resolve
from django.utils.functional import SimpleLazyObject

from games.tutorial.services import SESSION_GAMES, guest_of

GAME_PAGES = frozenset({"game", "game-table", "game-move", "game-log"})


class TutorialGuestMiddleware:
    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request):
        playing = request.session.get(SESSION_GAMES) if request.path_info.startswith("/games/") else None
        if playing:
            try:
                match = resolve(request.path_info)
            except Resolver404:
                match = None
            if match is not None and match.url_name in GAME_PAGES and match.kwargs.get("game_id") in playing:
                session, visitor = request.session, request.user
                request.user = SimpleLazyObject(lambda: guest_of(session) or visitor)
                request.tutorial_visitor = visitor  # the header shows who is really there (templates/base.html)
        return self.get_response(request)
