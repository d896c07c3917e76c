from django.contrib import admin

from notifications.models import DeadlineReminder, OutboxEmail


@admin.register(OutboxEmail)
class OutboxEmailAdmin(admin.ModelAdmin):
    list_display = ["id", "kind", "user", "game", "status", "attempts", "created_at", "sent_at", "next_attempt_at"]
    list_filter = ["status", "kind"]
    search_fields = ["dedupe_key", "user__username", "user__email", "message_id"]
    raw_id_fields = ["user", "game"]
    readonly_fields = ["dedupe_key", "message_id", "payload", "created_at", "sent_at", "last_error"]
    date_hierarchy = "created_at"


@admin.register(DeadlineReminder)
class DeadlineReminderAdmin(admin.ModelAdmin):
    list_display = ["seat", "stage", "awaited_since", "created_at"]
    raw_id_fields = ["seat"]
