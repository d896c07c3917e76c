"""The game page's answer to a move refused as stale (issue 32): never a lost choice.

- ``StillLegal``: one line, "alice played since you chose — still play Y?", a button that posts the same
  fields again at the current version (one tap) and "Choose again" (the fresh form under it);
- ``StaleVersion``: what changed since the page's version (the since-your-last-visit summary), one line
  that says why, and the fields the player had chosen, which ``static/js/stale.js`` selects again in the
  new form where it still offers them.

``static/js/stale.js`` puts the answer just above the move form and scrolls there, so a phone lands at the
form rather than at the top of the table. Everything comes from the viewer's own SeatView row.
"""

from __future__ import annotations

from django.http import HttpRequest
from django.utils.text import get_text_list
from django.utils.translation import gettext as _

from games.exceptions import StaleVersion, StillLegal
from games.history.since import Since, since
from games.play.selectors import GameAccess, seat_view_for

# Fields of the move form that are not the player's choice.
NOT_CHOICES = frozenset(
    {"csrfmiddlewaretoken", "version", "idempotency_key", "confirmed", "one_tap", "confirm_once"}
)


def _who(summary: Since | None, viewer_name: str | None) -> str | None:
    names = [name for name in (summary.movers if summary else []) if name != viewer_name]
    return get_text_list(names, _("and")) if names else None


def stale_answer(*, request: HttpRequest, access: GameAccess, refusal: StaleVersion, players: list[dict]) -> dict:
    """Context for ``games/_stale.html``: the question or the reason, the summary and the kept choice."""
    from games.ui import get_ui

    game, seat = access.game, access.seat
    row = seat_view_for(game=game, seat_number=seat.number) if seat is not None else None
    summary = None
    if row is not None and refusal.page_version is not None:
        summary = since(
            game=game, seat_number=seat.number, version=refusal.page_version, players=players, seat_view=row
        )
    who = _who(summary, seat.name if seat is not None else None)
    chosen = [(name, value) for name, value in request.POST.items() if name not in NOT_CHOICES]
    answer: dict = {"since": summary, "kept": {name: request.POST.getlist(name) for name, _value in chosen}}
    if isinstance(refusal, StillLegal) and row is not None:
        view = {**row.view, "log": row.log_tail}
        label = get_ui(game.engine_slug).move_labels(view=view, legal_moves=[refusal.move])[0]
        values = {"who": who, "move": label}
        answer.update(
            {
                "still_legal": True,
                "question": (
                    _("%(who)s played since you chose — still play %(move)s?") % values
                    if who
                    else _("The table changed since you chose — still play %(move)s?") % values
                ),
                "move_label": label,
                # The same fields again, at the current version; confirmed: this was the confirmation.
                "fields": [
                    (name, value)
                    for name, value in request.POST.items()
                    if name not in ("csrfmiddlewaretoken", "version", "confirmed")
                ]
                + [("version", str(refusal.version)), ("confirmed", "1")],
            }
        )
        return {"stale": answer}
    if seat is not None and not seat.awaited:
        why = f"{refusal.message} {_('It is not your move now.')}"
    elif who:
        why = _("%(who)s played since you chose, and your move is no longer possible: choose again.") % {"who": who}
    else:
        why = _("The table changed since you chose, and your move is no longer possible: choose again.")
    answer.update({"still_legal": False, "why": why, "my_turn_now": bool(seat and seat.awaited)})
    return {"stale": answer}
