"""Receive replies to "your move" e-mails: an SMTP/LMTP listener, or one message on stdin (for piping MTAs)."""

from __future__ import annotations

import sys

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError


class Command(BaseCommand):
    help = "Receive moves by e-mail reply: listen for SMTP (or LMTP), or read one message on stdin."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument("--port", type=int, default=2525)
        parser.add_argument("--lmtp", action="store_true", help="speak LMTP instead of SMTP")
        parser.add_argument("--stdin", action="store_true", help="read one message on stdin and exit")
        parser.add_argument("--recipient", action="append", default=[],
                            help="with --stdin: the envelope recipient (the MTA's ${recipient}); repeatable")
        parser.add_argument("--sender", default=None, help="with --stdin: the envelope sender (${sender})")

    def handle(self, *args, **options) -> None:
        if not settings.INBOUND_MAIL_DOMAIN:
            raise CommandError("Set INBOUND_MAIL_DOMAIN to receive moves by e-mail.")
        if options["stdin"]:
            from reach.inbound import MAX_MESSAGE_BYTES
            from reach.replies import handle

            raw = sys.stdin.buffer.read(MAX_MESSAGE_BYTES + 1)
            if len(raw) > MAX_MESSAGE_BYTES:
                self.stderr.write("message too large; ignored")
                return
            result = handle(raw, recipients=options["recipient"], mail_from=options["sender"])
            self.stdout.write(f"{result.outcome} {result.detail}".strip())
            return
        from reach.inbound import serve

        self.stdout.write(f"receiving moves by e-mail on {options['host']}:{options['port']}"
                          f" ({'LMTP' if options['lmtp'] else 'SMTP'}) for move+…@{settings.INBOUND_MAIL_DOMAIN}")
        self.stdout.flush()
        serve(host=options["host"], port=options["port"], lmtp=options["lmtp"])
