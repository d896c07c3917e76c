"""Read the .eml files the development mail catcher writes (``mammamia/mailcatcher.py``)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from pathlib import Path

# The catcher names files "<stamp>-<recipient>.eml" from [A-Za-z0-9._@-]; anything
# else (a slash, "..", a NUL) is refused before it gets near the file system.
NAME_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._@+-]{0,200}\.eml")


@dataclass
class Mail:
    name: str
    received: datetime
    subject: str = ""
    sender: str = ""
    to: str = ""
    headers: list[tuple[str, str]] = field(default_factory=list)
    text: str = ""
    html: str = ""
    attachments: list[str] = field(default_factory=list)


def _parse(path: Path, *, with_body: bool) -> Mail:
    with path.open("rb") as handle:
        message: EmailMessage = BytesParser(policy=policy.default).parse(handle, headersonly=not with_body)
    mail = Mail(
        name=path.name,
        received=datetime.fromtimestamp(path.stat().st_mtime, tz=UTC),
        subject=str(message.get("Subject", "")),
        sender=str(message.get("From", "")),
        to=str(message.get("To", "")),
        headers=[(key, str(value)) for key, value in message.items()],
    )
    if with_body:
        text_part = message.get_body(preferencelist=("plain",))
        html_part = message.get_body(preferencelist=("html",))
        mail.text = text_part.get_content() if text_part is not None else ""
        mail.html = html_part.get_content() if html_part is not None else ""
        mail.attachments = [part.get_filename() or part.get_content_type() for part in message.iter_attachments()]
    return mail


def list_mail(*, folder: Path, limit: int = 200) -> list[Mail]:
    """The newest ``limit`` messages in ``folder``, newest first (headers only)."""
    if not folder.is_dir():
        return []
    paths = sorted(
        (path for path in folder.glob("*.eml") if path.is_file()), key=lambda p: p.stat().st_mtime, reverse=True
    )
    return [_parse(path, with_body=False) for path in paths[:limit]]


def read_mail(*, folder: Path, name: str) -> Mail | None:
    """One message by file name, or None for a bad or unknown name."""
    if not NAME_RE.fullmatch(name):
        return None
    folder = folder.resolve()
    path = (folder / name).resolve()
    if path.parent != folder or not path.is_file():
        return None
    return _parse(path, with_body=True)
