"""Admin for support: games, seats, moves and invitations. Engine state and views stay read-only."""

from django.contrib import admin

from games.models import Game, GameEvent, Invitation, Move, Seat


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = [
        "number",
        "user",
        "is_bot",
        "colour",
        "awaited",
        "awaited_since",
        "deadline_at",
        "timeouts",
        "dropped_out",
        "final_rank",
        "final_score",
    ]
    readonly_fields = ["number", "awaited", "awaited_since", "final_rank", "final_score"]
    raw_id_fields = ["user"]


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ["id", "engine_slug", "status", "players", "visibility", "version", "created_by", "created_at"]
    list_filter = ["engine_slug", "status", "visibility"]
    search_fields = ["id", "created_by__username"]
    readonly_fields = [
        "engine_slug",
        "options",
        "players",
        "seed_sha256",
        "revealed_seed",
        "version",
        "outcome",
        "created_at",
        "started_at",
        "finished_at",
    ]
    raw_id_fields = ["created_by"]
    inlines = [SeatInline]


@admin.register(Move)
class MoveAdmin(admin.ModelAdmin):
    list_display = ["game", "sequence", "seat_number", "made_by", "created_at"]
    list_filter = ["made_by"]
    raw_id_fields = ["game"]
    readonly_fields = ["game", "sequence", "seat_number", "move", "made_by", "created_at", "idempotency_key"]


@admin.register(Invitation)
class InvitationAdmin(admin.ModelAdmin):
    list_display = ["game", "user", "invited_by", "status", "created_at"]
    raw_id_fields = ["game", "user", "invited_by"]


@admin.register(GameEvent)
class GameEventAdmin(admin.ModelAdmin):
    list_display = ["game", "kind", "seat_number", "name", "version", "created_at"]
    raw_id_fields = ["game"]
