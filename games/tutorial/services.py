"""The writes of guided first games (issue 27): start one for a visitor, refuse the moves its script does not
ask for, play its bots' scripted moves, start the real game against bots at its end, and sweep old ones.

A tutorial is a real game on the real engine (its moves go through ``games.play``, which refuses other moves than
the script's and plays its bots' scripted moves: ``games.play.lessons``): its seed is the script's (drawn by the
site alone, so the deal is the one the script was written for), its player is a throwaway guest user
(``TutorialGuest``: no e-mail, no password) whom only the visitor's session cookie knows, its other seats are bots.
Being private, unrated, without a clock and seated by a guest who has no address, nothing about it is listed, rated
or sent; it is deleted by ``sweep`` after ``TUTORIAL_HOURS``.
"""

from __future__ import annotations

import datetime as dt
import secrets as secret_tokens
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from games.engines import get_engine
from games.exceptions import BadInput, NotAllowed
from games.models import DealScheme, Game, GameState, Seat, TutorialGuest, Visibility
from games.registry import tutorial_of
from games.tables import Table, clean_options, seed_sha256
from games.tutorial_script import Script

SESSION_GUEST = "tutorial_guest"  # the guest user's id
SESSION_GAMES = "tutorial_games"  # the tutorial games this session plays (their ids)
SESSION_READ = "tutorial_read"  # {game id: steps passed with "Next"}


def new_guest(*, language: str) -> Any:
    """A throwaway user for a visitor's tutorials: no e-mail, no usable password, a name nobody chose."""
    with translation.override(language):
        # What the table calls the guest's seat, in the visitor's language; a name in the third person, as the log
        # and the table speak of every player ("Learner (you) plays No. 16"), not "You (learning) plays".
        name = _("Learner (you)")
    user = get_user_model()(username=f"guest-{secret_tokens.token_hex(5)}", display_name=name, language=language)
    user.set_unusable_password()
    user.save()
    TutorialGuest.objects.create(user=user)
    return user


def guest_of(session) -> Any | None:
    """The session's tutorial guest, if it still exists."""
    guest_id = session.get(SESSION_GUEST)
    if guest_id is None:
        return None
    return get_user_model().objects.filter(pk=guest_id, tutorial_guest__isnull=False).first()


def script_for(slug: str) -> Script:
    script = tutorial_of(slug)
    if script is None:
        raise BadInput()
    return script


@transaction.atomic
def start_tutorial(*, slug: str, guest) -> Game:
    """A new tutorial of the game ``slug`` for ``guest``, started at once on the script's deal."""
    from games.lobby.services import start_full_table

    script = script_for(slug)
    engine = get_engine(slug)
    game = Game.objects.create(
        engine_slug=slug,
        options=clean_options(engine, dict(script.options)),
        players=script.players,
        seed_sha256=seed_sha256(script.seed),
        deal_scheme=DealScheme.SITE,  # the seed is the engine's seed: the deal the script was written for
        visibility=Visibility.PRIVATE,
        time_limit_hours=0,
        clock="none",
        rated=False,
        created_by=guest,
        is_tutorial=True,
    )
    GameState.objects.create(game=game, seed=str(script.seed))
    seats = [Seat(game=game, user=guest, join_order=0)]
    seats += [Seat(game=game, is_bot=True, join_order=i) for i in range(1, script.players)]
    Seat.objects.bulk_create(seats)
    start_full_table(Table(game=game, seats=list(Seat.objects.filter(game=game).select_related("user"))))
    return game


def remember(session, *, guest, game: Game) -> None:
    """The session plays ``game`` as ``guest`` (``games.tutorial.middleware`` reads it)."""
    session[SESSION_GUEST] = guest.pk
    session[SESSION_GAMES] = [*session.get(SESSION_GAMES, [])[-9:], game.pk]


def remember_games(session, *, guest, games: list[int]) -> None:
    """After a sign-in (which starts a new session), the session goes on knowing the guest's tutorials."""
    session[SESSION_GUEST] = guest.pk
    session[SESSION_GAMES] = list(games)[-10:]


def steps_read(session, game_id: int) -> int:
    return int(session.get(SESSION_READ, {}).get(str(game_id), 0))


def mark_read(session, game_id: int, step_number: int) -> None:
    """The player pressed "Next" on step ``step_number``."""
    read = dict(session.get(SESSION_READ, {}))
    read[str(game_id)] = max(int(read.get(str(game_id), 0)), step_number + 1)
    session[SESSION_READ] = read


def play_against_bots(*, user, slug: str) -> Game:
    """The real game the tutorial ends with: ``user`` against bots, as many seats as the lesson, started at once."""
    from games.lobby.services import create_game

    script = script_for(slug)
    return create_game(
        user=user,
        engine_slug=slug,
        players=script.players,
        bots=script.players - 1,
        visibility=Visibility.PRIVATE,
        rated=False,
    )


def sweep(*, now: dt.datetime | None = None) -> tuple[int, int]:
    """Delete tutorials older than ``TUTORIAL_HOURS``, and guests older than ``TUTORIAL_GUEST_DAYS`` with the games
    they played against bots alone (a guest joins nobody's table: ``refuse_guests``); the counts."""
    now = now or timezone.now()
    games_cutoff = now - dt.timedelta(hours=settings.TUTORIAL_HOURS)
    _, deleted = Game.objects.filter(is_tutorial=True, created_at__lt=games_cutoff).delete()
    guests_cutoff = now - dt.timedelta(days=settings.TUTORIAL_GUEST_DAYS)
    old = set(TutorialGuest.objects.filter(created_at__lt=guests_cutoff).values_list("user_id", flat=True))
    if old:
        # A guest seated among people (never, since ``refuse_guests``; a site that once let one in) stays: the
        # seat is part of someone else's game.
        humans: dict[int, set] = {}
        their_games = Seat.objects.filter(user_id__in=old).values("game_id")
        for game_id, user_id in Seat.objects.filter(game_id__in=their_games, is_bot=False).values_list(
            "game_id", "user_id"
        ):
            humans.setdefault(game_id, set()).add(user_id)
        old -= {user for seated in humans.values() if len(seated) > 1 for user in seated}
        Game.objects.filter(seats__user_id__in=old).delete()
        get_user_model().objects.filter(pk__in=old).delete()
    return deleted.get("games.Game", 0), len(old)


def refuse_guests(*, user, game) -> None:
    """A join veto (``games.policies``): a tutorial guest plays lessons and games against bots, not at other
    people's tables; an account keeps what they play there."""
    if TutorialGuest.objects.filter(user_id=user.pk).exists():
        raise NotAllowed(_("Create an account to play with other people: a guest plays lessons and bots only."))
