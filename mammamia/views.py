"""Site pages that belong to no single app: home, rules, and the DEBUG mail viewer."""

from __future__ import annotations

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, HttpResponsePermanentRedirect
from django.shortcuts import render
from django.template.loader import select_template
from django.templatetags.static import static
from django.utils.translation import get_language
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe

from games.registry import all_games, get_game
from mammamia import devmail


@require_safe
@cache_control(max_age=86400, public=True)
def favicon(request: HttpRequest) -> HttpResponse:
    """Browsers (and crawlers) ask for /favicon.ico whatever the page says: send them to the static icon
    (resolved per request, so the hashed name of the manifest storage is used)."""
    return HttpResponsePermanentRedirect(static("favicon.svg"))


def home(request: HttpRequest) -> HttpResponse:
    games = [
        {"info": game, "name": game.display_name(), "min_players": game.min_players, "max_players": game.max_players}
        for game in all_games()
    ]
    return render(request, "home.html", {"games": games})


def rules(request: HttpRequest, slug: str) -> HttpResponse:
    try:
        game = get_game(slug)
    except KeyError:
        raise Http404 from None
    language = (get_language() or "en").lower()
    # Long prose lives in the game folder, one template per language; English is the fallback.
    template = select_template(game.rules_templates(language=language))
    context = {
        "game": game,
        "name": game.display_name(),
        "min_players": game.min_players,
        "max_players": game.max_players,
        "other_games": [{"slug": g.slug, "name": g.display_name()} for g in all_games() if g.slug != slug],
        **game.rules_context(language=language),
    }
    return HttpResponse(template.render(context, request))


def _require_debug() -> None:
    # The URLs are only routed with DEBUG on; this guards against a copied route.
    if not settings.DEBUG:
        raise Http404


def dev_mail_list(request: HttpRequest) -> HttpResponse:
    _require_debug()
    folder = settings.DEV_MAIL_DIR
    return render(request, "dev/mail_list.html", {"mails": devmail.list_mail(folder=folder), "folder": folder})


def dev_mail_detail(request: HttpRequest, name: str) -> HttpResponse:
    _require_debug()
    mail = devmail.read_mail(folder=settings.DEV_MAIL_DIR, name=name)
    if mail is None:
        raise Http404
    return render(request, "dev/mail_detail.html", {"mail": mail})
