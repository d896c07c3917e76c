"""The pages of guided first games (issue 27): start one, pass a reading step, and the real game against bots
at its end. The tutorial itself is played on the ordinary game page (its box is the ``tutorial`` panel)."""

from __future__ import annotations

from django.contrib.auth import login
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse
from django.utils.translation import get_language
from django.views.decorators.http import require_POST

from games.models import Game
from games.registry import tutorial_of
from games.tutorial import services
from games.tutorial_script import progress


@require_POST
def start(request: HttpRequest, slug: str) -> HttpResponse:
    """ "Learn by playing": a new tutorial of ``slug`` for this visitor, with or without an account."""
    if tutorial_of(slug) is None:
        raise Http404
    guest = services.guest_of(request.session) or services.new_guest(language=get_language() or "en")
    game = services.start_tutorial(slug=slug, guest=guest)
    services.remember(request.session, guest=guest, game=game)
    return HttpResponseRedirect(reverse("game", args=[game.pk]))


def _tutorial_of_session(request: HttpRequest, game_id: int) -> Game:
    if game_id not in request.session.get(services.SESSION_GAMES, []):
        raise Http404
    game = Game.objects.filter(pk=game_id, is_tutorial=True).first()
    if game is None:
        raise Http404
    return game


@require_POST
def next_step(request: HttpRequest, game_id: int) -> HttpResponse:
    """ "Next" on a reading step: the step shown (if it is still the one to show) is passed."""
    game = _tutorial_of_session(request, game_id)
    script = tutorial_of(game.engine_slug)
    shown = progress(script, position=game.version, read=services.steps_read(request.session, game_id)).step
    try:
        number = int(request.POST.get("step", ""))
    except ValueError:
        number = -1
    if shown is not None and shown.number == number and not shown.asks_move:
        services.mark_read(request.session, game_id, number)
    return HttpResponseRedirect(reverse("game", args=[game_id]) + "#tutorial")


@require_POST
def play_against_bots(request: HttpRequest, slug: str) -> HttpResponse:
    """The tutorial's last step: a real game of ``slug`` against bots, started at once. A visitor without an
    account plays it as the tutorial's guest, signed in from now on (until they sign up or the guest expires)."""
    if tutorial_of(slug) is None:
        raise Http404
    user = request.user
    if not user.is_authenticated:
        user = services.guest_of(request.session) or services.new_guest(language=get_language() or "en")
        games = request.session.get(services.SESSION_GAMES, [])
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        services.remember_games(request.session, guest=user, games=games)
    game = services.play_against_bots(user=user, slug=slug)
    return HttpResponseRedirect(reverse("game", args=[game.pk]))
