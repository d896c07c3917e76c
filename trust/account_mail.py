"""Account e-mails (address confirmation, password reset, e-mail change, sign-in codes) through the outbox.

allauth renders the message in the request (its language, its links); instead of talking to the SMTP server
there, the rendered message is written as an ``OutboxEmail`` of kind ``account`` and delivered by the workers
like every game e-mail: an SMTP outage delays it (retries with backoff, the sweeper) and loses nothing, and the
request never waits for the mail server. The recipient is the address allauth chose (a new address being
confirmed, or an address with no account for a reset request), so the row's ``user`` may be empty.
"""

from __future__ import annotations

import uuid

from django.conf import settings
from django.core.mail import EmailMessage, EmailMultiAlternatives

ACCOUNT_KIND = "account"


def _user_for(email: str, context: dict):
    from allauth.account.models import EmailAddress

    user = context.get("user")
    if user is not None and getattr(user, "pk", None) is not None:
        return user
    address = EmailAddress.objects.filter(email__iexact=email).select_related("user").first()
    return address.user if address is not None else None


def queue_account_mail(message: EmailMessage, *, context: dict) -> int | None:
    """Write ``message`` (rendered by allauth) to the outbox; delivery is queued after commit."""
    from notifications.outbox import Draft, queue

    to = list(message.to)
    html = next((content for content, mimetype in getattr(message, "alternatives", []) if mimetype == "text/html"), "")
    payload = {
        "to": to,
        "subject": message.subject,
        "body": message.body,
        "html": html,
        "from": message.from_email or settings.DEFAULT_FROM_EMAIL,
    }
    user = _user_for(to[0] if to else "", context)
    ids = queue([Draft(user=user, kind=ACCOUNT_KIND, key=f"account:{uuid.uuid4()}", payload=payload)])
    return ids[0] if ids else None


def build_account_message(row) -> EmailMultiAlternatives:
    payload = row.payload
    message = EmailMultiAlternatives(
        subject=" ".join(str(payload.get("subject", "")).split()),
        body=payload.get("body", ""),
        from_email=payload.get("from") or settings.DEFAULT_FROM_EMAIL,
        to=payload.get("to") or [],
        headers={"Message-ID": row.message_id, "Auto-Submitted": "auto-generated"},
    )
    if payload.get("html"):
        message.attach_alternative(payload["html"], "text/html")
    return message


def register() -> None:
    from notifications.outbox import MessageKind, register_kind

    register_kind(MessageKind(ACCOUNT_KIND, "account", build_email=build_account_message))
