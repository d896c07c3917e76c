# Merges the bot levels and game reviews (issue 28) with the tutorials, the seat's log size and deal commitments.
from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0016_h28_game_reviews"),
        ("games", "0017_merge_h26"),
    ]

    operations = []
