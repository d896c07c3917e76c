"""The profile's average score per game (issue 19): ``PlayerStats`` also counts the seats with a score and
adds their scores, kept by ``games.play.services.record_finished_seats`` like the other counters; filled
here from the seats of the games that ended before (the seats the other counters count)."""

from django.db import migrations, models
from django.db.models import Count, FloatField, OuterRef, Subquery, Sum, Value
from django.db.models.functions import Coalesce


def backfill(apps, schema_editor):
    Seat = apps.get_model("games", "Seat")
    PlayerStats = apps.get_model("games", "PlayerStats")
    seats = (
        Seat.objects.filter(
            user_id=OuterRef("user_id"), game__engine_slug=OuterRef("engine_slug"),
            finished_at__isnull=False, final_score__isnull=False,
        )
        .order_by()
        .values("user_id")
    )
    PlayerStats.objects.update(
        scored=Coalesce(Subquery(seats.annotate(n=Count("id")).values("n")), 0),
        scores_sum=Coalesce(
            Subquery(seats.annotate(total=Sum("final_score")).values("total")), Value(0.0), output_field=FloatField()
        ),
    )


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0010_merge_0009_i19_game_round_0009_move_log_positions"),
    ]

    operations = [
        migrations.AddField(
            model_name="playerstats",
            name="scored",
            field=models.PositiveIntegerField(default=0, verbose_name="with a score"),
        ),
        migrations.AddField(
            model_name="playerstats",
            name="scores_sum",
            field=models.FloatField(default=0, verbose_name="sum of scores"),
        ),
        migrations.RunPython(backfill, migrations.RunPython.noop),
    ]
