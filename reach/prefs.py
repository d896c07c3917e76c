"""Per channel and kind of event: what a player chose (the one settings page writes it)."""

from __future__ import annotations

from reach.models import Channel, ChannelSettings, EventKind

# E-mail kinds that have their own switch in the grid; "your move" follows User.notify_mode and the
# deadline kinds User.deadline_reminders (the e-mail settings that existed before the grid).
EMAIL_SWITCHED = (EventKind.STARTED, EventKind.FINISHED, EventKind.CANCELLED, EventKind.INVITATION)
EMAIL_DEADLINE = (EventKind.REMINDER, EventKind.TIMEOUT)


def settings_for(user) -> ChannelSettings:
    row, _ = ChannelSettings.objects.get_or_create(user=user)
    return row


def drop_unwanted_email(drafts: list) -> list:
    """The e-mail drafts whose kind their recipient has not turned off in the grid.

    Only kinds with their own switch are looked up (one query, and only when such a draft is there:
    turn e-mails, the frequent ones, cost nothing).
    """
    switched = [d for d in drafts if d.kind in EMAIL_SWITCHED]
    if not switched:
        return drafts
    off = {
        user_id: set(row_off.get(Channel.EMAIL) or [])
        for user_id, row_off in ChannelSettings.objects.filter(
            user_id__in={d.user.pk for d in switched}
        ).values_list("user_id", "off")
    }
    return [d for d in drafts if d.kind not in off.get(d.user.pk, ())]
