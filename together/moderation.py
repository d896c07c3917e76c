"""Blocking, reporting and what staff do about reports (from the Django admin)."""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone
from django.utils.translation import gettext as _

from games.exceptions import BadInput, NotAllowed
from together import live
from together.exceptions import RateLimited
from together.models import REPORT_DETAILS_MAX_LENGTH, Block, ChatMessage, Report

REPORT_RATE_LOCK_SPACE = 17018  # pg_advisory_xact_lock(space, user id): one report writer per user at a time


def _user_named(username) -> object:
    user = get_user_model().objects.filter(username=str(username or ""), is_active=True).first()
    if user is None:
        raise BadInput(_("There is no such player."))
    return user


def block(*, user, username: str) -> Block:
    """``user`` blocks ``username`` (private; doing it twice changes nothing)."""
    other = _user_named(username)
    if other.pk == user.pk:
        raise BadInput(_("You cannot block yourself."))
    row, _created = Block.objects.get_or_create(blocker=user, blocked=other)
    return row


def unblock(*, user, username: str) -> None:
    Block.objects.filter(blocker=user, blocked__username=str(username or "")).delete()


def is_blocked_by(*, user, other_id: int | None) -> bool:
    """Whether ``other_id`` has blocked ``user``."""
    return bool(other_id) and Block.objects.filter(blocker_id=other_id, blocked=user).exists()


def check_may_invite(*, inviter, invitee) -> None:
    """The platform's invite_user asks this: a blocked user may not invite the one who blocked them, and nobody
    invites a player they blocked themselves (told so: the block is their own)."""
    if is_blocked_by(user=inviter, other_id=invitee.pk):
        raise NotAllowed(_("You cannot invite this player."))
    if Block.objects.filter(blocker=inviter, blocked=invitee).exists():
        message = _("You have blocked %(name)s. Unblock them on their profile to invite them.")
        raise NotAllowed(message % {"name": invitee.public_name})


def without_blocks(users, *, user):
    """``users`` (a queryset of users) without those ``user`` blocked or who blocked ``user``: whom the platform
    may suggest to ``user`` (invitations). The same query, two NOT EXISTS more."""
    return users.exclude(Exists(Block.objects.filter(blocker=user, blocked=OuterRef("pk")))).exclude(
        Exists(Block.objects.filter(blocker=OuterRef("pk"), blocked=user))
    )


def check_may_join(*, user, game) -> None:
    """The platform's join_game asks this: a blocked user may not join games their blocker created."""
    if is_blocked_by(user=user, other_id=game.created_by_id):
        raise NotAllowed(_("You cannot join this game."))


def report(*, user, reason: str, details: str = "", username: str | None = None, message_id=None) -> Report:
    """``user`` reports a chat message (one they may read) or a player, with a reason."""
    if reason not in Report.Reason.values:
        raise BadInput(_("Choose a reason."))
    details = (details or "").strip() if isinstance(details, str) else ""
    if len(details) > REPORT_DETAILS_MAX_LENGTH:
        raise BadInput(_("Say it in at most 1000 characters."))
    message = None
    if message_id not in (None, ""):
        from together.selectors import readable_message

        try:
            message = readable_message(user=user, message_id=int(message_id))
        except (TypeError, ValueError):
            message = None
        if message is None or message.author_id is None:
            raise BadInput(_("There is no such message."))
        reported = message.author
    else:
        reported = _user_named(username)
    if reported.pk == user.pk:
        raise BadInput(_("You cannot report yourself."))
    with transaction.atomic():
        _check_report_rate(user)
        return Report.objects.create(
            reporter=user, reported_user=reported, message=message, reason=reason, details=details
        )


def _check_report_rate(user) -> None:
    """At most ``REPORT_RATE_LIMIT_PER_HOUR`` reports by ``user`` in any hour, counted in PostgreSQL under a
    per-user transaction lock (as the chat's limit), so a burst of parallel posts cannot all take the last place:
    a flood of reports would bury the moderators' queue."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [REPORT_RATE_LOCK_SPACE, user.pk])
    since = timezone.now() - dt.timedelta(hours=1)
    if Report.objects.filter(reporter=user, created_at__gt=since).count() >= settings.REPORT_RATE_LIMIT_PER_HOUR:
        raise RateLimited(_("You have sent many reports in a short time: wait an hour before the next report."))


def remove_message(*, message: ChatMessage, by) -> None:
    """Staff removed a message: it shows as "removed by a moderator" everywhere."""
    with transaction.atomic():
        updated = ChatMessage.objects.filter(pk=message.pk, removed_at__isnull=True).update(
            removed_at=timezone.now(), removed_by=by
        )
        if updated:
            live.table_changed(game_id=message.game_id, reason="chat")
        Report.objects.filter(message=message, handled_at__isnull=True).update(handled_at=timezone.now(), handled_by=by)


def deactivate_user(*, user, by=None) -> int:
    """Staff deactivated ``user``: they can no longer log in, and bots take their seats. Games touched."""
    from together.services import hand_over_all_seats

    get_user_model().objects.filter(pk=user.pk).update(is_active=False)
    user.is_active = False
    Report.objects.filter(reported_user=user, handled_at__isnull=True).update(handled_at=timezone.now(), handled_by=by)
    return hand_over_all_seats(user=user)
