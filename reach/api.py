"""The JSON API of the channels (``/settings/channels/`` for a program): the choices per kind of event and
channel, browsers (Web Push subscriptions), webhooks and the private feeds. Thin views: the page's own form
(``ChannelGridForm``, ``WebhookForm``) validates, ``reach.services`` changes.

Everything here is the requester's own: a webhook's signing secret and the feeds' addresses (their secret)
are shown to their owner only, and another player's webhook or browser is a 404 like one that never was.
A browser's keys are never shown (nor in the data export).
"""

from __future__ import annotations

from django.conf import settings
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response

from api import pagination
from api.errors import form_invalid
from api.fields import StrictBooleanField, StrictCharField, StrictChoiceField
from games.api import ApiView, _valid, errors
from reach import feeds, push, services
from reach.forms import ChannelGridForm, WebhookForm
from reach.models import Channel, EventKind, PushSubscription, Webhook
from reach.prefs import EMAIL_SWITCHED, settings_for

# E-mail kinds with a box of their own: the switched kinds and deadline reminders (time-outs follow them);
# "your move" by e-mail is `notify_mode` in `/api/settings/`.
EMAIL_KINDS = (*EMAIL_SWITCHED, EventKind.REMINDER)
KIND_VALUES = [str(kind) for kind in EventKind]


def _flags(name: str, kinds, about: str) -> type[serializers.Serializer]:
    return type(
        name,
        (serializers.Serializer,),
        {
            str(kind): StrictBooleanField(required=False, help_text=f"{EventKind(kind).label} {about}")
            for kind in kinds
        },
    )


EmailFlagsSerializer = _flags("EmailFlagsSerializer", EMAIL_KINDS, "by e-mail.")
PushFlagsSerializer = _flags("PushFlagsSerializer", EventKind, "by push, on every browser I turned on.")


class ChannelChoicesSerializer(serializers.Serializer):
    email = EmailFlagsSerializer(
        required=False,
        help_text="By e-mail. `reminder` is the deadline reminders switch (time-outs follow it); "
        "`turn` is not here: it is `notify_mode` in `/api/settings/`. Chat is off until turned on.",
    )
    push = PushFlagsSerializer(required=False, help_text="By push notification, every kind on by default.")


class KindSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=KIND_VALUES)
    label = serializers.CharField(help_text="In my language.")


class ChannelsSerializer(ChannelChoicesSerializer):
    kinds = KindSerializer(many=True, read_only=True, help_text="Every kind of event, as the page names it.")


def _grid(user) -> ChannelGridForm:
    hooks = list(Webhook.objects.filter(user=user).order_by("pk"))
    return ChannelGridForm(user=user, channel_settings=settings_for(user), hooks=hooks)


def _save_grid(user, changes: dict[str, bool]) -> None:
    """The page's form, posted with every box as stored but ``changes``."""
    stored = _grid(user)
    grid = ChannelGridForm(
        {**stored.stored(), **changes}, user=user, channel_settings=stored.channel_settings, hooks=stored.hooks
    )
    if not grid.is_valid():
        raise form_invalid(grid)
    grid.save()


def _channels_body(user) -> dict:
    stored = _grid(user).stored()
    return {
        "email": {str(kind): stored[f"{Channel.EMAIL}_{kind}"] for kind in EMAIL_KINDS},
        "push": {str(kind): stored[f"{Channel.PUSH}_{kind}"] for kind in EventKind},
        "kinds": [{"kind": str(kind), "label": str(kind.label)} for kind in EventKind],
    }


class ChannelsView(ApiView):
    """Who tells me what (as on `/settings/channels/`): each kind of event by e-mail and by push; PATCH turns
    some on or off (a webhook's kinds: `PATCH /api/settings/webhooks/{hook_id}/`)."""

    serializer_class = ChannelsSerializer

    @extend_schema(responses={200: ChannelsSerializer})
    def get(self, request):
        return Response(_channels_body(request.user))

    @extend_schema(request=ChannelChoicesSerializer, responses={200: ChannelsSerializer})
    def patch(self, request):
        data = _valid(ChannelChoicesSerializer, request)
        changes = {
            f"{channel}_{kind}": value
            for channel in (Channel.EMAIL, Channel.PUSH)
            for kind, value in (data.get(str(channel)) or {}).items()
        }
        _save_grid(request.user, changes)
        request.user.refresh_from_db(fields=["deadline_reminders"])
        return Response(_channels_body(request.user))


