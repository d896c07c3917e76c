"""What every game's UI shares: the move-parsing contract and small helpers.

A game UI turns an engine *view* (never the raw state) into template context,
and turns a posted form back into exactly one of the engine's legal moves. The
forms are built from ``legal_moves`` only, so a player can only ever ask for a
move the engine listed; ``parse_move`` still checks, because a POST can say
anything.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.ui import names

logger = logging.getLogger(__name__)

Move = dict[str, Any]
View = dict[str, Any]
Players = list[dict[str, Any]]
# A log-event describer: (event params, players) -> plain text (escaped later).
Describer = Callable[[dict[str, Any], Players], str]


class BadMoveInput(ValueError):
    """Posted form data that does not make one of the legal moves.

    ``message`` is already translated and meant for the player.
    """

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def move_value(move: Move) -> str:
    """A legal move as the JSON a single-choice button or radio posts in its ``move`` field."""
    return json.dumps(move, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def at(items: Any, index: int) -> Any:
    """``items[index]`` for a per-seat list from a view, or ``None`` when absent."""
    if isinstance(items, list) and 0 <= index < len(items):
        return items[index]
    return None


def find_legal(candidate: Any, legal_moves: list[Move]) -> Move | None:
    """The legal move equal to ``candidate`` (key order aside), or ``None``.

    Returning the engine's own dict (not the candidate) keeps value types exact:
    JSON ``1.0`` or ``true`` may compare equal to ``1`` but never reach the engine.
    """
    if not isinstance(candidate, dict):
        return None
    for move in legal_moves:
        if _same_move(move, candidate):
            return dict(move)
    return None


def _same_move(move: Move, candidate: dict[str, Any]) -> bool:
    """Equal by value and by JSON type, so ``True`` does not pass for ``1``."""
    return move_value(move) == _json_or_none(candidate)


def _json_or_none(candidate: dict[str, Any]) -> str | None:
    try:
        return move_value(candidate)
    except (TypeError, ValueError, RecursionError):
        return None


def _words(value: Any) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{k} {_words(v)}" for k, v in value.items() if v is not None)
    if isinstance(value, list):
        return " + ".join(_words(v) for v in value) or "-"
    return str(value).replace("_", " ")


def generic_move_label(move: Any) -> str:
    """A legal move read off its own fields ("play card: card 3"): the label of a game that has none."""
    if not isinstance(move, Mapping):
        return str(move)
    kind = str(move.get("type", "")).replace("_", " ")
    rest = _words({k: v for k, v in move.items() if k != "type"})
    return f"{kind}: {rest}" if rest else kind


@dataclass
class ReplyOption:
    """One code of an e-mail reply: ``code`` (digits), what it does, and the move it makes — ``{"": move}``, or
    one move per letter written after the code (``{"K": …, "R": …}``: "12K")."""

    code: str
    label: str
    moves: dict[str, Move]


@dataclass
class ReplyMenu:
    """The codes a seat may answer an e-mail with. ``parts``: the letters added to a code, ``(letter, meaning)``,
    explained once under the list. ``several``: a reply may hold several codes, played in order as long as the
    seat is awaited (a whole Konamon! card); each code then names the same step whatever came before it, and
    ``stop`` (a code, or "") ends the card's remaining steps."""

    options: list[ReplyOption]
    parts: list[tuple[str, str]] = field(default_factory=list)
    several: bool = False
    stop: str = ""
    stop_label: str = ""


