"""Guided first games (issue 27): each game's script teaches what it says it does, the runner shows the right step,
and a visitor without an account plays a tutorial to its end through the real pages, keeping nothing of it.

The rule checks replay each game's ``tutorial.json`` through its engine, so a change to an engine (or its bot) that
would make a tutorial stop showing a rule breaks here, not in front of a newcomer.
"""

from __future__ import annotations

import datetime as dt
import json

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from games.engines import get_engine
from games.models import Game, GameStatus, PlayerStats, Seat, SeatView, TutorialGuest
from games.registry import all_games, tutorial_of
from games.seating import seat_order
from games.tutorial import services
from games.tutorial_script import LANGUAGES, ScriptError, Step, parse, progress

SCRIPTED = ["mamma-mia", "konamon", "marumiere"]


def played_log(slug: str) -> tuple[list[dict], int]:
    """The whole log of the script's deal after its moves (each checked legal), and the player's seat."""
    script = tutorial_of(slug)
    engine = get_engine(slug)
    state = engine.setup(script.players, seed=script.seed, options=dict(script.options))
    for index, (seat, move) in enumerate(script.moves):
        assert seat in engine.waiting_for(state), f"{slug}: move {index} is not seat {seat}'s turn"
        assert move in engine.legal_moves(state, seat), f"{slug}: move {index} is no longer legal"
        state = engine.play(state, seat, move)
    return state["log"], script.player_seat


def recipe_kind(recipe_id: str) -> str:
    from mamma_mia.engine import RECIPES

    return RECIPES[recipe_id]["kind"]


def test_mamma_mias_script_opens_the_oven_bakes_a_special_recipe_and_deals_the_mamma_mia_card_to_the_player():
    log, player = played_log("mamma-mia")
    assert any(e["type"] == "open" for e in log), "the oven never opens"
    assert any(e["type"] == "chef" and e["reason"] == "mamma-mia" and e["seat"] == player for e in log)
    special = [e for e in log if e["type"] == "baked" and e["seat"] == player and recipe_kind(e["recipe"]) != "classic"]
    assert special, "the player bakes no special recipe"
    assert any(e["type"] == "baked" and e["seat"] == player and recipe_kind(e["recipe"]) == "classic" for e in log)


def test_konamons_script_has_the_player_work_each_step_meets_a_customers_effect_and_lets_the_mood_fall():
    log, player = played_log("konamon")
    for step in ("prep", "bake", "hand_over"):
        assert any(e["type"] == step and e["seat"] == player for e in log), f"the player never does {step}"
    assert any(e["type"] in ("hurry", "treat", "snack") for e in log), "no customer's effect happens"
    assert [e["round"] for e in log if e["type"] == "round"] == [1, 2], "the round never ends, so no mood falls"


def test_marumieres_script_has_the_player_bid_follow_colour_and_see_a_five_beat_everything():
    slug = "marumiere"
    log, player = played_log(slug)
    assert any(e["type"] == "bid" and e["seat"] == player for e in log)
    tricks = [e for e in log if e["type"] == "trick_won"]
    assert tricks, "no trick is played"
    first = tricks[0]["cards"]
    led = first[0]["colour"]
    assert any(c["seat"] == player and c["colour"] == led for c in first[1:]), "the player does not follow colour"
    winner = next(c for c in first if c["seat"] == tricks[0]["seat"])
    assert winner["number"] == 5 and winner["colour"] != led, "no off-colour 5 takes the trick"
    # Following colour is a rule the player meets: at their play, the other colours are not allowed.
    script, engine = tutorial_of(slug), get_engine(slug)
    state = engine.setup(script.players, seed=script.seed, options={})
    for seat, move in script.moves:
        if seat == player and move["type"] == "play":
            view = engine.view(state, player)
            playable = [p for p, c in enumerate(view["rows"][player]) if not c["bid"] and not c["played"]]
            assert len(engine.legal_moves(state, player)) < len(playable)
        state = engine.play(state, seat, move)


@pytest.mark.parametrize("slug", [*SCRIPTED, "hidden-number"])
def test_every_script_speaks_four_languages_and_asks_each_of_the_players_moves(slug):
    script = tutorial_of(slug)
    assert script is not None
    assert script.player_seat == seat_order(script.seed, script.players).index(0)
    for step in script.steps:
        assert set(step.text) == set(LANGUAGES) and all(step.text.values())
        if step.move is not None:
            assert script.moves[step.move][0] == script.player_seat
    assert set(script.end) == set(LANGUAGES)
    played_log(slug) if slug != "hidden-number" else None


