# Issue 19: the round a game is in, stored with each move for "My games" ("round 2 of 3").

from django.db import migrations, models
from django.db.models import OuterRef, Subquery
from django.db.models.fields.json import KeyTextTransform
from django.db.models.functions import Cast


def rounds_from_the_stored_views(apps, schema_editor):
    """Games already started take their round from their stored spectator view (no replay), in one UPDATE."""
    Game = apps.get_model("games", "Game")
    SeatView = apps.get_model("games", "SeatView")
    spectator_round = (
        SeatView.objects.filter(game=OuterRef("pk"), seat_number__isnull=True)
        .annotate(round_text=KeyTextTransform("round", "view"))
        .values("round_text")[:1]
    )
    Game.objects.exclude(status="open").exclude(status="cancelled").update(
        round=Cast(Subquery(spectator_round), models.PositiveSmallIntegerField())
    )


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0008_i21_merge_2'),
    ]

    operations = [
        migrations.AddField(
            model_name='game',
            name='round',
            field=models.PositiveSmallIntegerField(blank=True, null=True, verbose_name='round'),
        ),
        migrations.RunPython(rounds_from_the_stored_views, migrations.RunPython.noop),
    ]
