"""Issue 30: deals drawn together by the site and every player, sealed choices.

Games that exist already keep the seed the site drew alone (``deal_scheme = "site"``): their deal, replay and
check stay exactly as they were, and their check page says so. Games created from now on are ``"joint"``.
"""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0011_player_stats_scores"),
    ]

    operations = [
        # Every existing game: drawn by the site alone...
        migrations.AddField(
            model_name="game",
            name="deal_scheme",
            field=models.CharField(
                choices=[("site", "drawn by the site alone"), ("joint", "drawn together by the site and every player")],
                default="site",
                max_length=8,
                verbose_name="how the deal was drawn",
            ),
        ),
        # ...and every new one together.
        migrations.AlterField(
            model_name="game",
            name="deal_scheme",
            field=models.CharField(
                choices=[("site", "drawn by the site alone"), ("joint", "drawn together by the site and every player")],
                default="joint",
                max_length=8,
                verbose_name="how the deal was drawn",
            ),
        ),
        migrations.AddField(
            model_name="gamestate",
            name="deal_seed",
            field=models.CharField(blank=True, default="", max_length=40),
        ),
        migrations.AddField(
            model_name="seat",
            name="contribution",
            field=models.CharField(blank=True, default="", max_length=32, verbose_name="contribution to the deal"),
        ),
    ]
