"""What the feature apps tell the platform core, without the core importing them (issue 26).

The core (``games/``) never imports a feature app (``together``, ``competition``, ``reach``,
``notifications``; the import contracts in ``pyproject.toml`` check it). Where the core needs a feature's
word, the feature registers a callable here in its ``AppConfig.ready()`` and the core asks every one:

- **vetoes**: ``join_vetoes`` (``check(user=, game=)``) and ``invitation_vetoes`` (``check(inviter=,
  invitee=)``) raise a ``games.exceptions.GameError`` to refuse the action (blocking refuses an
  invitation, ``together.moderation``); asked inside the action's transaction;
- **filters**: ``invitee_filters`` (``filter(users, user=)`` -> queryset) narrow whom the invitation box
  suggests (without blocked players), inside the one query;
- **facts**: ``activity_stamps`` (``stamp(game_ref)`` -> a subquery expression of an integer that changes
  with what is not a move: a chat message, a resignation), part of the live partial's page token;
  ``event_texts`` (``text(kind, name)`` -> str or ``None``) say a platform event a feature records
  (``GameEvent.kind`` values of its own); ``my_games_extras`` (``extra(user=, game_ids=)`` -> dict) add
  per-game facts to "My games" and the API's list (unread chat); ``stats_extras`` (``extra(user=,
  rows=)``) add to the per-game statistics of a profile (ratings);
- **columns**: ``access_columns`` (``columns(user=)`` -> ``{name: expression}``) read with a game's seats in the
  one query that decides who may see the page (``games.play.selectors.game_access``): a panel's data that
  would otherwise cost a query of its own (the table's activity, the viewer's note, the players' ratings).
  Each expression is evaluated per seat row (``OuterRef("pk")`` is the seat, ``OuterRef("game_id")`` its
  game); prefix the names with the app's name.

- **invitation links**: ``invite_links``, one provider (``register_invite_links``) of the per-link invitations
  to a game (``trust.invites``): ``create_link(user=, game_id=)``, ``game_id_for(token)``, ``note_use(token)``,
  ``links_for(game)``, ``link_url(request, link)``, ``session_holds_usable_link(session, game)``. The lobby
  makes and reads links through it; with none registered a game has no links (only seats and invitations by
  name admit to a private game).

Each list is filled once at start-up (``ready()``), read many times; the order is the apps' order.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

join_vetoes: list[Callable[..., None]] = []
invitation_vetoes: list[Callable[..., None]] = []
invitee_filters: list[Callable[..., Any]] = []
activity_stamps: list[Callable[[Any], Any]] = []
event_texts: list[Callable[[str, str], str | None]] = []
my_games_extras: list[Callable[..., dict]] = []
stats_extras: list[Callable[..., None]] = []
access_columns: list[Callable[..., dict]] = []


class InviteLinks(Protocol):
    """Per-link invitations to a game (``trust.invites`` is one: a module with these functions)."""

    def create_link(self, *, user, game_id: int) -> Any: ...
    def game_id_for(self, token: str) -> int | None: ...
    def note_use(self, token: str) -> None: ...
    def links_for(self, game) -> list: ...
    def link_url(self, request, link) -> str: ...
    def session_holds_usable_link(self, session, game) -> bool: ...


class NoInviteLinks:
    """No provider registered: nothing is made, no token admits, no session holds a link."""

    def create_link(self, *, user, game_id: int) -> Any:
        raise LookupError("no invitation-link provider is registered (games.policies.register_invite_links)")

    def game_id_for(self, token: str) -> int | None:
        return None

    def note_use(self, token: str) -> None:
        return None

    def links_for(self, game) -> list:
        return []

    def link_url(self, request, link) -> str:
        return ""

    def session_holds_usable_link(self, session, game) -> bool:
        return False


invite_links: InviteLinks = NoInviteLinks()


def _add(registry: list, function: Callable) -> Callable:
    if function not in registry:  # ready() may run twice in tests; one entry each
        registry.append(function)
    return function


def register_join_veto(check: Callable[..., None]) -> Callable[..., None]:
    return _add(join_vetoes, check)


def register_invitation_veto(check: Callable[..., None]) -> Callable[..., None]:
    return _add(invitation_vetoes, check)


def register_invitee_filter(narrow: Callable[..., Any]) -> Callable[..., Any]:
    return _add(invitee_filters, narrow)


def register_activity_stamp(stamp: Callable[[Any], Any]) -> Callable[[Any], Any]:
    return _add(activity_stamps, stamp)


def register_event_text(text: Callable[[str, str], str | None]) -> Callable[[str, str], str | None]:
    return _add(event_texts, text)


def register_my_games_extra(extra: Callable[..., dict]) -> Callable[..., dict]:
    return _add(my_games_extras, extra)


def register_stats_extra(extra: Callable[..., None]) -> Callable[..., None]:
    return _add(stats_extras, extra)


def register_access_columns(columns: Callable[..., dict]) -> Callable[..., dict]:
    """``columns(user=...)``: annotations of the game's seats query. They may depend on the viewer only through
    ``user.is_authenticated`` and ``user.pk`` used as a query value: the query is compiled once per process
    (``games.precompiled``) and run with each viewer's id."""
    return _add(access_columns, columns)


def register_invite_links(provider: InviteLinks) -> InviteLinks:
    global invite_links
    invite_links = provider
    return provider


def access_annotations(*, user) -> dict:
    """Every feature's columns to read with the seats of a game, for ``user`` (anonymous or not)."""
    annotations: dict = {}
    for columns in access_columns:
        annotations.update(columns(user=user))
    return annotations


def check_may_join(*, user, game) -> None:
    """Raises the first feature's refusal of ``user`` taking a seat at ``game``."""
    for check in join_vetoes:
        check(user=user, game=game)


def check_may_invite(*, inviter, invitee) -> None:
    """Raises the first feature's refusal of ``inviter`` inviting ``invitee``."""
    for check in invitation_vetoes:
        check(inviter=inviter, invitee=invitee)


def invitable(users, *, user):
    """``users`` narrowed by every feature's filter of whom ``user`` may be offered to invite."""
    for narrow in invitee_filters:
        users = narrow(users, user=user)
    return users


def activity_stamp_expression(game_ref):
    """The sum of the features' activity stamps of the game ``game_ref`` points to (an ``OuterRef``), as one
    SQL expression; ``None`` when no feature records activity."""
    from django.db.models import IntegerField, Value
    from django.db.models.functions import Coalesce

    parts = [Coalesce(stamp(game_ref), Value(0), output_field=IntegerField()) for stamp in activity_stamps]
    if not parts:
        return None
    total = parts[0]
    for part in parts[1:]:
        total = total + part
    return total


def event_text(kind: str, name: str) -> str | None:
    """A feature's words for a platform event of its own kind; ``None`` if no feature knows the kind."""
    for text in event_texts:
        said = text(kind, name)
        if said:
            return said
    return None


def my_games_extra(*, user, game_ids: list[int], sections=None) -> dict:
    """Every feature's per-game facts for a list of ``user``'s games (template/serializer context)."""
    extra: dict = {}
    for add in my_games_extras:
        extra.update(add(user=user, game_ids=game_ids, sections=sections))
    return extra


def add_stats_extras(*, user, rows: list[dict]) -> None:
    """Let every feature add its columns to ``user``'s per-game statistics rows (in place)."""
    for add in stats_extras:
        add(user=user, rows=rows)
