from django.contrib import admin

from competition.models import League, LeagueEntry, LeagueGame, Rating, RatingChange


@admin.register(Rating)
class RatingAdmin(admin.ModelAdmin):
    list_display = ["user", "engine_slug", "conservative", "mu", "sigma", "games", "last_game_at"]
    list_filter = ["engine_slug"]
    search_fields = ["user__username"]
    raw_id_fields = ["user"]


@admin.register(RatingChange)
class RatingChangeAdmin(admin.ModelAdmin):
    list_display = ["game", "user", "engine_slug", "rank", "mu_before", "mu", "sigma", "at"]
    search_fields = ["user__username"]
    raw_id_fields = ["user", "game"]


class LeagueEntryInline(admin.TabularInline):
    model = LeagueEntry
    raw_id_fields = ["user"]
    extra = 0


@admin.register(League)
class LeagueAdmin(admin.ModelAdmin):
    list_display = ["name", "engine_slug", "players_per_game", "status", "signup_until", "winner"]
    list_filter = ["status", "engine_slug"]
    raw_id_fields = ["created_by", "winner"]
    inlines = [LeagueEntryInline]


@admin.register(LeagueGame)
class LeagueGameAdmin(admin.ModelAdmin):
    list_display = ["league", "round", "table", "game"]
    raw_id_fields = ["league", "game"]
