"""Match history and statistics that cost the same for 10 or 10,000 finished games.

``Seat.finished_at`` (the game's, copied when it ends) and its index make a page of a
player's history an index range; ``PlayerStats`` holds per player and game the counters
the profile shows, kept by ``games.services._finish``. Both are filled here for the games
that ended before.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models
from django.db.models import Count, OuterRef, Q, Subquery, Sum
from django.db.models.functions import Coalesce


def backfill(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    Seat = apps.get_model("games", "Seat")
    PlayerStats = apps.get_model("games", "PlayerStats")
    # A finished game always has finished_at; created_at only guards against a hand-edited row.
    ended = Game.objects.filter(pk=OuterRef("game_id")).values(when=Coalesce("finished_at", "created_at"))[:1]
    Seat.objects.filter(game__status="finished").update(finished_at=Subquery(ended))
    totals = (
        Seat.objects.filter(finished_at__isnull=False, user__isnull=False)
        .values("user_id", "game__engine_slug")
        .annotate(
            played=Count("id"),
            won=Count("id", filter=Q(final_rank=1)),
            ranked=Count("final_rank"),
            places_sum=Coalesce(Sum("final_rank"), 0),
            dropped=Count("id", filter=Q(dropped_out=True)),
        )
        .order_by()
    )
    batch = []
    for row in totals.iterator(chunk_size=2000):
        batch.append(
            PlayerStats(
                user_id=row["user_id"],
                engine_slug=row["game__engine_slug"],
                played=row["played"],
                won=row["won"],
                ranked=row["ranked"],
                places_sum=row["places_sum"],
                dropped=row["dropped"],
            )
        )
        if len(batch) == 2000:
            PlayerStats.objects.bulk_create(batch)
            batch = []
    PlayerStats.objects.bulk_create(batch)


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0002_drop_seatview_log"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="PlayerStats",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("engine_slug", models.CharField(max_length=32, verbose_name="game")),
                ("played", models.PositiveIntegerField(default=0, verbose_name="Played")),
                ("won", models.PositiveIntegerField(default=0, verbose_name="Won")),
                ("ranked", models.PositiveIntegerField(default=0, verbose_name="with a place")),
                ("places_sum", models.PositiveIntegerField(default=0, verbose_name="sum of places")),
                ("dropped", models.PositiveIntegerField(default=0, verbose_name="dropped out")),
                (
                    "user",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="game_stats",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "verbose_name": "player statistics",
                "verbose_name_plural": "player statistics",
                "constraints": [
                    models.UniqueConstraint(fields=("user", "engine_slug"), name="games_playerstats_unique")
                ],
            },
        ),
        migrations.AddField(
            model_name="seat",
            name="finished_at",
            field=models.DateTimeField(blank=True, null=True, verbose_name="finished"),
        ),
        migrations.AddIndex(
            model_name="seat",
            index=models.Index(
                condition=models.Q(("finished_at__isnull", False)),
                fields=["user", "-finished_at", "-game"],
                name="games_seat_history_idx",
            ),
        ),
        migrations.AddIndex(
            model_name="seat",
            index=models.Index(
                condition=models.Q(("finished_at__isnull", True)), fields=["user"], name="games_seat_unfinished_idx"
            ),
        ),
        # Last, after every schema change: rows written here leave deferred foreign-key
        # checks pending, which PostgreSQL refuses under a later ALTER TABLE.
        migrations.RunPython(backfill, migrations.RunPython.noop),
    ]
