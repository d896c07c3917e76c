"""The inbound mail listener: a real SMTP or LMTP server (aiosmtpd) in front of ``reach.replies.handle``.

Put it behind the site's MTA (Postfix: a transport for the inbound domain to ``lmtp:inet:127.0.0.1:2525``
or ``smtp:[127.0.0.1]:2525``) or, for an MTA that pipes, use ``manage.py receive_mail --stdin``.
Only ``move+...@INBOUND_MAIL_DOMAIN`` recipients are accepted (550 for anything else: it is no open relay),
messages are limited in size, and a message is accepted (250) once handled, whatever it said: the answer,
if any, goes out as an e-mail from the outbox, never as an SMTP error that would make a bounce.
"""

from __future__ import annotations

import asyncio
import logging
import re

from aiosmtpd.controller import Controller
from aiosmtpd.lmtp import LMTP
from aiosmtpd.smtp import SMTP
from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import connections

from reach import replies

logger = logging.getLogger(__name__)

MAX_MESSAGE_BYTES = 512 * 1024


def _accepts(address: str) -> bool:
    domain = re.escape(settings.INBOUND_MAIL_DOMAIN.lower())
    return bool(re.fullmatch(rf"move\+[a-z0-9-]{{1,80}}@{domain}", address.lower()))


def _handle_sync(raw: bytes, recipients: list[str], mail_from: str) -> replies.Result:
    """In a worker thread of the listener; its database connection is closed after each message (inbound
    mail is rare, and a thread pool's idle connections would otherwise stay open)."""
    try:
        return replies.handle(raw, recipients=recipients, mail_from=mail_from)
    finally:
        connections.close_all()


class ReplyHandler:
    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):  # noqa: N802 - aiosmtpd
        if not _accepts(address):
            return "550 5.1.1 No such mailbox here"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 - aiosmtpd
        raw = envelope.original_content or envelope.content
        try:
            result = await sync_to_async(_handle_sync, thread_sensitive=False)(
                raw, list(envelope.rcpt_tos), envelope.mail_from or ""
            )
        except Exception:  # noqa: BLE001 - a temporary failure (the database): the MTA tries again later
            logger.exception("inbound mail could not be handled")
            return "451 4.3.0 Try again later"
        logger.info("inbound mail to %s: %s %s", envelope.rcpt_tos, result.outcome, result.detail)
        if server.__class__ is LMTP or isinstance(server, LMTP):
            return "\r\n".join("250 OK" for _ in envelope.rcpt_tos) if len(envelope.rcpt_tos) > 1 else "250 OK"
        return "250 OK"


class ReplyController(Controller):
    def __init__(self, *, host: str, port: int, lmtp: bool = False) -> None:
        self.lmtp = lmtp
        super().__init__(ReplyHandler(), hostname=host, port=port, data_size_limit=MAX_MESSAGE_BYTES,
                         server_hostname=settings.INBOUND_MAIL_DOMAIN or "localhost")

    def factory(self):
        cls = LMTP if self.lmtp else SMTP
        return cls(self.handler, **self.SMTP_kwargs)


def serve(*, host: str, port: int, lmtp: bool = False) -> None:
    controller = ReplyController(host=host, port=port, lmtp=lmtp)
    controller.start()
    logger.info("inbound %s listener on %s:%s for move+...@%s", "LMTP" if lmtp else "SMTP", host, port,
                settings.INBOUND_MAIL_DOMAIN)
    try:
        asyncio.run(asyncio.Event().wait())
    except KeyboardInterrupt:
        pass
    finally:
        controller.stop()
