# Issue 19: an account takes its browser's time zone until its owner chooses one.

from django.db import migrations, models


def mark_chosen(apps, schema_editor):
    """Accounts whose zone is not the default chose it in the settings: the browser must not overwrite it."""
    User = apps.get_model("accounts", "User")
    User.objects.exclude(time_zone="UTC").update(time_zone_source="chosen")


class Migration(migrations.Migration):

    dependencies = [
        ('accounts', '0003_merge_0002_i20_uses_channels_0002_i21_quiet_days'),
    ]

    operations = [
        migrations.AddField(
            model_name='user',
            name='time_zone_source',
            field=models.CharField(blank=True, choices=[('', 'not set yet'), ('browser', 'from the browser'), ('chosen', 'chosen in the settings')], default='', max_length=8, verbose_name='time zone from'),
        ),
        migrations.RunPython(mark_chosen, migrations.RunPython.noop),
    ]