# Webhooks -----------------------------------------------------------------------------------------


class WebhookSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    url = serializers.URLField()
    kinds = serializers.ListField(
        child=serializers.ChoiceField(choices=KIND_VALUES), help_text="The kinds of events it hears."
    )
    active = serializers.BooleanField(help_text="False once repeated failures turned it off.")
    failures = serializers.IntegerField(help_text="Deliveries that failed for good in a row.")
    disabled_at = serializers.DateTimeField(allow_null=True)
    last_error = serializers.CharField(allow_blank=True)
    secret = serializers.CharField(
        help_text="Its signing secret: `X-Mammamia-Signature: v1=<HMAC-SHA256 of timestamp.body>`. Only to me."
    )
    created_at = serializers.DateTimeField()


class WebhookCreateSerializer(serializers.Serializer):
    url = StrictCharField(
        max_length=1000, help_text="A Discord or Slack incoming webhook, or your own server (public http or https)."
    )


class WebhookChangeSerializer(serializers.Serializer):
    kinds = serializers.ListField(
        child=StrictChoiceField(choices=KIND_VALUES), max_length=len(KIND_VALUES), help_text="The kinds it hears."
    )


class WebhooksView(ApiView):
    """My webhooks (at most five), with their signing secrets; POST adds one (hearing my turns, games ended and
    invitations until I choose its kinds)."""

    serializer_class = WebhookSerializer

    @extend_schema(
        operation_id="settings_webhooks_list", responses={200: pagination.page_serializer(WebhookSerializer)}
    )
    def get(self, request):
        hooks = Webhook.objects.filter(user=request.user).order_by("pk")
        results = WebhookSerializer(hooks, many=True).data
        return Response(pagination.page_body(request, results, next_token=None, previous_token=None))

    @extend_schema(request=WebhookCreateSerializer, responses={201: WebhookSerializer, **errors(409)})
    def post(self, request):
        data = _valid(WebhookCreateSerializer, request)
        form = WebhookForm({"url": data["url"]})
        if not form.is_valid():
            raise form_invalid(form)
        hook = services.add_webhook(user=request.user, url=form.cleaned_data["url"])
        return Response(WebhookSerializer(hook).data, status=status.HTTP_201_CREATED)


