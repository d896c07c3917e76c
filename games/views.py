"""Pages of the games platform: thin views over the services (writes) and selectors (reads) of
games.lobby, games.play and games.history.

Every game page, partial and log is built from the viewer's own SeatView row.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.template import TemplateDoesNotExist
from django.template.loader import get_template
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.confirm import must_confirm, remember_confirmed
from games import page, panels, policies
from games.engines import engine_slugs, get_engine
from games.exceptions import BadInput, GameError, InvitationRefused, ReplayUnavailable, StaleVersion
from games.forms import CreateGameForm, InviteForm
from games.history import selectors as history_selectors
from games.history import services as history_services
from games.lobby import commitments, seated
from games.lobby import selectors as lobby_selectors
from games.lobby import services as lobby_services
from games.lobby.selectors import INVITED_SESSION_KEY
from games.models import BotLevel, GameStatus
from games.play import selectors as play_selectors
from games.play import services as play_services
from games.play.next_game import next_awaiting
from games.play.selectors import GameAccess
from games.play.stale_page import stale_answer
from games.ui.help import table_help_context

# Lobby and my games --------------------------------------------------------------


@require_GET
def lobby(request: HttpRequest) -> HttpResponse:
    slug = request.GET.get("game") or ""
    if slug not in engine_slugs():
        slug = ""
    page = lobby_selectors.lobby_games(engine_slug=slug or None, page=request.GET.get("page"))
    return render(
        request,
        "games/lobby.html",
        {
            "page": page,
            "engines": [get_engine(s) for s in engine_slugs()],
            "selected": slug,
            "watch": lobby_selectors.public_games_in_progress(engine_slug=slug or None),
        },
    )


@login_required
@require_GET
def my_games(request: HttpRequest) -> HttpResponse:
    sections = play_selectors.my_games(user=request.user, finished_page=request.GET.get("page"))
    extra = policies.my_games_extra(user=request.user, game_ids=[], sections=sections)
    return render(request, "games/my_games.html", {"sections": sections, **extra})


@login_required
def create_game(request: HttpRequest) -> HttpResponse:
    form = CreateGameForm(request.POST or None, initial={"engine_slug": request.GET.get("game")})
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            game = lobby_services.create_game_and_invite(
                invite=data["invite"],
                user=request.user,
                engine_slug=data["engine_slug"],
                players=data["players"],
                options=data["options"],
                time_limit_hours=data["time_limit_hours"],
                time_control=data["time_control"],
                visibility=data["visibility"],
                bots=data["bots"],
                bot_levels=data["bot_levels"],
                rated=data["rated"],
                contribution=request.POST.get("contribution", ""),  # static/js/fairness.js (issue 30)
                commitment=request.POST.get("commitment", ""),  # shown on this form before the bits were drawn
            )
        except InvitationRefused as exc:
            form.add_error("invite", exc.message)
        except GameError as exc:
            form.add_error(None, exc.message)
        else:
            return redirect("game", game.pk)
    # Two-step create (games.lobby.commitments): the site's secret is fixed and its hash shown before the page
    # draws the creator's bits; each showing of the form has its own.
    commitment = commitments.commit(user=request.user).secret_sha256
    context = {"form": form, "commitment": commitment}
    return render(request, "games/create.html", context, status=400 if form.errors else 200)


def _review_mark(game, seat_number: int | None, last_move) -> dict | None:
    """The review's mark of the move the replay shows, when it is a decision of the viewer's own seat."""
    from games.history import review as reviews

    if seat_number is None or last_move is None or last_move.seat_number != seat_number:
        return None
    found = reviews.review_of(game=game, seat_number=seat_number)
    if found is None:
        return None
    entry = next((e for e in found.entries if e["sequence"] == last_move.sequence), None)
    return reviews.entry_for_language(entry) if entry else None


# Joining, leaving, inviting ----------------------------------------------------------


def invite_link(request: HttpRequest, token: str) -> HttpResponse:
    """The signed invitation link: remembers it in the session (to watch and join), then shows the game."""
    game_id = lobby_services.game_id_from_invite(token)
    if game_id is None:
        raise Http404
    policies.invite_links.note_use(token)
    invited = dict(request.session.get(INVITED_SESSION_KEY, {}))
    invited.pop(str(game_id), None)
    invited[str(game_id)] = token
    request.session[INVITED_SESSION_KEY] = dict(list(invited.items())[-50:])
    return redirect("game", game_id)


@login_required
@require_POST
def join(request: HttpRequest, game_id: int) -> HttpResponse:
    token = request.session.get(INVITED_SESSION_KEY, {}).get(str(game_id))
    contribution = request.POST.get("contribution", "")  # static/js/fairness.js draws it (issue 30)
    return _act(
        request,
        game_id,
        lambda: lobby_services.join_game(user=request.user, game_id=game_id, invite=token, contribution=contribution),
    )


@login_required
@require_POST
def contribute(request: HttpRequest, game_id: int) -> HttpResponse:
    """A seated player's bits for a deal that waits for them (a league's game, ``games.lobby.seated``): drawn by
    static/js/fairness.js as the page opens, typed in without JavaScript, or left to the site ("site_draws")."""
    if request.POST.get("site_draws"):
        return _act(request, game_id, lambda: seated.draw_mine(user=request.user, game_id=game_id))
    # Bits typed in win over the ones the script drew as the form was sent.
    contribution = request.POST.get("own_contribution", "").strip() or request.POST.get("contribution", "")
    return _act(
        request,
        game_id,
        lambda: lobby_services.contribute(user=request.user, game_id=game_id, contribution=contribution),
    )


@login_required
@require_POST
def leave(request: HttpRequest, game_id: int) -> HttpResponse:
    return _act(
        request, game_id, lambda: lobby_services.leave_game(user=request.user, game_id=game_id), to=reverse("lobby")
    )


@login_required
@require_POST
def cancel(request: HttpRequest, game_id: int) -> HttpResponse:
    return _act(
        request, game_id, lambda: lobby_services.cancel_game(user=request.user, game_id=game_id), to=reverse("my-games")
    )


@login_required
@require_POST
def invite(request: HttpRequest, game_id: int) -> HttpResponse:
    """Invite by username or display name; on an error the waiting room comes back with what was typed and why."""
    form = InviteForm(request.POST)
    if form.is_valid():
        try:
            invitation = lobby_services.invite_user(
                user=request.user, game_id=game_id, username=form.cleaned_data["username"]
            )
        except GameError as exc:
            form.add_error("username", exc.message)
        else:
            messages.success(request, _("Invitation sent to %(name)s.") % {"name": invitation.user.public_name})
            return redirect("game", game_id)
    access = play_selectors.game_access(game_id=game_id, user=request.user, session=request.session)
    if access is None or not access.may_view or access.game.status != GameStatus.OPEN or access.seat is None:
        for error in form.errors.get("username", [_("Give the username of the player to invite.")]):
            messages.error(request, error)
        return redirect("game", game_id) if access is not None and access.may_view else redirect("lobby")
    context = page.game_context(request, access, extra={"invite_form": form})
    return render(request, "games/game.html", context, status=400)


@login_required
@require_GET
def invite_suggestions(request: HttpRequest, game_id: int) -> HttpResponse:
    """The <option>s of the invitation box's list for what is typed (htmx, as the player types)."""
    access = play_selectors.game_access(game_id=game_id, user=request.user, session=request.session)
    if access is None or access.seat is None or access.game.status != GameStatus.OPEN:
        raise Http404
    users = lobby_selectors.invite_suggestions(game=access.game, user=request.user, query=request.GET.get("username"))
    return render(request, "games/_invite_suggestions.html", {"suggestions": users})