def test_a_script_that_skips_one_of_the_players_moves_is_refused():
    raw = {
        "players": 2,
        "seed": 1,
        "moves": [[0, {"a": 1}], [1, {"a": 2}], [0, {"a": 3}]],
        "steps": [{"move": 2, "point": "#x", "text": dict.fromkeys(LANGUAGES, "t")}],
        "end": dict.fromkeys(LANGUAGES, "e"),
    }
    with pytest.raises(ScriptError, match=r"moves \[0\] have no step"):
        parse(raw)
    raw["steps"][0]["text"] = {"en": "only English"}
    with pytest.raises(ScriptError, match="every text needs"):
        parse(raw)


def test_progress_shows_reading_steps_until_passed_and_move_steps_until_played():
    text = dict.fromkeys(LANGUAGES, "t")
    raw = {
        "players": 2,
        "seed": 1,
        "moves": [[0, {"a": 1}], [1, {"a": 2}], [0, {"a": 3}], [1, {"a": 4}]],
        "steps": [
            {"point": "#a", "text": text},
            {"move": 0, "point": "#b", "text": text},
            {"after": 2, "point": "#c", "text": text},
            {"move": 2, "point": "#d", "text": text},
        ],
        "end": text,
    }
    script = parse(raw)
    assert progress(script, position=0, read=0).step.number == 0
    assert progress(script, position=0, read=1).step.number == 1
    assert progress(script, position=1, read=1) == progress(script, position=1, read=1)
    waiting = progress(script, position=1, read=1)
    assert waiting.step.number == 2 and waiting.waiting  # the bot has not moved yet
    ready = progress(script, position=2, read=1)
    assert ready.step.number == 2 and not ready.waiting
    # Moving on without pressing "Next" passes the reading step.
    assert progress(script, position=3, read=0).finished
    assert isinstance(progress(script, position=2, read=3).step, Step)


def test_the_games_without_a_script_have_none_and_every_installed_script_loads():
    for game in all_games():
        assert game.tutorial is None or game.tutorial.steps


# Through the pages ---------------------------------------------------------------------------------------


def box_of(html: str) -> str:
    start = html.index('id="tutorial"')
    return html[start : html.index("</section>", start)]


