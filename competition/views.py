"""Pages: a game's leaderboard, the leagues, one league (sign up, standings, games)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Count
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from competition import leagues as league_services
from competition import selectors
from competition.forms import LeagueForm
from competition.models import League, LeagueStatus
from competition.ratings import ACTIVE_DAYS, PROVISIONAL_GAMES
from games.engines import engine_slugs, get_engine
from games.exceptions import GameError

LEAGUES_PER_LIST = 20


def _engine_or_404(slug: str):
    if slug not in engine_slugs():
        raise Http404
    return get_engine(slug)


@require_GET
def leaderboard(request: HttpRequest, slug: str) -> HttpResponse:
    engine = _engine_or_404(slug)
    page = selectors.leaderboard(engine_slug=slug, page=request.GET.get("page"))
    return render(
        request,
        "competition/leaderboard.html",
        {
            "engine": engine,
            "page": page,
            "engines": [get_engine(s) for s in engine_slugs()],
            "active_days": ACTIVE_DAYS,
            "provisional_games": PROVISIONAL_GAMES,
        },
    )


@require_GET
def league_list(request: HttpRequest) -> HttpResponse:
    base = League.objects.annotate(players=Count("entries")).select_related("winner")
    sections = [
        (title, list(base.filter(status=status).order_by(order)[:LEAGUES_PER_LIST]))
        for title, status, order in (
            (_("Open for sign-ups"), LeagueStatus.SIGNUP, "signup_until"),
            (_("In progress"), LeagueStatus.ACTIVE, "-started_at"),
            (_("Finished"), LeagueStatus.FINISHED, "-finished_at"),
        )
    ]
    return render(request, "competition/league_list.html", {"sections": sections})


@login_required
def league_create(request: HttpRequest) -> HttpResponse:
    form = LeagueForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            league = league_services.create_league(
                user=request.user, name=data["name"], engine_slug=data["engine_slug"],
                players_per_game=data["players_per_game"], signup_until=data["signup_until"],
                time_limit_hours=data["time_limit_hours"],
            )
        except GameError as exc:
            form.add_error(None, exc.message)
        else:
            return redirect(league)
    status = 400 if request.method == "POST" else 200
    return render(request, "competition/league_create.html", {"form": form}, status=status)


@require_GET
def league_detail(request: HttpRequest, league_id: int) -> HttpResponse:
    league = get_object_or_404(League.objects.select_related("winner", "created_by"), pk=league_id)
    table = league_services.standings(league=league)
    signed_up = request.user.is_authenticated and any(row.user.pk == request.user.pk for row in table.rows)
    return render(
        request,
        "competition/league.html",
        {"league": league, "standings": table, "signed_up": signed_up, "open": league.status == LeagueStatus.SIGNUP},
    )


@login_required
@require_POST
def league_sign_up(request: HttpRequest, league_id: int) -> HttpResponse:
    return _league_action(request, league_id, league_services.sign_up, _("You are signed up."))


@login_required
@require_POST
def league_withdraw(request: HttpRequest, league_id: int) -> HttpResponse:
    return _league_action(request, league_id, league_services.withdraw, _("You are no longer signed up."))


def _league_action(request, league_id: int, action, done: str) -> HttpResponse:
    league = get_object_or_404(League, pk=league_id)
    try:
        action(user=request.user, league_id=league.pk)
    except GameError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, done)
    return redirect(league)
