"""Invitations in the waiting room (``games.panels``): the invitation box with its first suggestions, who is
invited and has not answered, and the invitation links; for a seated player of a game not started."""

from __future__ import annotations

from games import policies
from games.models import GameStatus
from games.panels import Panel, Table


def select(table: Table) -> dict:
    from games.forms import InviteForm
    from games.lobby import selectors

    links = policies.invite_links
    game, request = table.game, table.request
    return {
        # A refused invitation comes back with what was typed and why (games.views.invite).
        "invite_form": table.extra.get("invite_form") or InviteForm(),
        "invite_links": [{"link": link, "url": links.link_url(request, link)} for link in links.links_for(game)],
        "pending_invitations": selectors.pending_invitations(game=game),
        "invite_suggestions": selectors.invite_suggestions(game=game, user=request.user),
    }


panel = Panel(
    name="lobby.invitations",
    template="games/panels/_invitations.html",
    place="main",
    order=10,
    # Not in a game the site seated (a league's, issue 30): its seats are all taken and nobody else may join.
    condition=lambda table: table.game.status == GameStatus.OPEN
    and table.seat is not None
    and table.game.contributions_due_at is None,
    selector=select,
)