class GameUI:
    """The per-game UI; subclasses fill in the game's specifics.

    The platform calls ``page_context``, includes ``table_template`` and
    ``moves_template`` with it, and hands posted forms to ``parse_move``.
    Everything the templates need lives under the single context key
    ``gameui`` so it never clobbers the platform's own context.
    """

    slug: str = ""
    # Event type -> describer; unknown types get a neutral sentence.
    event_describers: dict[str, Describer] = {}
    # Event type -> describer of the event told to the player it is about, in the second person ("You carry out
    # No. 16."): used when the reader (``describe_event``'s ``viewer``) is the event's seat, i.e. its
    # ``you_subjects`` key (default "seat"). E-mails speak to their reader so.
    you_describers: dict[str, Describer] = {}
    you_subjects: dict[str, str] = {}
    # IllegalMove code -> translatable template with %(name)s placeholders (lazy strings).
    message_templates: dict[str, Any] = {}
    # IllegalMove param name -> how to show its value (a product id as its translated name).
    message_formatters: dict[str, Callable[[Any], str]] = {}
    # Engine event types that begin a round: the log shows a round break before them (issue 19).
    round_events: frozenset[str] = frozenset({"round", "round_start"})
    # Engine event types shown as one line per run of them (``collapsed_text``), e.g. forgotten announcements.
    collapsed_events: frozenset[str] = frozenset()
    # Legal move type -> what the player is asked to do, for e-mails ("place your bid"); the first
    # type of the seat's legal moves listed here wins, else the platform's generic phrase.
    awaited_phrases: tuple[tuple[str, Any], ...] = ()
    # Engine option -> (label, help text, {value: label}) for the creation form and the game page.
    option_labels: dict[str, tuple[Any, Any, dict[Any, Any]]] = {}
    # How the rules break a tie on the score, as a phrase ("the most topping cards left in hand"); None: tied
    # players share the place. The end-of-game e-mail explains a tie with it.
    tie_break: Any = None

    @property
    def template_folder(self) -> str:
        """Where the game folder keeps its templates: ``<app label>/``, the package holding this UI."""
        return type(self).__module__.rpartition(".")[0].rpartition(".")[2]

    @property
    def table_template(self) -> str:
        return f"{self.template_folder}/table.html"

    @property
    def moves_template(self) -> str:
        return f"{self.template_folder}/moves.html"

    @property
    def revealed_template(self) -> str:
        return f"{self.template_folder}/revealed.html"

    # Page ----------------------------------------------------------------------

    def page_context(
        self, *, view: View, legal_moves: list[Move], seat: int | None, players: Players
    ) -> dict[str, Any]:
        """Template context for the table and the move forms, under ``gameui``."""
        seats = [self.seat_context(view=view, players=players, seat=s, viewer=seat) for s in range(len(players))]
        context = {
            "slug": self.slug,
            "viewer": seat,
            "seats": seats,
            "my_turn": bool(legal_moves),
            "round": view.get("round"),
        }
        context.update(self.game_context(view=view, legal_moves=legal_moves, seat=seat, players=players))
        context["readings"] = self.readings(view=view, seat=seat, players=players, context=context)
        return {"gameui": context}

    def readings(self, *, view: View, seat: int | None, players: Players, context: dict[str, Any]) -> dict[str, str]:
        """What the page's keyboard commands read out (issue 31), in sentences: ``hand`` (the viewer's own
        cards) and ``table`` (the trick, the oven or the kitchen), built from this viewer's ``view`` and the
        ``context`` made from it, never more than the page shows. Games that have no such parts return {}."""
        return {}

    def seat_context(self, *, view: View, players: Players, seat: int, viewer: int | None) -> dict[str, Any]:
        """What every game shows for one seat; games add their own keys in ``game_context``."""
        player = players[seat] if seat < len(players) else {}
        scores = view.get("scores") or []
        return {
            "seat": seat,
            "name": names.player_name(players, seat),
            "colour": player.get("colour") or "",
            "is_bot": bool(player.get("is_bot")),
            "away": bool(player.get("away")),
            "dropped_out": bool(player.get("dropped_out")),
            "is_viewer": seat == viewer,
            # The engine's wait, unless the platform says nobody is awaited (a called-off game, issue 35).
            "awaited": seat in (view.get("waiting_for") or []) and player.get("awaited", True) is not False,
            "score": scores[seat] if seat < len(scores) else None,
            **self.seat_details(view=view, seat=seat, players=players),
        }

    def seat_details(self, *, view: View, seat: int, players: Players) -> dict[str, Any]:
        """The game's own per-seat keys (hand size, cards won, ...)."""
        return {}

    def game_context(
        self, *, view: View, legal_moves: list[Move], seat: int | None, players: Players
    ) -> dict[str, Any]:
        """The game's own context keys (boards, cards, forms)."""
        raise NotImplementedError

    # Moves ---------------------------------------------------------------------

    def parse_move(self, post: Mapping[str, Any], *, legal_moves: list[Move]) -> Move:
        """Exactly one of ``legal_moves`` from posted form data, or ``BadMoveInput``.

        A ``move`` field holding one legal move's JSON (single-button choices)
        wins; otherwise the game assembles the move from its form fields.
        """
        if not legal_moves:
            raise BadMoveInput(_("It is not your move now."))
        try:
            raw = post.get("move")
            if raw:
                return self._move_from_json(raw, legal_moves)
            return self.parse_fields(post, legal_moves=legal_moves)
        except BadMoveInput:
            raise
        except (AttributeError, KeyError, TypeError, ValueError, IndexError):
            # A POST can hold anything; a broken one is the player's form, not our bug.
            logger.info("malformed move form for %s", self.slug, exc_info=True)
            raise BadMoveInput(_("That move could not be read. Please choose again.")) from None

    def _move_from_json(self, raw: Any, legal_moves: list[Move]) -> Move:
        try:
            candidate = json.loads(raw)
        except (TypeError, ValueError, RecursionError):
            raise BadMoveInput(_("That move could not be read. Please choose again.")) from None
        move = find_legal(candidate, legal_moves)
        if move is None:
            raise BadMoveInput(_("That move is not allowed now. Please choose again."))
        return move

    def confirm_label(
        self, *, view: View, legal_moves: list[Move], seat: int | None, players: Players, move: Move
    ) -> str:
        """What the viewer's move form calls ``move`` (the label of its one-tap button), for the page
        that asks to confirm it; ``""`` when the form has no such button."""
        form = self.page_context(view=view, legal_moves=legal_moves, seat=seat, players=players)["gameui"].get("form")
        return _label_of(form, move_value(move)) or ""

    def parse_fields(self, post: Mapping[str, Any], *, legal_moves: list[Move]) -> Move:
        """Assemble a move from the game's form fields; games with composite forms override this."""
        raise BadMoveInput(_("Please choose a move."))

    def move_labels(self, *, view: View, legal_moves: list[Move]) -> list[str]:
        """Each legal move in words, as the page's forms name it, for lists of moves outside the page (the
        e-mails that take moves by reply). ``view``: the engine's view for the seat whose moves these
        are (need to know: a label names only what that seat may see). A label that cannot be made
        (a move of a shape the UI does not know) is the generic one, never an error."""
        labels = []
        for move in legal_moves:
            try:
                label = self.move_label(move, view=view)
            except (KeyError, TypeError, ValueError, IndexError, AttributeError):
                logger.warning("cannot label %s move %r", self.slug, move, exc_info=True)
                label = None
            labels.append(str(label) if label else generic_move_label(move))
        return labels

    def move_label(self, move: Move, *, view: View) -> str | None:
        """One legal move in the game's words; games override this (``None``: the generic label)."""
        return None

    def reply_menu(self, *, view: View, legal_moves: list[Move]) -> ReplyMenu:
        """The codes a player writes in an e-mail reply to move (``reach.replies``). By default one number per
        legal move, in order; a game whose turn is several choices overrides it: a letter for a part of the move
        (Mamma Mia!'s refill), or codes that stay the same from one step to the next so that a whole card is one
        line (Konamon!). ``view``: the seat's own view (a label names only what that seat may see)."""
        labels = self.move_labels(view=view, legal_moves=legal_moves)
        return ReplyMenu([ReplyOption(str(n), label, {"": move})
                          for n, (move, label) in enumerate(zip(legal_moves, labels, strict=True), start=1)])

    def reply_turn(self, view: View) -> Any:
        """What a reply of several codes stays within (Konamon!: the card being carried out); None by default."""
        return None

    def reply_step(self, wanted: Move | None, *, view: View, legal_moves: list[Move], turn: Any) -> Move | None:
        """The move to play now for the code naming ``wanted`` (``None``: the menu's stop), or None when it cannot
        be played now: ``wanted`` itself if it is legal. ``turn``: ``reply_turn`` of the view the reply began at."""
        return find_legal(wanted, legal_moves) if wanted is not None else None

    # Log and messages ----------------------------------------------------------

    def describe_event(self, event: Mapping[str, Any], *, players: Players, viewer: int | None = None) -> SafeString:
        """One log event as a translated, escaped sentence; with ``viewer``, events about that seat speak to it
        ("You play No. 16." rather than "alice plays No. 16.")."""
        kind = event.get("type") if isinstance(event, Mapping) else None
        describer = self.event_describers.get(kind) if isinstance(kind, str) else None
        if describer is not None and viewer is not None and kind in self.you_describers:
            subject = event.get(self.you_subjects.get(kind, "seat"))
            if isinstance(subject, int) and not isinstance(subject, bool) and subject == viewer:
                describer = self.you_describers[kind]
        text = None
        if describer is not None:
            try:
                text = describer(dict(event), players)
            except (KeyError, TypeError, ValueError, IndexError, AttributeError):
                # An engine added a param or changed a shape: say something neutral, never crash the page.
                logger.warning("cannot describe %s event %r", self.slug, event, exc_info=True)
        if text is None:
            text = generic_event_text(event, players)
        return mark_safe(escape(text))  # noqa: S308 - escaped just above

    def revealed_hands(self, state: dict[str, Any]) -> list[Any]:
        """Each seat's final hand from the full state, once the game is over."""
        raise NotImplementedError

    def annotated_log(self, events: list[Mapping[str, Any]], *, players: Players) -> list[Mapping[str, Any]]:
        """The viewer's log events with what their describers need from the events before them (one for
        one, in order): e.g. Marumiere's picks get their pile's laid-out number."""
        return events

    def redundant_event(self, event: Mapping[str, Any], following: Mapping[str, Any] | None) -> bool:
        """Whether the log leaves ``event`` out because the ``following`` one says it again, better."""
        return False

    def collapsed_text(self, events: list[Mapping[str, Any]], *, players: Players) -> str:
        """One log line for a run of ``collapsed_events``."""
        return generic_event_text(events[-1], players)

    def since_lines(self, events: list[Mapping[str, Any]], *, players: Players) -> list[str]:
        """The "since your last visit" summary of ``events`` (the viewer's own log, annotated): escaped
        lines, oldest first. By default the log's own lines (runs collapsed, repeats left out); games
        override it to tell a whole phase in one line (Mamma Mia!'s oven)."""
        lines: list[str] = []
        run: list[Mapping[str, Any]] = []
        for position, event in enumerate(events):
            kind = event.get("type") if isinstance(event, Mapping) else None
            if kind in self.collapsed_events:
                run.append(event)
                continue
            if run:
                lines.append(escape(self.collapsed_text(run, players=players)))
                run = []
            following = events[position + 1] if position + 1 < len(events) else None
            if following is not None and self.redundant_event(event, following):
                continue
            lines.append(self.describe_event(event, players=players))
        if run:
            lines.append(escape(self.collapsed_text(run, players=players)))
        return lines

    def replay_reveal(self, state: dict[str, Any]) -> dict[str, Any] | None:
        """What else the replay shows of the full state (nothing is secret once the game is over), for
        ``<game folder>/replay_reveal.html``; ``None``: nothing."""
        return None

    # The end screen (issue 19) ---------------------------------------------------

    def score_text(self, score: Any) -> str:
        """A final score with its unit: "1 point", "12 points" (games scoring something else override)."""
        return ngettext("%(count)s point", "%(count)s points", plural_count(score)) % {"count": score_number(score)}

    def final_details(self, state: dict[str, Any], players: Players) -> dict[int, dict[str, Any]]:
        """How each seat's score came about, from the final full state: ``{seat: {"parts": [text, ...],
        "tie_break": text}}``; ``tie_break`` says what decides between equal scores (shown where it did)."""
        return {}


