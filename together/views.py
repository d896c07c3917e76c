"""Pages and form posts of playing together: thin views over together.services / rematch / moderation.

Every form works without JavaScript (post, then back to the game page with a message). With htmx the
chat and note forms get a small answer in place, and the ``together-refresh`` event makes the live
partial fetch the table at once.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import formats, timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.api_errors import conceal_unseen_game
from games.exceptions import GameError, GameNotFound
from together import moderation, rematch, selectors, services
from together.models import Report

REFRESH_EVENT = "together-refresh"


def _back(game_id: int, anchor: str = "") -> HttpResponse:
    return redirect(reverse("game", args=[game_id]) + anchor)


def _refused(request: HttpRequest, game_id: int, refused: GameError, anchor: str) -> HttpResponse:
    exc = conceal_unseen_game(refused, request=request, kwargs={"game_id": game_id})
    if isinstance(exc, GameNotFound):
        raise Http404  # as for a game that does not exist: whether a private one does never leaks
    if request.htmx:
        # 429 is not among the statuses the game page's htmx swaps; the message is what matters.
        return HttpResponse(exc.message, status=400 if exc.status == 429 else exc.status)
    messages.error(request, exc.message)
    return _back(game_id, anchor)


def _answer(request: HttpRequest, game_id: int, action, *, done: str = "", anchor: str = "") -> HttpResponse:
    """Run ``action``; htmx gets a short text (and the refresh event), a plain form post a redirect."""
    try:
        action()
    except GameError as exc:
        return _refused(request, game_id, exc, anchor)
    if request.htmx:
        return HttpResponse(done, headers={"HX-Trigger": REFRESH_EVENT})
    if done:
        messages.success(request, done)
    return _back(game_id, anchor)


@login_required
@require_POST
def chat_post(request: HttpRequest, game_id: int) -> HttpResponse:
    text = request.POST.get("text", "")
    return _answer(
        request,
        game_id,
        lambda: services.post_chat_message(user=request.user, game_id=game_id, text=text),
        anchor="#chat",
    )


@login_required
@require_POST
def note_save(request: HttpRequest, game_id: int) -> HttpResponse:
    text = request.POST.get("note", "")
    try:
        corner = services.save_note(user=request.user, game_id=game_id, text=text)
    except GameError as exc:
        return _refused(request, game_id, exc, "#notes")
    when = formats.time_format(timezone.localtime(corner.note_updated_at), "TIME_FORMAT")
    done = _("Saved at %(time)s.") % {"time": when}
    if request.htmx:
        return HttpResponse(done)  # no refresh: nobody else sees a note
    messages.success(request, done)
    return _back(game_id, "#notes")


@login_required
@require_POST
def resign(request: HttpRequest, game_id: int) -> HttpResponse:
    if request.POST.get("confirm") != "yes":
        messages.error(request, _("Tick the box to confirm that you resign."))
        return _back(game_id, "#table-actions")
    return _answer(
        request,
        game_id,
        lambda: services.resign(user=request.user, game_id=game_id),
        done=_("You resigned. The bot plays your seat to the end."),
    )


@login_required
@require_POST
def call_off(request: HttpRequest, game_id: int) -> HttpResponse:
    return _answer(
        request,
        game_id,
        lambda: services.propose_call_off(user=request.user, game_id=game_id),
        done=_("You proposed to call the game off."),
        anchor="#table-actions",
    )


@login_required
@require_POST
def call_off_answer(request: HttpRequest, game_id: int) -> HttpResponse:
    accept = request.POST.get("answer") == "accept"
    return _answer(
        request,
        game_id,
        lambda: services.answer_call_off(user=request.user, game_id=game_id, accept=accept),
        anchor="#table-actions",
    )


@login_required
@require_POST
def hand_over(request: HttpRequest, game_id: int) -> HttpResponse:
    seat = request.POST.get("seat")
    return _answer(
        request,
        game_id,
        lambda: services.hand_over_stalled_seat(user=request.user, game_id=game_id, seat_number=seat),
        done=_("The bot plays that seat now."),
        anchor="#table-actions",
    )


@login_required
@require_POST
def rematch_propose(request: HttpRequest, game_id: int) -> HttpResponse:
    return _answer(
        request,
        game_id,
        # static/js/fairness.js draws the proposer's contribution to the new deal (issue 30)
        lambda: rematch.propose_rematch(
            user=request.user, game_id=game_id, contribution=request.POST.get("contribution", "")
        ),
        done=_("Rematch proposed: it starts when everyone has accepted."),
        anchor="#table-actions",
    )


@login_required
@require_POST
def rematch_accept(request: HttpRequest, game_id: int) -> HttpResponse:
    try:
        game = rematch.accept_rematch(
            user=request.user, game_id=game_id, contribution=request.POST.get("contribution", "")  # fairness.js
        )
    except GameError as exc:
        messages.error(request, exc.message)
        return _back(game_id, "#table-actions")
    return redirect("game", game.pk)


@login_required
@require_POST
def rematch_decline(request: HttpRequest, game_id: int) -> HttpResponse:
    return _answer(
        request,
        game_id,
        lambda: rematch.decline_rematch(user=request.user, game_id=game_id),
        done=_("You declined the rematch."),
        anchor="#table-actions",
    )


# Blocking and reporting -----------------------------------------------------------------------


def _next_or(request: HttpRequest, fallback: str) -> str:
    target = request.POST.get("next") or ""
    safe = url_has_allowed_host_and_scheme(target, allowed_hosts=None) and target.startswith("/")
    return target if safe else fallback


@login_required
@require_POST
def block(request: HttpRequest, username: str) -> HttpResponse:
    try:
        moderation.block(user=request.user, username=username)
    except GameError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("Blocked. Only you know it; you can undo it from their profile."))
    return redirect(_next_or(request, reverse("profile", args=[username])))


@login_required
@require_POST
def unblock(request: HttpRequest, username: str) -> HttpResponse:
    moderation.unblock(user=request.user, username=username)
    messages.success(request, _("Unblocked."))
    return redirect(_next_or(request, reverse("together-blocked")))


@login_required
def blocked_list(request: HttpRequest) -> HttpResponse:
    return render(request, "together/blocked.html", {"blocked": selectors.blocked_users(user=request.user)})


@login_required
def report(request: HttpRequest) -> HttpResponse:
    """Report a chat message (``?message=``) or a player (``?user=``) with a reason."""
    source = request.POST if request.method == "POST" else request.GET
    message_id, username = source.get("message") or "", source.get("user") or ""
    message, reported = None, None
    if message_id:
        try:
            message = selectors.readable_message(user=request.user, message_id=int(message_id))
        except ValueError:
            message = None
        if message is None:
            raise Http404
        reported = message.author
    else:
        reported = get_object_or_404(get_user_model(), username=username, is_active=True)
    error = None
    if request.method == "POST":
        try:
            moderation.report(
                user=request.user,
                reason=request.POST.get("reason", ""),
                details=request.POST.get("details", ""),
                username=username or None,
                message_id=message.pk if message else None,
            )
        except GameError as exc:
            error = exc.message
        else:
            messages.success(request, _("Thank you: the moderators will look at your report."))
            return redirect("game", message.game_id) if message else redirect("profile", reported.username)
    context = {
        "message": message,
        "reported": reported,
        "reasons": Report.Reason.choices,
        "error": error,
        "chosen": request.POST.get("reason", ""),
    }
    return render(request, "together/report.html", context, status=400 if error else 200)
