"""Per channel and kind of event: what a player chose (the one settings page writes it)."""

from __future__ import annotations

from reach.models import Channel, ChannelSettings, EventKind, wants

# E-mail kinds that have their own switch in the grid; "your move" follows User.notify_mode and the
# deadline kinds User.deadline_reminders (the e-mail settings that existed before the grid).
EMAIL_SWITCHED = (EventKind.STARTED, EventKind.FINISHED, EventKind.CANCELLED, EventKind.INVITATION, EventKind.CHAT)
EMAIL_DEADLINE = (EventKind.REMINDER, EventKind.TIMEOUT)


def settings_for(user) -> ChannelSettings:
    row, _ = ChannelSettings.objects.get_or_create(user=user)
    return row


def wanting(user_ids, channel: str, kind: str) -> set[int]:
    """Those of ``user_ids`` who want ``kind`` on ``channel`` (one query)."""
    rows = {row.user_id: row for row in ChannelSettings.objects.filter(user_id__in=set(user_ids)).only(
        "user_id", "off", "on")}
    return {user_id for user_id in user_ids if wants(rows.get(user_id), channel, kind)}


def drop_unwanted_email(drafts: list) -> list:
    """The e-mail drafts whose kind their recipient has not turned off in the grid (nor left off, for the
    kinds e-mail leaves off by default).

    Only kinds with their own switch are looked up (one query, and only when such a draft is there:
    turn e-mails, the frequent ones, cost nothing).
    """
    switched = [d for d in drafts if d.kind in EMAIL_SWITCHED]
    if not switched:
        return drafts
    rows = {
        row.user_id: row
        for row in ChannelSettings.objects.filter(user_id__in={d.user.pk for d in switched}).only(
            "user_id", "off", "on")
    }
    return [d for d in drafts if d.kind not in EMAIL_SWITCHED or wants(rows.get(d.user.pk), Channel.EMAIL, d.kind)]
