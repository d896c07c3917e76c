"""League e-mails (started, finished or called off), rendered by notifications.emails like any outbox row."""

from __future__ import annotations

from django.utils.translation import gettext as _

from competition.leagues import standings
from competition.models import League, LeagueGame
from games.models import GameStatus
from notifications.emails import Rendered, absolute
from notifications.outbox import MessageKind, register_kind

LEAGUE_STARTED = "league_started"
LEAGUE_FINISHED = "league_finished"


def _league_context(row, ctx) -> tuple:
    league = League.objects.select_related("winner").get(pk=row.payload["league"])
    ctx.update(league=league, league_url=absolute(league.get_absolute_url()))
    # The base templates show their button for a game_url: here, the league's page.
    ctx["game_url"] = ctx["league_url"]
    mine = LeagueGame.objects.filter(league=league, game__seats__user=row.user)
    ctx["my_games"] = mine.count() if row.kind == LEAGUE_STARTED else 0
    # Issue 30: the games wait for each player's bits until then (games.lobby.seated); all were seated at once.
    ctx["deal_due"] = (
        mine.filter(game__status=GameStatus.OPEN).values_list("game__contributions_due_at", flat=True).first()
        if row.kind == LEAGUE_STARTED else None
    )
    if row.kind == LEAGUE_FINISHED and not row.payload.get("cancelled"):
        table = standings(league=league)
        ctx["standings"] = table.rows[:10]
        ctx["me"] = next((r for r in table.rows if r.user.pk == row.user_id), None)
    return league, ctx


def _started(row, ctx):
    league, ctx = _league_context(row, ctx)
    return Rendered(_("League “%(name)s” has started") % {"name": league.name}, "league_started", ctx)


def _finished(row, ctx):
    league, ctx = _league_context(row, ctx)
    if row.payload.get("cancelled"):
        ctx["cancelled"] = True
        subject = _("League “%(name)s” is called off") % {"name": league.name}
    elif league.winner_id == row.user_id:
        subject = _("League “%(name)s” is over: you won!") % {"name": league.name}
    else:
        subject = _("League “%(name)s” is over") % {"name": league.name}
    return Rendered(subject, "league_finished", ctx)


def register() -> None:
    """The league e-mails are message kinds like the others (``notifications.outbox``): "service" mail, as they
    concern no game's turn (queued only for those who want game mail, ``competition.leagues``)."""
    register_kind(MessageKind(LEAGUE_STARTED, "service", render_email=_started))
    register_kind(MessageKind(LEAGUE_FINISHED, "service", render_email=_finished))