def plural_count(value: Any) -> int:
    """A number for ``ngettext``: whole numbers as ``int``, any other (2.5, ``None``) as 2 (plural everywhere here).

    Negative scores count by their size: French makes -10 plural ("-10 points") although -10 is not more than 1,
    the test French plural forms use (``n > 1``)."""
    try:
        number = float(value)
    except (TypeError, ValueError):
        return 2
    return abs(int(number)) if number.is_integer() else 2


def score_number(value: Any) -> str:
    """A score as people write it: 12, -3, 2.5 (no "12.0"), « 2,5 » in French."""
    from django.utils.formats import number_format

    try:
        number = float(value)
    except (TypeError, ValueError):
        return str(value)
    return str(int(number)) if number.is_integer() else number_format(float(f"{number:g}"))


def _label_of(node: Any, value: str) -> str | None:
    """The label of the form option (any depth of dicts and lists) whose ``value`` is ``value``: its own
    ``label``, else its card's."""
    if isinstance(node, Mapping):
        if node.get("value") == value:
            card = node.get("card")
            label = node.get("label") or (card.get("label") if isinstance(card, Mapping) else None)
            if label:
                return str(label)
        children = node.values()
    elif isinstance(node, (list, tuple)):
        children = node
    else:
        return None
    for child in children:
        found = _label_of(child, value)
        if found:
            return found
    return None


def _whole(value: Any) -> Any:
    """A score as shown: 4.0 is 4."""
    return int(value) if isinstance(value, float) and value.is_integer() else value


def generic_event_text(event: Any, players: Players) -> str:
    """A neutral sentence for an event type this UI does not know (yet)."""
    seat = event.get("seat") if isinstance(event, Mapping) else None
    if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(players):
        return _("%(player)s made a move.") % {"player": names.player_name(players, seat)}
    return _("The game moved on.")
