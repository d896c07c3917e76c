"""Site pages that belong to no single app: home, rules, and the DEBUG mail viewer."""

from __future__ import annotations

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import select_template
from django.utils.translation import get_language

from mammamia import cards, catalog, devmail


def home(request: HttpRequest) -> HttpResponse:
    games = []
    for game in catalog.GAMES:
        min_players, max_players = catalog.player_counts(slug=game.slug)
        games.append({"info": game, "name": game.name(), "min_players": min_players, "max_players": max_players})
    return render(request, "home.html", {"games": games})


def _rules_context(*, slug: str, language: str) -> dict:
    """The card data a rules page draws (only the game's own)."""
    if slug == "mamma-mia":
        return {"recipe_colours": cards.mamma_mia_recipes_by_colour(), "toppings": cards.TOPPING_NAMES}
    if slug == "konamon":
        return {
            "action_blocks": cards.konamon_action_blocks(),
            "customers": cards.konamon_customers(language=language),
            "effects": cards.konamon_effects(),
            "products": cards.PRODUCT_NAMES,
        }
    return {"suits": cards.marumiere_suits(), "scoring": cards.marumiere_scoring()}


def rules(request: HttpRequest, slug: str) -> HttpResponse:
    game = catalog.GAMES_BY_SLUG.get(slug)
    if game is None:
        raise Http404
    language = (get_language() or "en").lower()
    # Long prose lives in one template per language; English is the fallback.
    template = select_template([f"rules/{slug}.{language}.html", f"rules/{slug}.en.html"])
    min_players, max_players = catalog.player_counts(slug=slug)
    context = {
        "game": game,
        "name": game.name(),
        "min_players": min_players,
        "max_players": max_players,
        "other_games": [{"slug": g.slug, "name": g.name()} for g in catalog.GAMES if g.slug != slug],
        **_rules_context(slug=slug, language=language),
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
