# Merges the deal commitments of the two-step create (issue 30) with the tutorials and the seat's log size.
from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0015_h26_deal_commitments"),
        ("games", "0016_merge_h27_h32"),
    ]

    operations = []
