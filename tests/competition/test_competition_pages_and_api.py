"""Pages and JSON API of ratings, leaderboards and leagues: what people and programs see, and bad input."""

from __future__ import annotations

import datetime as dt

import pytest
from competition_helpers import finish_with, started
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from competition import leagues, selectors
from competition.models import League, Rating

pytestmark = pytest.mark.django_db


def make_ratings(users, slug="konamon", *, days_ago=1):
    """Ratings as the leaderboard reads them: player i has rating 100 − i (ties when asked)."""
    now = timezone.now()
    Rating.objects.bulk_create(
        [
            Rating(user=u, engine_slug=slug, mu=125 - i, sigma=1, conservative=float(100 - i), games=12,
                   last_game_at=now - dt.timedelta(days=days_ago))
            for i, u in enumerate(users)
        ]
    )


def test_leaderboard_pages_walk_forward_and_back_without_gaps(user_factory, client):
    users = [user_factory(username=f"lb{i:02d}") for i in range(23)]
    make_ratings(users)
    Rating.objects.filter(user=users[6]).update(conservative=95.0)  # ties with users[5]: ordered by user id
    seen, token = [], None
    pages = []
    while True:
        page = selectors.leaderboard(engine_slug="konamon", page=token, per_page=5)
        pages.append(page)
        seen += [(r.rank, r.user_id) for r in page.rows]
        if not page.next:
            break
        token = page.next
    assert [rank for rank, _ in seen] == list(range(1, 24))
    assert len({u for _, u in seen}) == 23
    assert pages[0].previous is None and len(pages) == 5
    back = selectors.leaderboard(engine_slug="konamon", page=pages[3].previous, per_page=5)
    assert [(r.rank, r.user_id) for r in back.rows] == [(r.rank, r.user_id) for r in pages[2].rows]
    first = selectors.leaderboard(engine_slug="konamon", page=pages[1].previous, per_page=5)
    assert first.previous is None and [r.user_id for r in first.rows] == [r.user_id for r in pages[0].rows]


def test_leaderboard_leaves_out_inactive_and_other_games_players(user_factory):
    active, idle, other = (user_factory(username=n) for n in ("active", "idle", "other"))
    make_ratings([active])
    make_ratings([idle], days_ago=91)
    make_ratings([other], slug="marumiere")
    assert [r.user_id for r in selectors.leaderboard(engine_slug="konamon").rows] == [active.pk]


@pytest.mark.parametrize("token", ["", "x", "after", "after.nan.1.1", "after.inf.1.1", "after.1e400.3.2",
                                   "before.-.1.1", "after.5.-1.2", "after.5.99999999999999999999999.1", "é" * 300])
def test_a_bad_page_token_shows_the_top(user_factory, client, token):
    make_ratings([user_factory(username="top")])
    response = client.get(reverse("competition:leaderboard", args=["konamon"]), {"page": token})
    assert response.status_code == 200 and "top" in response.content.decode()
    api = client.get(reverse("api-leaderboard", args=["konamon"]), {"page": token})
    assert api.status_code == 200 and api.json()["results"][0]["username"] == "top"


def test_leaderboard_page_costs_the_same_queries_on_any_page(user_factory, client):
    make_ratings([user_factory(username=f"q{i}") for i in range(120)])
    first = selectors.leaderboard(engine_slug="konamon")
    url = reverse("competition:leaderboard", args=["konamon"])
    with CaptureQueriesContext(connection) as top:
        assert client.get(url).status_code == 200
    with CaptureQueriesContext(connection) as deeper:
        page = client.get(url, {"page": first.next})
    assert page.status_code == 200 and "q50" in page.content.decode()
    assert len(top) == len(deeper) <= 3
    assert client.get(reverse("competition:leaderboard", args=["chess"])).status_code == 404


def test_profile_shows_ratings_with_a_chart_and_the_api_the_history(people, client):
    a, b = people[:2]
    for i in range(3):
        finish_with(started([a, b], slug="marumiere"), {a: 1, b: 2} if i != 1 else {a: 2, b: 1})
    html = client.get(reverse("profile", args=[a.username])).content.decode()
    assert "Ratings" in html and "<svg" in html and "<polyline" in html and "provisional" in html
    rating = Rating.objects.get(user=a, engine_slug="marumiere")
    assert f"{rating.conservative:.1f}" in html
    data = client.get(reverse("api-player-ratings", args=[a.username])).json()["results"]
    assert data[0]["game"] == "marumiere" and data[0]["games"] == 3 and data[0]["provisional"]
    assert [p["place"] for p in data[0]["history"]] == [1, 2, 1]
    assert data[0]["rating"] == pytest.approx(rating.conservative)


def test_ratings_show_next_to_names_at_the_table_and_in_the_lobby(people, client):
    a, b, c = people[:3]
    finish_with(started([a, b], slug="marumiere"), {a: 1, b: 2})
    shown = f"{Rating.objects.get(user=a, engine_slug='marumiere').conservative:.1f}"
    game = started([a, c], slug="marumiere")
    client.force_login(c)
    assert shown in client.get(reverse("game", args=[game.pk])).content.decode()
    from games.lobby import services

    services.create_game(user=a, engine_slug="marumiere", players=3)
    lobby = client.get(reverse("lobby")).content.decode()
    assert shown in lobby and "rated" in lobby