@login_required
@require_POST
def add_bot(request: HttpRequest, game_id: int) -> HttpResponse:
    level = request.POST.get("level") or BotLevel.NORMAL  # the waiting room's level choice (issue 28)
    return _act(request, game_id, lambda: lobby_services.add_bot(user=request.user, game_id=game_id, level=level))


@login_required
@require_POST
def remove_bot(request: HttpRequest, game_id: int, seat_id: int) -> HttpResponse:
    return _act(
        request, game_id, lambda: lobby_services.remove_bot(user=request.user, game_id=game_id, seat_id=seat_id)
    )


@login_required
@require_POST
def decline_invitation(request: HttpRequest, invitation_id: int) -> HttpResponse:
    try:
        lobby_services.decline_invitation(user=request.user, invitation_id=invitation_id)
    except GameError as exc:
        messages.error(request, exc.message)
    return redirect("my-games")


def _act(request: HttpRequest, game_id: int, action, *, to: str | None = None) -> HttpResponse:
    try:
        action()
    except GameError as exc:
        messages.error(request, exc.message)
        return redirect("game", game_id) if play_selectors.poll_token(game_id=game_id) else redirect("lobby")
    return HttpResponseRedirect(to or reverse("game", args=[game_id]))


# The game page -----------------------------------------------------------------------------


