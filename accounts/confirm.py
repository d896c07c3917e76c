"""Confirm one-tap moves (issue 19): whether a move made with one tap (a Konamon! card, a Marumiere pile
or card) must be confirmed before it is sent.

The player chooses in the settings: always, never, or "auto" (the default): on a touch screen. "Touch
screen" is decided where it can be known honestly:

- with JavaScript, by the browser itself: the CSS media query ``(pointer: coarse)`` (the primary pointer
  is a finger), in ``static/js/confirm.js``, which then asks in place and tells the server it did
  (``confirmed=1``);
- without JavaScript, by what the request says of the device: the ``Sec-CH-UA-Mobile: ?1`` client hint
  that Chromium browsers send, else the ``Mobi`` token that phone browsers put in their user agent (the
  convention MDN recommends). Tablets without it are treated as desktops: they are asked only under
  "always".
"""

from __future__ import annotations

from django.http import HttpRequest

from accounts.models import ConfirmMoves


def request_from_phone(request: HttpRequest) -> bool:
    """Whether the request says it comes from a phone (used only when the page's script did not decide)."""
    hint = request.headers.get("Sec-CH-UA-Mobile")
    if hint is not None:
        return hint.strip() == "?1"
    return "Mobi" in request.headers.get("User-Agent", "")


def confirm_mode(user) -> str:
    """The user's choice (``auto`` for anyone without one)."""
    mode = getattr(user, "confirm_moves", None) if getattr(user, "is_authenticated", False) else None
    return mode if mode in ConfirmMoves.values else ConfirmMoves.AUTO


# One confirmation per decision (issue 32): a move form whose steps make one decision (a Konamon! card worked
# step by step) names it in ``confirm_once``; once one of its steps was confirmed, the later ones are not asked
# about. The script keeps the names in the tab (sessionStorage); without it the session keeps the latest few.
ONCE_FIELD = "confirm_once"
ONCE_SESSION_KEY = "confirmed_once"
ONCE_KEPT = 20


def _decision(request: HttpRequest) -> str:
    name = request.POST.get(ONCE_FIELD, "")
    return name if 0 < len(name) <= 64 else ""


def must_confirm(request: HttpRequest) -> bool:
    """Whether a one-tap move posted without the script's word must be confirmed on a page first."""
    if request.POST.get("confirmed") == "1":
        return False
    decision = _decision(request)
    if decision and decision in request.session.get(ONCE_SESSION_KEY, []):
        return False  # a later step of a decision already confirmed
    mode = confirm_mode(request.user)
    if mode == ConfirmMoves.ALWAYS:
        return True
    return mode == ConfirmMoves.AUTO and request_from_phone(request)


def remember_confirmed(request: HttpRequest) -> None:
    """A confirmed move (on the page of its own, or by the script) of a decision of several steps was played:
    its later steps go without asking. One session write per decision, none for other moves."""
    decision = _decision(request)
    if not decision or request.POST.get("confirmed") != "1":
        return
    kept = request.session.get(ONCE_SESSION_KEY, [])
    if decision not in kept:
        request.session[ONCE_SESSION_KEY] = [*kept[-(ONCE_KEPT - 1) :], decision]