class WebhookView(ApiView):
    """One of my webhooks: PATCH its kinds of events; DELETE removes it."""

    serializer_class = WebhookSerializer

    @extend_schema(responses={200: WebhookSerializer})
    def get(self, request, hook_id: int):
        return Response(WebhookSerializer(services.webhook_of(user=request.user, hook_id=hook_id)).data)

    @extend_schema(request=WebhookChangeSerializer(partial=True), responses={200: WebhookSerializer})
    def patch(self, request, hook_id: int):
        data = _valid(WebhookChangeSerializer, request, partial=True)
        services.webhook_of(user=request.user, hook_id=hook_id)
        if "kinds" in data:
            kinds = set(data["kinds"])
            _save_grid(request.user, {f"hook{hook_id}_{kind}": kind in kinds for kind in KIND_VALUES})
        return Response(WebhookSerializer(services.webhook_of(user=request.user, hook_id=hook_id)).data)

    @extend_schema(request=None, responses={204: None})
    def delete(self, request, hook_id: int):
        services.remove_webhook(user=request.user, hook_id=hook_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class WebhookEnableView(ApiView):
    """Turn a webhook back on after repeated failures turned it off."""

    serializer_class = None

    @extend_schema(request=None, responses={200: WebhookSerializer})
    def post(self, request, hook_id: int):
        return Response(WebhookSerializer(services.enable_webhook(user=request.user, hook_id=hook_id)).data)


class WebhookSecretView(ApiView):
    """Give a webhook a new signing secret (the old one signs nothing more)."""

    serializer_class = None

    @extend_schema(request=None, responses={200: WebhookSerializer})
    def post(self, request, hook_id: int):
        return Response(WebhookSerializer(services.renew_webhook_secret(user=request.user, hook_id=hook_id)).data)


# Browsers (Web Push) ------------------------------------------------------------------------------


class BrowserSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    label = serializers.CharField(allow_blank=True, help_text="Which browser (its user agent, or the label sent).")
    created_at = serializers.DateTimeField()
    last_success_at = serializers.DateTimeField(allow_null=True, help_text="The last notification it took.")


class PushKeysSerializer(serializers.Serializer):
    p256dh = StrictCharField(max_length=200)
    auth = StrictCharField(max_length=100)


class SubscribeSerializer(serializers.Serializer):
    endpoint = StrictCharField(max_length=1000, help_text="The push service's URL for this browser.")
    keys = PushKeysSerializer(help_text="From `PushSubscription.toJSON()`, base64url.")
    label = StrictCharField(max_length=200, required=False, allow_blank=True, help_text="e.g. “phone”.")


class PushSerializer(serializers.Serializer):
    enabled = serializers.BooleanField(help_text="False: the site has no VAPID keys; subscribing is 409.")
    vapid_public_key = serializers.CharField(
        allow_blank=True, help_text="The `applicationServerKey` to subscribe with (base64url)."
    )
    browsers = BrowserSerializer(many=True, help_text="My browsers that get notifications (never their keys).")


class PushView(ApiView):
    """Push notifications: whether the site sends them, its public key and my browsers; POST subscribes a browser
    (the same endpoint again updates it)."""

    serializer_class = PushSerializer

    @extend_schema(responses={200: PushSerializer})
    def get(self, request):
        browsers = PushSubscription.objects.filter(user=request.user).order_by("pk")
        body = {
            "enabled": push.enabled(),
            "vapid_public_key": settings.VAPID_PUBLIC_KEY if push.enabled() else "",
            "browsers": BrowserSerializer(browsers, many=True).data,
        }
        return Response(body)

    @extend_schema(request=SubscribeSerializer, responses={201: BrowserSerializer, **errors(409)})
    def post(self, request):
        data = _valid(SubscribeSerializer, request)
        subscription = services.subscribe_browser(
            user=request.user, data=data, label=request.headers.get("User-Agent", "")
        )
        return Response(BrowserSerializer(subscription).data, status=status.HTTP_201_CREATED)


class BrowserView(ApiView):
    """Forget one of my browsers: it gets no more notifications."""

    serializer_class = None

    @extend_schema(request=None, responses={204: None})
    def delete(self, request, subscription_id: int):
        if not services.forget_browser(user=request.user, subscription_id=subscription_id):
            raise services.NoSuchBrowser()
        return Response(status=status.HTTP_204_NO_CONTENT)


# Private feeds ------------------------------------------------------------------------------------


class FeedsSerializer(serializers.Serializer):
    calendar_url = serializers.URLField(help_text="iCalendar of my deadlines. Secret: whoever has it sees them.")
    atom_url = serializers.URLField(help_text="Atom feed of the games awaiting my move. Secret too.")


def _feeds_body(row) -> dict:
    return {"calendar_url": feeds.calendar_url(row), "atom_url": feeds.atom_url(row)}


class FeedsView(ApiView):
    """The addresses of my private feeds (they are their own credential: only to me)."""

    serializer_class = FeedsSerializer

    @extend_schema(responses={200: FeedsSerializer})
    def get(self, request):
        return Response(_feeds_body(settings_for(request.user)))


class FeedsRenewView(ApiView):
    """New addresses for my feeds; the old ones stop working at once."""

    serializer_class = None

    @extend_schema(request=None, responses={200: FeedsSerializer})
    def post(self, request):
        return Response(_feeds_body(services.renew_feed_secret(user=request.user)))