def _access_or_404(request: HttpRequest, game_id: int) -> GameAccess:
    access = play_selectors.game_access(game_id=game_id, user=request.user, session=request.session)
    if access is None or not access.may_view:
        raise Http404
    return access


@require_GET
def game(request: HttpRequest, game_id: int) -> HttpResponse:
    access = _access_or_404(request, game_id)
    context = page.game_context(request, access)
    seat = access.seat
    if seat is not None and access.game.status != GameStatus.OPEN:
        play_services.note_visit(seat=seat, version=access.game.version)
    return render(request, "games/game.html", context)


@require_GET
def game_table(request: HttpRequest, game_id: int) -> HttpResponse:
    """The live part of the game page; 204 (htmx swaps nothing) when nothing changed since ``?v=``."""
    poll = play_selectors.poll_token(game_id=game_id)
    if poll is None:
        raise Http404
    token, is_public = poll
    unchanged = request.GET.get("v") == token
    if unchanged and is_public:
        return HttpResponse(status=204)
    access = _access_or_404(request, game_id)
    if unchanged:
        return HttpResponse(status=204)
    context = page.game_context(request, access)
    if access.seat is not None and access.game.status != GameStatus.OPEN:
        play_services.note_visit(seat=access.seat, version=access.game.version)
    return render(request, "games/_live.html", context)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def game_move(request: HttpRequest, game_id: int) -> HttpResponse:
    """Hand the posted form to the service, which parses it (the UI's parser) under the game's lock
    against the seat's stored legal moves; redirect, or show why not. A GET (a reload of the page a
    refused move rendered, or a shared address) goes back to the game instead of a bare 405."""
    from games.ui import BadMoveInput

    if request.method != "POST":
        return HttpResponseRedirect(reverse("game", args=[game_id]))
    if request.POST.get("one_tap") and must_confirm(request):
        # Confirm one-tap moves, without JavaScript (with it, static/js/confirm.js asks in place).
        confirmation = _confirm_move_page(request, game_id)
        if confirmation is not None:
            return confirmation

    def parse(game, legal_moves):
        try:
            return page.ui_of(game.engine_slug).parse_move(request.POST, legal_moves=legal_moves)
        except BadMoveInput as exc:
            raise BadInput(exc.message) from None

    try:
        play_services.check_play_move(
            user=request.user,
            game_id=game_id,
            move=parse,
            expected_version=request.POST.get("version"),
            idempotency_key=request.POST.get("idempotency_key") or None,
        )
    except GameError as exc:
        access = play_selectors.game_access(game_id=game_id, user=request.user, session=request.session)
        if access is None or not access.may_view:
            raise Http404 from None
        context = page.game_context(request, access, error=exc.message)
        if isinstance(exc, StaleVersion):  # never a lost choice (issue 32)
            context.update(stale_answer(request=request, access=access, refusal=exc, players=context["players"]))
        template = "games/_live.html" if request.htmx else "games/game.html"
        return render(request, template, context, status=exc.status)
    remember_confirmed(request)
    if not request.htmx and request.user.next_game_after_move:  # issue 32: straight on, when the turn is over
        going_on = next_awaiting(user=request.user, besides=game_id)
        if going_on is not None and not play_selectors.awaits(user=request.user, game_id=game_id):
            return HttpResponseRedirect(reverse("game", args=[going_on.game_id]))
    return HttpResponseRedirect(reverse("game-table" if request.htmx else "game", args=[game_id]))


NOT_RESENT = frozenset({"csrfmiddlewaretoken", "confirmed"})


def _confirm_move_page(request: HttpRequest, game_id: int) -> HttpResponse | None:
    """ "Send this move?" for a one-tap move: the same fields again with ``confirmed=1``, or back to the
    table to choose again. ``None`` when the post is no legal move of the viewer (it is then refused
    the usual way)."""
    access = play_selectors.game_access(game_id=game_id, user=request.user, session=request.session)
    if access is None or not access.may_view:
        raise Http404
    pending = play_selectors.pending_move(access=access, post=request.POST)
    if pending is None:
        return None
    fields = [(name, value) for name, value in request.POST.items() if name not in NOT_RESENT]
    context = {"game": access.game, "label": pending.label, "fields": fields, "title": _("Send this move?")}
    return render(request, "games/confirm_move.html", context)


