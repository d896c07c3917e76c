"""The channels in the admin: the push/webhook outbox, webhooks and browsers (never their secrets: a hook's
signing secret, a browser's keys and the feed secrets stay out of every page)."""

from django.contrib import admin

from reach.models import Delivery, PushSubscription, Webhook


@admin.register(Delivery)
class DeliveryAdmin(admin.ModelAdmin):
    list_display = ["id", "channel", "kind", "user", "game", "status", "attempts", "created_at", "next_attempt_at",
                    "sent_at", "last_error"]
    list_filter = ["status", "channel", "kind"]
    search_fields = ["dedupe_key", "user__username", "user__email"]
    raw_id_fields = ["user", "game", "subscription", "webhook"]
    readonly_fields = ["channel", "kind", "dedupe_key", "payload", "created_at", "sent_at", "last_error"]
    date_hierarchy = "created_at"


@admin.register(Webhook)
class WebhookAdmin(admin.ModelAdmin):
    list_display = ["id", "url", "user", "active", "failures", "disabled_at", "last_error"]
    list_filter = ["active"]
    search_fields = ["url", "user__username", "user__email"]
    raw_id_fields = ["user"]
    exclude = ["secret"]
    readonly_fields = ["failures", "disabled_at", "last_error", "created_at"]


@admin.register(PushSubscription)
class PushSubscriptionAdmin(admin.ModelAdmin):
    list_display = ["id", "user", "label", "created_at", "last_success_at"]
    search_fields = ["user__username", "user__email", "label"]
    raw_id_fields = ["user"]
    fields = ["user", "label", "endpoint", "created_at", "last_success_at"]
    readonly_fields = ["endpoint", "created_at", "last_success_at"]