def test_creating_an_unrated_game_from_the_form_and_the_api(people, client):
    from games.models import Game

    client.force_login(people[0])
    response = client.post(
        reverse("game-create"),
        {"engine_slug": "konamon", "players": 2, "bots": 0, "time_limit_hours": 24, "visibility": "public"},
    )
    assert response.status_code == 302 and not Game.objects.get().rated  # box left unticked
    client.post(
        reverse("game-create"),
        {"engine_slug": "konamon", "players": 2, "bots": 0, "time_limit_hours": 24, "visibility": "public",
         "rated": "on"},
    )
    assert Game.objects.order_by("-pk").first().rated
    api = client.post(reverse("api-games"), {"game": "konamon", "players": 2}, content_type="application/json")
    assert api.status_code == 201 and api.json()["rated"] is True
    api = client.post(reverse("api-games"), {"game": "konamon", "players": 2, "bots": 1},
                      content_type="application/json")
    assert api.json()["rated"] is False


def test_league_pages_from_creation_to_standings(people, client):
    creator, other = people[:2]
    client.force_login(creator)
    assert client.get(reverse("competition:league-create")).status_code == 200
    until = (timezone.localtime() + dt.timedelta(days=2)).strftime("%Y-%m-%dT%H:%M")
    response = client.post(
        reverse("competition:league-create"),
        {"name": "Winter <b>cup</b>", "engine_slug": "konamon", "players_per_game": 2, "signup_until": until,
         "time_limit_hours": 48},
    )
    league = League.objects.get()
    assert response.status_code == 302 and response.url == league.get_absolute_url()
    bad = client.post(reverse("competition:league-create"), {"name": "", "engine_slug": "konamon"})
    assert bad.status_code == 400 and League.objects.count() == 1
    client.force_login(other)
    client.post(reverse("competition:league-sign-up", args=[league.pk]))
    client.post(reverse("competition:league-sign-up", args=[league.pk]))
    assert league.entries.count() == 2
    page = client.get(league.get_absolute_url()).content.decode()
    assert "Winter &lt;b&gt;cup&lt;/b&gt;" in page and other.public_name in page and "Withdraw" in page
    listing = client.get(reverse("competition:leagues")).content.decode()
    assert "Winter &lt;b&gt;cup&lt;/b&gt;" in listing
    leagues.start_league(league_id=league.pk, now=league.signup_until + dt.timedelta(seconds=1))
    page = client.get(league.get_absolute_url()).content.decode()
    assert "Standings" in page and "Round 1, table 1" in page
    response = client.post(reverse("competition:league-withdraw", args=[league.pk]), follow=True)
    assert "closed" in response.content.decode() and league.entries.count() == 2
    assert client.get(reverse("competition:league", args=[999999])).status_code == 404
    assert client.get(reverse("competition:league-sign-up", args=[league.pk])).status_code == 405


def test_league_api_create_sign_up_detail_and_errors(people, client):
    creator, other = people[:2]
    anonymous = client.post(reverse("api-leagues"), {}, content_type="application/json")
    assert anonymous.status_code in (401, 403)
    client.force_login(creator)
    until = (timezone.now() + dt.timedelta(days=1)).isoformat()
    response = client.post(
        reverse("api-leagues"),
        {"name": "API cup", "game": "mamma-mia", "players_per_game": 3, "signup_until": until},
        content_type="application/json",
    )
    assert response.status_code == 201, response.content
    league_id = response.json()["id"]
    for payload in ({"name": "x", "game": "mamma-mia", "players_per_game": 7, "signup_until": until},
                    {"name": "x", "game": "go", "players_per_game": 2, "signup_until": until},
                    {"name": "x", "game": "konamon", "players_per_game": 2, "signup_until": "2001-01-01T00:00Z"},
                    ["not", "an", "object"]):
        bad = client.post(reverse("api-leagues"), payload, content_type="application/json")
        assert bad.status_code == 400 and bad.json()["error"], payload
    client.force_login(other)
    joined = client.post(reverse("api-league-sign-up", args=[league_id]))
    assert joined.status_code == 200
    assert [s["username"] for s in joined.json()["standings"]] == [creator.username, other.username]
    assert client.post(reverse("api-league-sign-up", args=[424242])).status_code == 404
    League.objects.filter(pk=league_id).update(signup_until=timezone.now() - dt.timedelta(seconds=1))
    closed = client.post(reverse("api-league-withdraw", args=[league_id]))
    assert closed.status_code == 409 and closed.json()["error"] == "league_closed"
    listing = client.get(reverse("api-leagues"), {"status": "signup"}).json()
    assert [item["name"] for item in listing["results"]] == ["API cup"] and listing["next"] is None
    assert client.get(reverse("api-league", args=[league_id])).json()["league"]["game"] == "mamma-mia"


def test_schema_lists_the_new_endpoints(client):
    schema = client.get(reverse("api-schema")).content.decode()
    for path in ("/api/leaderboards/{slug}/", "/api/users/{username}/ratings/", "/api/leagues/",
                 "/api/leagues/{league_id}/sign-up/"):
        assert path in schema


@pytest.mark.parametrize(("language", "words"), [("ja", "ランキング"), ("zh-hant", "排行榜"), ("fr", "Classement de")])
def test_leaderboard_and_leagues_pages_speak_the_readers_language(client, language, words):
    client.cookies["django_language"] = language
    page = client.get(reverse("competition:leaderboard", args=["konamon"]), HTTP_ACCEPT_LANGUAGE=language)
    assert words in page.content.decode()
    leagues_page = client.get(reverse("competition:leagues"), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert {"ja": "リーグ", "zh-hant": "聯賽", "fr": "Ligues"}[language] in leagues_page


def test_the_chart_escapes_its_title_and_draws_one_point_per_game():
    from competition.chart import rating_chart

    svg = str(rating_chart([0.0, 1.5, 3.25], title='<script>"x"</script>'))
    assert "<script>" not in svg and "&lt;script&gt;" in svg
    assert svg.count(",") >= 3 and svg.startswith("<svg") and svg.endswith("</svg>")
    assert str(rating_chart([], title="t")) == ""