@require_GET
def game_log(request: HttpRequest, game_id: int) -> HttpResponse:
    """The viewer's whole log (from their own view), for games whose page shows only the end of it."""
    access = _access_or_404(request, game_id)
    game = access.game
    if game.status in (GameStatus.OPEN, GameStatus.CANCELLED):
        raise Http404
    players = play_selectors.player_dicts(access.seats)
    seat_view, log = history_selectors.seat_view_with_log(game=game, seat_number=access.seat_number)
    lines = page.log_lines(game, seat_view, access.seat_number, players, full_log=log)
    return render(request, "games/log.html", {"game": game, "lines": lines, "players": players})


@login_required
@require_GET
def review(request: HttpRequest, game_id: int) -> HttpResponse:
    """The review of my own decisions in a finished game (issue 28): only the seat's own player sees it."""
    from games.history import review as reviews

    access = _access_or_404(request, game_id)
    game = access.game
    if game.status != GameStatus.FINISHED or access.seat_number is None:
        raise Http404
    found = reviews.review_of(game=game, seat_number=access.seat_number)
    entries = [reviews.entry_for_language(entry) for entry in found.entries] if found else []
    counts = {mark: sum(1 for e in entries if e["mark"] == mark) for mark in ("good", "inaccuracy", "mistake")}
    context = {
        "game": game,
        "review": found,
        "entries": entries,
        "counts": counts,
        "seat_number": access.seat_number,
        "may_review": reviews.reviews_available(game),
    }
    return render(request, "games/review.html", context)


@require_GET
def replay(request: HttpRequest, game_id: int) -> HttpResponse:
    """Step through every state of a finished game (rebuilt from seed and moves on this page only)."""
    access = _access_or_404(request, game_id)
    game = access.game
    if game.status != GameStatus.FINISHED:
        raise Http404
    try:
        step = int(request.GET.get("step", 0))
    except ValueError:
        step = 0
    players = play_selectors.player_dicts(access.seats)
    try:
        as_seat = int(request.GET.get("seat", access.seat_number if access.seat_number is not None else 0))
    except ValueError:
        as_seat = 0
    as_seat = max(0, min(as_seat, game.players - 1))
    try:
        state, last_move, total = history_services.replay_step(game, step)
        rounds = history_services.round_starts(game)
    except ReplayUnavailable as exc:
        messages.error(request, exc.message)
        return redirect("game", game.pk)
    step = max(0, min(step, total))
    ui = page.ui_of(game.engine_slug)
    engine = game.engine
    view = engine.view(state, as_seat)
    context = {
        "game": game,
        "players": players,
        "step": step,
        "total": total,
        "as_seat": as_seat,
        "last_move": last_move,
        "last_player": players[last_move.seat_number] if last_move and last_move.seat_number < len(players) else None,
        "table_template": ui.table_template,
        "revealed_hands": ui.revealed_hands(state),
        "view": view,
        "steps": {"first": 0, "prev": max(0, step - 1), "next": min(total, step + 1), "last": total},
        "rounds": [{"round": number, "step": start} for number, start in rounds],
        "current_round": next((number for number, start in reversed(rounds) if start <= step), None),
    }
    try:
        get_template(ui.revealed_template)
        context["revealed_template"] = ui.revealed_template
    except TemplateDoesNotExist:
        context["revealed_template"] = None
    log = ui.annotated_log(view.get("log") or [], players=players)
    entries = [play_selectors.LogEntry("engine", event=event) for event in log[-12:]]
    context["log_lines"] = page.lines(game.engine_slug, entries, players)[-10:]
    reveal = ui.replay_reveal(state)
    if reveal is not None:
        context["replay_reveal"] = reveal
        context["reveal_template"] = f"{ui.template_folder}/replay_reveal.html"
    context.update(ui.page_context(view=view, legal_moves=[], seat=as_seat, players=players))
    context["table_help"] = table_help_context(
        game.engine_slug, gameui=context["gameui"], view=view, legal_moves=[], seat=as_seat, players=players
    )
    context["review_mark"] = _review_mark(game, access.seat_number, last_move)
    extra = {"step": step, "total": total, "last_move": last_move}
    context["panels"] = panels.shown(page.table_for(request, access, page="replay", players=players, extra=extra))
    return render(request, "games/replay.html", context)
