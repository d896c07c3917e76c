from django.db import migrations


class Migration(migrations.Migration):
    """The whole per-viewer log is no longer stored: it is derived from the game's
    state for the one viewer who asks (see games.services.viewer_log), so a move
    costs the same near the end of a long game as near its start."""

    dependencies = [
        ("games", "0001_initial"),
    ]

    operations = [
        migrations.RemoveField(
            model_name="seatview",
            name="log",
        ),
    ]
