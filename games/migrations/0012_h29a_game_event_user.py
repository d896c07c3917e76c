"""Whose name a game event carries (issue 29 item 1: deleting an account clears its name from every log), filled
for the events before it from the seat of the same game and number (events of a waiting room, before the seats
have numbers, are found by name among the account's games when it is deleted)."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

BACKFILL = """
UPDATE games_gameevent AS event SET user_id = seat.user_id
FROM games_seat AS seat
WHERE event.seat_number IS NOT NULL AND seat.game_id = event.game_id AND seat.number = event.seat_number
  AND seat.user_id IS NOT NULL AND event.name <> ''
"""


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0011_player_stats_scores"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="gameevent",
            name="user",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="+",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
        migrations.RunSQL(BACKFILL, migrations.RunSQL.noop),
    ]
