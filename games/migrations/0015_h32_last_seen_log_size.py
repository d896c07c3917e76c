"""Seat.last_seen_log_size (issue 32): where "since your last visit" starts, written with each visit. Seats
that visited before it was kept take it from the move (or the start) at the version they last saw."""

from django.db import migrations, models

FILL = """
UPDATE games_seat AS s SET last_seen_log_size = COALESCE(
    (SELECT (m.log_positions ->> s.number::text)::integer FROM games_move AS m
      WHERE m.game_id = s.game_id AND m.sequence = s.last_seen_version),
    (SELECT (e.log_positions ->> s.number::text)::integer FROM games_gameevent AS e
      WHERE e.game_id = s.game_id AND e.kind = 'started' AND e.version <= s.last_seen_version
      ORDER BY e.id LIMIT 1),
    0)
WHERE s.number IS NOT NULL AND s.last_visited_at IS NOT NULL
"""


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0014_merge_20261127_1359"),
    ]

    operations = [
        migrations.AddField(
            model_name="seat",
            name="last_seen_log_size",
            field=models.PositiveIntegerField(default=0, verbose_name="log length last seen"),
        ),
        migrations.RunSQL(FILL, migrations.RunSQL.noop),
    ]
