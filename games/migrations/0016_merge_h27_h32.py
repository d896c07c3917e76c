# Merges the tutorials (issue 27) and the seat's log size at last seen (issue 32), made side by side.
from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0015_h27_tutorials"),
        ("games", "0015_h32_last_seen_log_size"),
    ]

    operations = []
