"""Site pages that belong to no single app: home, rules, and the DEBUG mail viewer."""

from __future__ import annotations

import re

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, HttpResponsePermanentRedirect
from django.shortcuts import render
from django.template.loader import select_template
from django.templatetags.static import static
from django.utils.csp import CSP
from django.utils.translation import get_language
from django.views.decorators.cache import cache_control, never_cache
from django.views.decorators.clickjacking import xframe_options_sameorigin
from django.views.decorators.csp import csp_override
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


@require_safe
def keyboard_help(request: HttpRequest) -> HttpResponse:
    """Playing by keyboard and screen reader (issue 31): the game page's commands, in the reader's language."""
    return render(request, "help/keyboard.html")


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
    return render(request, "dev/mail_detail.html", {"mail": mail, "mail_html_sandbox": MAIL_HTML_SANDBOX})


# The HTML part of a caught e-mail, served on its own for the preview's iframe (issue 19, point 12): the site's
# policy (style-src 'self') would block the inline styles every e-mail client applies, and an iframe's srcdoc
# inherits its page's policy. This response alone allows inline styles and nothing else: no script, no request
# out of the message (images only as data: URLs), no form, no <base href>; the CSP's sandbox (the iframe's
# sandbox attribute says the same) gives it an opaque origin, and only this site may frame it. Links open in a
# new tab that leaves the sandbox (allow-popups…), since the site itself refuses to be framed.
MAIL_HTML_SANDBOX = "allow-popups allow-popups-to-escape-sandbox"
MAIL_HTML_CSP = {
    "default-src": [CSP.NONE],
    "style-src": [CSP.UNSAFE_INLINE],
    "img-src": ["data:"],
    "base-uri": [CSP.NONE],
    "form-action": [CSP.NONE],
    "frame-ancestors": [CSP.SELF],
    "sandbox": MAIL_HTML_SANDBOX,
}
_HEAD_RE = re.compile(r"<head(\s[^>]*)?>", re.IGNORECASE)


def _links_in_a_new_tab(html: str) -> str:
    """``<base target="_blank">`` at the start of the head (before the message's own links): a link clicked in
    the preview opens the site in a tab rather than in the frame the site refuses. Nothing else is changed."""
    base = '<base target="_blank">'
    match = _HEAD_RE.search(html)
    return html[: match.end()] + base + html[match.end() :] if match else base + html


@never_cache
@xframe_options_sameorigin
@csp_override(MAIL_HTML_CSP)
def dev_mail_html(request: HttpRequest, name: str) -> HttpResponse:
    _require_debug()
    mail = devmail.read_mail(folder=settings.DEV_MAIL_DIR, name=name)
    if mail is None or not mail.html:
        raise Http404
    response = HttpResponse(_links_in_a_new_tab(mail.html), content_type="text/html; charset=utf-8")
    response["Referrer-Policy"] = "no-referrer"
    return response
