"""Moderation in the Django admin: reports with the message in its context, chat messages, and the
``User`` model (its reports, deactivation that hands its seats to bots)."""

from __future__ import annotations

from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.db.models import Count
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from together import moderation
from together.models import Block, CallOff, ChatMessage, Rematch, Report

CONTEXT_MESSAGES = 5  # messages shown before and after a reported one


@admin.action(description=_("Remove the selected messages (shown as removed by a moderator)"))
def remove_messages(modeladmin, request, queryset):
    for message in queryset:
        moderation.remove_message(message=message, by=request.user)
    modeladmin.message_user(request, _("Messages removed."), messages.SUCCESS)


@admin.register(ChatMessage)
class ChatMessageAdmin(admin.ModelAdmin):
    list_display = ["id", "game", "author_name", "text", "created_at", "removed_at"]
    list_filter = ["removed_at"]
    search_fields = ["text", "author_name", "author__username"]
    raw_id_fields = ["game", "author", "removed_by"]
    readonly_fields = ["game", "author", "seat_number", "author_name", "text", "created_at", "removed_at", "removed_by"]
    actions = [remove_messages]


def _context_html(message: ChatMessage):
    rows = list(
        ChatMessage.objects.filter(game_id=message.game_id, id__lt=message.pk).order_by("-id")[:CONTEXT_MESSAGES]
    )[::-1]
    rows += [message]
    rows += list(
        ChatMessage.objects.filter(game_id=message.game_id, id__gt=message.pk).order_by("id")[:CONTEXT_MESSAGES]
    )
    return format_html(
        "<ol>{}</ol>",
        format_html_join(
            "",
            '<li style="{}">{} · <strong>{}</strong>: {}{}</li>',
            (
                (
                    "font-weight:bold;background:#fff3d6" if row.pk == message.pk else "",
                    row.created_at.strftime("%Y-%m-%d %H:%M"),
                    row.author_name,
                    row.text,
                    " [removed]" if row.is_removed else "",
                )
                for row in rows
            ),
        ),
    )


@admin.register(Report)
class ReportAdmin(admin.ModelAdmin):
    list_display = ["id", "created_at", "reason", "reported_user", "reporter", "message_excerpt", "handled_at"]
    list_filter = ["reason", ("handled_at", admin.EmptyFieldListFilter)]
    search_fields = ["reported_user__username", "reporter__username", "details", "message__text"]
    raw_id_fields = ["reporter", "reported_user", "message", "handled_by"]
    readonly_fields = ["reporter", "reported_user", "message", "reason", "details", "created_at", "conversation"]
    fields = [
        "reporter",
        "reported_user",
        "reason",
        "details",
        "message",
        "conversation",
        "created_at",
        "handled_at",
        "handled_by",
    ]
    actions = ["remove_reported_messages", "deactivate_reported_users", "mark_handled"]

    @admin.display(description=_("message"))
    def message_excerpt(self, report):
        return report.message.text[:60] if report.message_id else "—"

    @admin.display(description=_("the message in its context"))
    def conversation(self, report):
        return _context_html(report.message) if report.message_id else "—"

    @admin.action(description=_("Remove the reported messages"))
    def remove_reported_messages(self, request, queryset):
        for report in queryset.select_related("message"):
            if report.message_id:
                moderation.remove_message(message=report.message, by=request.user)
        self.message_user(request, _("Messages removed."), messages.SUCCESS)

    @admin.action(description=_("Deactivate the reported players (bots take their seats)"))
    def deactivate_reported_users(self, request, queryset):
        users = {report.reported_user for report in queryset.select_related("reported_user")}
        for user in users:
            moderation.deactivate_user(user=user, by=request.user)
        count = len(users)
        self.message_user(
            request,
            ngettext("%(count)d player deactivated.", "%(count)d players deactivated.", count) % {"count": count},
        )

    @admin.action(description=_("Mark as handled"))
    def mark_handled(self, request, queryset):
        from django.utils import timezone

        queryset.filter(handled_at__isnull=True).update(handled_at=timezone.now(), handled_by=request.user)


class ReportsReceivedInline(admin.TabularInline):
    model = Report
    fk_name = "reported_user"
    extra = 0
    can_delete = False
    fields = ["created_at", "reason", "reporter", "message", "details", "handled_at"]
    readonly_fields = fields
    show_change_link = True
    verbose_name_plural = _("reports about this player")

    def has_add_permission(self, request, obj=None):
        return False


User = get_user_model()


@admin.register(User)
class PlayerAdmin(UserAdmin):
    list_display = ["username", "email", "display_name", "is_active", "is_staff", "date_joined", "report_count"]
    search_fields = ["username", "email", "display_name"]
    inlines = [ReportsReceivedInline]
    actions = ["deactivate"]
    fieldsets = (
        *UserAdmin.fieldsets,
        (
            _("Playing"),
            {
                "fields": (
                    "display_name",
                    "language",
                    "time_zone",
                    "notify_mode",
                    "deadline_reminders",
                    "email_undeliverable_since",
                    "away_until",
                )
            },
        ),
    )

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(reports=Count("reports_received"))

    @admin.display(description=_("reports"), ordering="reports")
    def report_count(self, user):
        return user.reports

    @admin.action(description=_("Deactivate (bots take their seats)"))
    def deactivate(self, request, queryset):
        for user in queryset.filter(is_active=True):
            moderation.deactivate_user(user=user, by=request.user)
        self.message_user(request, _("Players deactivated."), messages.SUCCESS)

    def save_model(self, request, obj, form, change):
        was_active = change and User.objects.filter(pk=obj.pk, is_active=True).exists()
        super().save_model(request, obj, form, change)
        if was_active and not obj.is_active:
            moderation.deactivate_user(user=obj, by=request.user)


admin.site.register(Block, list_display=["blocker", "blocked", "created_at"], raw_id_fields=["blocker", "blocked"])
admin.site.register(CallOff, list_display=["game", "status", "proposer_seat", "created_at", "expires_at"])
admin.site.register(Rematch, list_display=["original", "game", "proposed_by", "created_at", "declined_at"])
