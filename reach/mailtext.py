"""The text of an HTML e-mail body, as lines, through a real HTML parser (lxml's, i.e. libxml2's).

Used to read replies (``reach.replies.first_line``): what matters is what the sender wrote, so quoted
messages (``blockquote``), the head (title, styles) and scripts are left out; block elements and ``<br>``
end a line, inline ones (``b``, ``span``, ``a``...) do not. The work is bounded: libxml2 parses in time
linear in the input (whatever the markup: unclosed tags, comments, nesting, all of which made a regular
expression or some versions of ``html.parser`` quadratic), the input is cut at ``MAX_HTML_CHARS`` and the
walk stops once ``max_chars`` of text are collected. lxml parses without holding the GIL, so the inbound
listener keeps answering meanwhile.
"""

from __future__ import annotations

from lxml import etree

MAX_HTML_CHARS = 512 * 1024  # the listener's limit on a whole message (reach.inbound.MAX_MESSAGE_BYTES)
MAX_TEXT_CHARS = 16 * 1024
SKIPPED = frozenset({"blockquote", "head", "title", "style", "script", "template", "noscript"})
INLINE = frozenset({"a", "abbr", "b", "bdi", "bdo", "cite", "code", "em", "font", "i", "kbd", "mark", "q", "s",
                    "samp", "small", "span", "strong", "sub", "sup", "time", "u", "var", "wbr"})


def html_text(markup: str, *, max_chars: int = MAX_TEXT_CHARS) -> str:
    """The readable text of ``markup``, lines separated by newlines (entities decoded, NULs gone)."""
    data = markup[:MAX_HTML_CHARS].replace("\x00", "").encode("utf-8", "replace")
    if not data.strip():
        return ""
    parser = etree.HTMLParser(recover=True, no_network=True, remove_comments=True, remove_pis=True,
                              encoding="utf-8")
    try:
        root = etree.fromstring(data, parser)
    except (etree.ParserError, etree.XMLSyntaxError, ValueError):
        return ""
    if root is None:
        return ""
    pieces: list[str] = []
    size = 0
    walker = etree.iterwalk(root, events=("start", "end"))
    for event, element in walker:
        tag = element.tag if isinstance(element.tag, str) else ""
        if event == "start":
            if tag in SKIPPED:
                walker.skip_subtree()  # its text is not the sender's; its tail still is (the "end" event)
                continue
            text = element.text
        else:
            text = element.tail
        if tag not in INLINE:
            pieces.append("\n")
        if text:
            pieces.append(text)
            size += len(text)
            if size >= max_chars:
                break
    return "".join(pieces)