def play_through(client, slug: str, *, language: str = "en", on_page=None) -> Game:
    """Start the tutorial of ``slug`` and follow its box to the end: "Next" on reading steps, the asked move on
    move steps (bots answer at once, eager); a wrong move on the first move step is refused and changes nothing.
    ``on_page(game, pages)`` sees every response the player got at each step (the leak test)."""
    response = client.post(reverse("tutorial-start", args=[slug]), HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 302
    game = Game.objects.get(pk=int(response.url.strip("/").split("/")[-1]))
    script = tutorial_of(slug)
    refused_once = False
    for _ in range(200):
        game.refresh_from_db()
        page = client.get(reverse("game", args=[game.pk]))
        assert page.status_code == 200
        box = box_of(page.content.decode())
        if on_page is not None:
            partial = client.get(reverse("game-table", args=[game.pk]) + "?v=stale")
            on_page(game, {"page": page.content.decode(), "partial": partial.content.decode()})
        where = progress(script, position=game.version, read=services.steps_read(client.session, game.pk))
        if where.finished:
            assert reverse("tutorial-bots", args=[slug]) in box
            return game
        assert where.step.point.replace('"', "&quot;") in box
        if not where.step.asks_move:
            assert client.post(reverse("tutorial-next", args=[game.pk]), {"step": where.step.number}).status_code == 302
            continue
        assert not where.waiting, f"step {where.step.number} waits for bots that never move"
        asked = script.moves[where.step.move][1]
        row = SeatView.objects.get(game=game, seat_number=script.player_seat)
        assert "Your move:" in box or language != "en"
        if not refused_once and len(row.legal_moves) > 1:
            other = next(m for m in row.legal_moves if m != asked)
            answer = client.post(
                reverse("game-move", args=[game.pk]), {"move": json.dumps(other), "version": game.version}
            )
            assert answer.status_code == 400 and "this lesson follows a prepared deal" in answer.content.decode()
            if on_page is not None:
                on_page(game, {"refusal": answer.content.decode()})
            assert Game.objects.get(pk=game.pk).version == game.version
            refused_once = True
        answer = client.post(reverse("game-move", args=[game.pk]), {"move": json.dumps(asked), "version": game.version})
        assert answer.status_code == 302, answer.content.decode()[:2000]
    raise AssertionError("the tutorial never ends")


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("slug", SCRIPTED)
def test_a_visitor_without_an_account_plays_the_tutorial_to_its_end_and_then_a_game_against_bots(client, slug):
    game = play_through(client, slug)
    assert game.is_tutorial and not game.rated and game.visibility == "private"
    guest = Seat.objects.get(game=game, is_bot=False).user
    assert TutorialGuest.objects.filter(user=guest).exists() and not guest.email and not guest.has_usable_password()
    assert "_auth_user_id" not in client.session  # the visitor stayed signed out all along
    response = client.post(reverse("tutorial-bots", args=[slug]))
    real = Game.objects.get(pk=int(response.url.strip("/").split("/")[-1]))
    assert real.status == GameStatus.ACTIVE and not real.is_tutorial
    assert Seat.objects.filter(game=real, is_bot=True).count() == real.players - 1
    assert Seat.objects.get(game=real, is_bot=False).user == guest
    assert client.get(reverse("game", args=[real.pk])).status_code == 200
    assert mail.outbox == []


@pytest.mark.django_db(transaction=True)
def test_a_signed_in_players_tutorial_stays_out_of_their_account(client, user_factory):
    player = user_factory(username="learner", email="learner@example.com")
    client.force_login(player)
    game = play_through(client, "marumiere", language="fr")
    assert client.session["_auth_user_id"] == str(player.pk)
    assert not Seat.objects.filter(user=player).exists()
    my_games = client.get(reverse("my-games")).content.decode()
    assert reverse("game", args=[game.pk]) not in my_games
    lobby = client.get(reverse("lobby")).content.decode()
    assert reverse("game", args=[game.pk]) not in lobby
    assert not PlayerStats.objects.filter(user=player).exists()
    assert mail.outbox == []
    # "Play a real game against bots" is the player's own game.
    real = Game.objects.get(
        pk=int(client.post(reverse("tutorial-bots", args=["marumiere"])).url.strip("/").split("/")[-1])
    )
    assert Seat.objects.get(game=real, is_bot=False).user == player


@pytest.mark.django_db(transaction=True)
def test_the_box_speaks_the_visitors_language(client):
    client.post(reverse("tutorial-start", args=["konamon"]), HTTP_ACCEPT_LANGUAGE="ja")
    game = Game.objects.filter(is_tutorial=True).latest("pk")
    html = client.get(reverse("game", args=[game.pk]), HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert tutorial_of("konamon").steps[0].text["ja"] in box_of(html)


@pytest.mark.django_db(transaction=True)
def test_another_visitor_cannot_open_or_move_in_someone_elses_tutorial(client, django_user_model):
    from django.test import Client

    client.post(reverse("tutorial-start", args=["marumiere"]))
    game = Game.objects.filter(is_tutorial=True).latest("pk")
    stranger = Client()
    assert stranger.get(reverse("game", args=[game.pk])).status_code == 404
    assert stranger.post(reverse("tutorial-next", args=[game.pk]), {"step": 0}).status_code == 404
    answer = stranger.post(reverse("game-move", args=[game.pk]), {"move": "{}", "version": 0})
    assert answer.status_code in (302, 404)  # signed out: to the log-in page; nothing moved
    assert Game.objects.get(pk=game.pk).version == game.version


@pytest.mark.django_db
def test_the_sweep_deletes_old_tutorials_and_guests_with_their_games(eager_celery):
    guest = services.new_guest(language="en")
    old = services.start_tutorial(slug="marumiere", guest=guest)
    fresh = services.start_tutorial(slug="konamon", guest=services.new_guest(language="fr"))
    Game.objects.filter(pk=old.pk).update(created_at=timezone.now() - dt.timedelta(hours=25))
    against_bots = services.play_against_bots(user=guest, slug="marumiere")
    TutorialGuest.objects.filter(user=guest).update(created_at=timezone.now() - dt.timedelta(days=8))
    games, guests = services.sweep()
    assert (games, guests) == (1, 1)
    assert not Game.objects.filter(pk__in=[old.pk, against_bots.pk]).exists()
    assert Game.objects.filter(pk=fresh.pk).exists()
    assert not type(guest).objects.filter(pk=guest.pk).exists()


@pytest.mark.django_db
def test_a_guest_cannot_take_a_seat_at_other_peoples_tables_and_their_sweep_spares_those_tables(players, eager_celery):
    from game_helpers import start_game

    from games.exceptions import NotAllowed
    from games.lobby import services as lobby

    guest = services.new_guest(language="en")
    open_table = lobby.create_game(user=players[0], engine_slug="marumiere", players=3)
    with pytest.raises(NotAllowed):
        lobby.join_game(user=guest, game_id=open_table.pk)
    # Were a guest seated among people anyway (by an older site), the sweep leaves the table and the guest alone.
    shared = start_game("hidden-number", [players[1], players[2]])
    Seat.objects.filter(game=shared, user=players[2]).update(user=guest)
    TutorialGuest.objects.filter(user=guest).update(created_at=timezone.now() - dt.timedelta(days=8))
    services.sweep()
    assert Game.objects.filter(pk=shared.pk).exists()
    assert type(guest).objects.filter(pk=guest.pk).exists()


@pytest.mark.parametrize("slug", [*SCRIPTED, "hidden-number"])
def test_the_scripts_texts_follow_the_catalogues_rules_for_french_and_traditional_chinese(slug):
    """The texts a game brings in its tutorial.json are held to the checks its translations in the catalogue get
    (tests/i18n): French typography, no Simplified characters or mainland terms, full-width punctuation."""
    import re

    from tests.i18n.test_french_strings import typography_faults
    from tests.i18n.test_traditional_chinese_strings import HAN, MAINLAND_TERMS, SIMPLIFIED_ONLY

    script = tutorial_of(slug)
    texts = [step.text for step in script.steps] + [script.end]
    assert [fault for t in texts for fault in typography_faults(t["fr"])] == []
    chinese = [t["zh-hant"] for t in texts]
    assert [t for t in chinese if SIMPLIFIED_ONLY.intersection(t) or any(term in t for term in MAINLAND_TERMS)] == []
    assert [t for t in chinese if re.search(f"[{HAN}][,:;!?]|[{HAN}]\\(", t)] == []
    assert all("bot" not in t["fr"].replace("robot", "") for t in texts)


@pytest.mark.django_db(transaction=True)
def test_the_header_of_a_tutorial_page_stays_the_visitors_own(client, user_factory):
    client.post(reverse("tutorial-start", args=["marumiere"]))
    game = Game.objects.filter(is_tutorial=True).latest("pk")
    header = client.get(reverse("game", args=[game.pk])).content.decode().split("</header>")[0]
    assert reverse("account_login") in header and "Log out" not in header and "Learner (you)" not in header
    player = user_factory(username="header-learner")
    client.force_login(player)
    client.post(reverse("tutorial-start", args=["konamon"]))
    game = Game.objects.filter(is_tutorial=True).latest("pk")
    html = client.get(reverse("game", args=[game.pk])).content.decode()
    header = html.split("</header>")[0]
    assert reverse("profile", args=[player.username]) in header
    assert 'class="badge"' not in header  # the guest's awaited lesson is not the player's game
    body = html[html.index("<body") : html.index(">", html.index("<body"))]
    assert "data-live-stream" in body and "data-tz-detect" not in body  # no guest's zone posted as the visitor's


@pytest.mark.django_db
def test_a_tutorials_bots_answer_at_once_where_a_real_games_bots_take_the_usual_pause(
    settings, monkeypatch, django_capture_on_commit_callbacks
):
    """The bots of a lesson play the script's moves while its box says "the others are playing": no pause to look
    as if they thought (BOT_MOVE_DELAY_SECONDS stays for the game against bots that follows)."""
    from celery import current_app

    from games.play.services import BOT_TASK

    settings.BOT_MOVE_DELAY_SECONDS = 2.5
    queued: dict[int, float] = {}
    def record(**kwargs) -> None:
        queued[kwargs["args"][0]] = kwargs["countdown"]

    monkeypatch.setattr(current_app.tasks[BOT_TASK], "apply_async", record)
    guest = services.new_guest(language="en")
    with django_capture_on_commit_callbacks(execute=True):  # Konamon!: everyone chooses at once, bots too
        lesson = services.start_tutorial(slug="konamon", guest=guest)
        real = services.play_against_bots(user=guest, slug="konamon")
    assert queued == {lesson.pk: 0, real.pk: 2.5}


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", ["en", "ja", "zh-hant", "fr"])
def test_the_first_move_buttons_of_a_lesson_are_named_by_what_they_show_in_every_language(client, language):
    """WCAG 2.5.3 (label in name; axe's label-content-name-mismatch): Marumiere's pile buttons are named by their
    visible "Take pile N" first, then the top card's back; Konamon!'s card buttons by the card as it reads."""
    import html as html_lib
    import re

    def first_page(slug: str) -> str:
        response = client.post(reverse("tutorial-start", args=[slug]), HTTP_ACCEPT_LANGUAGE=language)
        return client.get(response.url, HTTP_ACCEPT_LANGUAGE=language).content.decode()

    pile_button = r'class="cardbtn mr-pilebtn" aria-label="([^"]*)".*?mr-pilebtn__text">([^<]*)<'
    piles = re.findall(pile_button, first_page("marumiere"))
    assert len(piles) == 3
    for name, visible in piles:
        assert html_lib.unescape(name).startswith(html_lib.unescape(visible)), (name, visible)
    card_button = r'<button type="submit" name="move"[^>]*class="cardbtn"([^>]*)>(.*?)</button>'
    cards = re.findall(card_button, first_page("konamon"), re.S)
    assert len(cards) == 5
    for attributes, content in cards:
        assert "aria-label" not in attributes and "title=" in attributes  # named by its content; the title words it
        text = " ".join(re.sub(r"<[^>]+>", " ", content).split())
        assert re.search(r"\S \d+ \D+ \d+ \D+ \d+ \D+ \d+$", text), text  # "Play 3 prep 0 bake 1 hand over 1"
