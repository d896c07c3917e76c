"""The channels' settings page, the push subscription endpoints, webhooks, feeds, manifest and service worker."""

from __future__ import annotations

import json

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control, never_cache
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from games.exceptions import GameError
from reach import feeds, push, services
from reach.forms import MAX_WEBHOOKS, ChannelGridForm, WebhookForm
from reach.models import ChannelSettings, PushSubscription, Webhook
from reach.prefs import settings_for


def _page(request, *, grid=None, hook_form=None, status=200):
    user = request.user
    channel_settings = settings_for(user)
    hooks = list(Webhook.objects.filter(user=user).order_by("pk"))
    grid = grid or ChannelGridForm(user=user, channel_settings=channel_settings, hooks=hooks)
    return render(request, "reach/channels.html", {
        "grid": grid,
        "hooks": hooks,
        "hook_form": hook_form or WebhookForm(),
        "subscriptions": list(PushSubscription.objects.filter(user=user).order_by("pk")),
        "push_enabled": push.enabled(),
        "vapid_public_key": settings.VAPID_PUBLIC_KEY,
        "calendar_url": feeds.calendar_url(channel_settings),
        "atom_url": feeds.atom_url(channel_settings),
        "max_webhooks": MAX_WEBHOOKS,
    }, status=status)


@login_required
@never_cache
@require_http_methods(["GET", "POST"])
def channels(request: HttpRequest) -> HttpResponse:
    """One page for every channel and kind of event."""
    if request.method == "POST":
        user = request.user
        hooks = list(Webhook.objects.filter(user=user).order_by("pk"))
        grid = ChannelGridForm(request.POST, user=user, channel_settings=settings_for(user), hooks=hooks)
        if grid.is_valid():
            grid.save()
            messages.success(request, _("Your notification choices are saved."))
            return redirect("reach:channels")
        return _page(request, grid=grid, status=400)
    return _page(request)


def _json_error(message: str, status: int = 400) -> JsonResponse:
    return JsonResponse({"error": message}, status=status)


@login_required
@require_POST
def push_subscribe(request: HttpRequest) -> JsonResponse:
    """Store this browser's PushSubscription (the JSON of ``subscription.toJSON()``)."""
    try:
        data = json.loads(request.body or b"null")
    except (ValueError, UnicodeDecodeError):
        data = None
    try:
        subscription = services.subscribe_browser(
            user=request.user, data=data, label=request.headers.get("User-Agent", "")
        )
    except GameError as exc:
        return _json_error(exc.message, exc.status)
    return JsonResponse({"id": subscription.pk}, status=201)


@login_required
@require_POST
def push_unsubscribe(request: HttpRequest) -> HttpResponse:
    """Forget a browser: by JSON ``{"endpoint": ...}`` from the page's script, or by a form's ``id``."""
    if request.content_type == "application/json":
        try:
            endpoint = json.loads(request.body or b"null").get("endpoint")
        except (ValueError, UnicodeDecodeError, AttributeError):
            return _json_error(_("This subscription could not be read."))
        services.forget_browser(user=request.user, endpoint=endpoint if isinstance(endpoint, str) else "")
        return JsonResponse({"ok": True})
    services.forget_browser(user=request.user, subscription_id=_int(request.POST.get("id")))
    messages.success(request, _("That browser will get no more notifications."))
    return redirect("reach:channels")


def _int(value) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


@login_required
@require_POST
def webhook_add(request: HttpRequest) -> HttpResponse:
    form = WebhookForm(request.POST)
    if form.is_valid():
        try:
            services.add_webhook(user=request.user, url=form.cleaned_data["url"])
        except GameError as exc:
            form.add_error(None, exc.message)
    if form.errors:
        return _page(request, hook_form=form, status=400)
    messages.success(request, _("Webhook added. Choose its kinds of events in the table."))
    return redirect("reach:channels")


@login_required
@require_POST
def webhook_action(request: HttpRequest, hook_id: int) -> HttpResponse:
    actions = {
        "delete": (services.remove_webhook, _("Webhook removed.")),
        "enable": (services.enable_webhook, _("Webhook turned back on.")),
        "secret": (services.renew_webhook_secret, _("The webhook has a new signing secret.")),
    }
    try:
        services.webhook_of(user=request.user, hook_id=hook_id)  # another player's hook: 404, whatever the action
    except GameError:
        raise Http404 from None
    action = actions.get(request.POST.get("action"))
    if action is None:
        return HttpResponse(_("Unknown action."), status=400, content_type="text/plain; charset=utf-8")
    change, message = action
    change(user=request.user, hook_id=hook_id)
    messages.success(request, message)
    return redirect("reach:channels")


@login_required
@require_POST
def feeds_regenerate(request: HttpRequest) -> HttpResponse:
    services.renew_feed_secret(user=request.user)
    messages.success(request, _("Your feeds have new addresses; the old ones no longer work."))
    return redirect("reach:channels")


def _feed_owner(secret: str):
    row = ChannelSettings.objects.filter(feed_secret=secret).select_related("user").first()
    if row is None or not row.user.is_active:
        raise Http404
    return row.user


@require_safe  # GET and HEAD (feed readers and link checkers ask HEAD first)
@never_cache
def calendar_feed(request: HttpRequest, secret: str) -> HttpResponse:
    user = _feed_owner(secret)
    response = HttpResponse(feeds.calendar(user=user), content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = 'inline; filename="mammamia-deadlines.ics"'
    response["X-Robots-Tag"] = "noindex"
    return response


@require_safe
@never_cache
def atom_feed(request: HttpRequest, secret: str) -> HttpResponse:
    user = _feed_owner(secret)
    response = HttpResponse(feeds.atom(user=user), content_type="application/atom+xml; charset=utf-8")
    response["X-Robots-Tag"] = "noindex"
    return response


@require_safe
@cache_control(max_age=3600)
def manifest(request: HttpRequest) -> JsonResponse:
    """The web app manifest: the site installs on a phone's home screen and opens on "My games"."""
    data = {
        "name": "mammamia",
        "short_name": "mammamia",
        "description": _("Card games with friends, one move at a time."),
        "id": "/",
        "start_url": "/games/",
        "scope": "/",
        "display": "standalone",
        "background_color": "#fff8ec",
        "theme_color": "#b5452b",
        "icons": [
            {"src": static("icons/icon-192.png"), "sizes": "192x192", "type": "image/png", "purpose": "any"},
            {"src": static("icons/icon-512.png"), "sizes": "512x512", "type": "image/png", "purpose": "any"},
            {"src": static("icons/icon-512.png"), "sizes": "512x512", "type": "image/png", "purpose": "maskable"},
            {"src": static("favicon.svg"), "sizes": "any", "type": "image/svg+xml"},
        ],
    }
    return JsonResponse(data, content_type="application/manifest+json", json_dumps_params={"ensure_ascii": False})


@require_safe
@cache_control(max_age=0, no_cache=True)
def service_worker(request: HttpRequest) -> HttpResponse:
    """Served from the root so its scope is the whole site (``/static/`` would limit it to ``/static/``)."""
    response = render(request, "reach/sw.js", {"icon": static("icons/icon-192.png")},
                      content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    return response
