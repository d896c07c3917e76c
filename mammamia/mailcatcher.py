"""A real SMTP server (aiosmtpd) that keeps every message as an .eml file.

``make run`` starts it when no EMAIL_URL is configured, so a developer reads
outgoing mail in ``var/mail/`` or at ``/dev/mail/`` (DEBUG only). The e2e
tests use it as their SMTP catcher.
"""

from __future__ import annotations

import argparse
import asyncio
import time
from pathlib import Path

from aiosmtpd.controller import Controller


class SaveToFolder:
    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.folder.mkdir(parents=True, exist_ok=True)

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 - aiosmtpd's hook name
        stamp = f"{time.time():.6f}".replace(".", "-")
        rcpt = envelope.rcpt_tos[0].replace("@", "_at_").replace("/", "_") if envelope.rcpt_tos else "nobody"
        path = self.folder / f"{stamp}-{rcpt}.eml"
        tmp = path.with_suffix(".tmp")
        tmp.write_bytes(envelope.original_content or envelope.content)
        tmp.rename(path)  # readers never see a half-written message
        return "250 Message accepted for delivery"


def start(*, folder: Path, host: str = "127.0.0.1", port: int = 1025) -> Controller:
    """Start the catcher in a background thread; call ``.stop()`` on the result."""
    controller = Controller(SaveToFolder(folder), hostname=host, port=port)
    controller.start()
    return controller


def main() -> None:
    from django.conf import settings  # noqa: F401 - only for the default folder below

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=1025)
    parser.add_argument("--folder", type=Path, default=Path(__file__).resolve().parent.parent / "var" / "mail")
    args = parser.parse_args()
    controller = start(folder=args.folder, host=args.host, port=args.port)
    print(f"mail catcher on {args.host}:{args.port}, saving to {args.folder}", flush=True)
    try:
        asyncio.run(asyncio.Event().wait())
    except KeyboardInterrupt:
        pass
    finally:
        controller.stop()


if __name__ == "__main__":
    main()
