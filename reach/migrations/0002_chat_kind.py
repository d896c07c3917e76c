"""Chat at my table becomes a kind of event of its own (issue 20). Chat alone used to be e-mailed to the
readers who chose "every time" for their turn e-mails; it is now its own switch, off by default for e-mail
(``reach.models.DEFAULT_OFF``), so those readers get it turned on: nobody loses an e-mail they had."""

from django.db import migrations, models


def keep_chat_emails_of_every_time_readers(apps, schema_editor):
    from reach.models import new_secret

    User = apps.get_model("accounts", "User")  # noqa: N806 - a model class
    ChannelSettings = apps.get_model("reach", "ChannelSettings")  # noqa: N806
    readers = User.objects.filter(notify_mode="every").values_list("pk", flat=True)
    have = dict(ChannelSettings.objects.filter(user_id__in=readers).values_list("user_id", "on"))
    for user_id in readers.iterator():
        on = dict(have.get(user_id) or {})
        on["email"] = sorted({*on.get("email", []), "chat"})
        if user_id in have:
            ChannelSettings.objects.filter(user_id=user_id).update(on=on)
        else:
            ChannelSettings.objects.create(user_id=user_id, on=on, feed_secret=new_secret())


class Migration(migrations.Migration):

    dependencies = [
        ("accounts", "0001_initial"),
        ("reach", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="channelsettings",
            name="on",
            field=models.JSONField(blank=True, default=dict,
                                   verbose_name="kinds turned on per channel (of those off by default)"),
        ),
        migrations.RunPython(keep_chat_emails_of_every_time_readers, migrations.RunPython.noop, elidable=True),
    ]
