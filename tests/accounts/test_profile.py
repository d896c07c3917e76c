import datetime as dt
import re

import pytest
from django.test import Client
from django.urls import reverse

JOINED = dt.datetime(2026, 1, 1, 23, 30, tzinfo=dt.UTC)


@pytest.mark.django_db
def test_member_since_is_shown_in_the_viewers_time_zone(user_factory):
    member = user_factory(username="ada", display_name="Ada L.")
    member.date_joined = JOINED
    member.save()
    tokyo_viewer = user_factory(username="kenji", time_zone="Asia/Tokyo")
    paris_viewer = user_factory(username="amelie", time_zone="Europe/Paris")

    def member_since(viewer):
        client = Client()
        if viewer is not None:
            client.force_login(viewer)
        html = client.get(reverse("profile", args=["ada"])).content.decode()
        assert "Ada L." in html and "@ada" in html
        return html.split('class="member-since">', 1)[1].split("<", 1)[0]

    assert member_since(tokyo_viewer) == "Jan. 2, 2026"  # already 08:30 on the 2nd in Tokyo
    assert member_since(paris_viewer) == "Jan. 2, 2026"  # 00:30 in Paris
    assert member_since(None) == "Jan. 1, 2026"  # visitors see UTC


@pytest.mark.django_db
def test_unknown_or_deactivated_profiles_are_not_found(client, user_factory):
    user_factory(username="gone", is_active=False)
    assert client.get(reverse("profile", args=["nobody"])).status_code == 404
    assert client.get(reverse("profile", args=["gone"])).status_code == 404


@pytest.mark.django_db
def test_own_profile_links_to_settings_and_warns_about_bouncing_mail(logged_in_client, user):
    user.email_undeliverable_since = JOINED
    user.save()
    html = logged_in_client.get(reverse("profile", args=[user.username])).content.decode()
    assert reverse("settings") in html and "bouncing" in html
    assert "bouncing" not in Client().get(reverse("profile", args=[user.username])).content.decode()


@pytest.mark.django_db
def test_profile_includes_match_history_once_the_platform_template_exists(client, user, settings, tmp_path):
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "_match_history.html").write_text("<p>history of {{ profile_user.username }}</p>")
    settings.TEMPLATES = [{**settings.TEMPLATES[0], "DIRS": [tmp_path, *settings.TEMPLATES[0]["DIRS"]]}]
    html = client.get(reverse("profile", args=[user.username])).content.decode()
    assert f"history of {user.username}" in html


# Match history and statistics as two tables (issue 19, point 8) ------------------------------------------------

FINISHED = dt.datetime(2026, 3, 1, 23, 30, tzinfo=dt.UTC)  # already March 2nd in Tokyo
KONAMON, MAMMA_MIA, MARUMIERE = "こなもんっ! (Konamon!)", "Mamma Mia!", "マルミエール (Marumiere)"


def finished_game(owner, others, *, slug="konamon", ranks, scores, minutes_ago=0, status="finished",
                  bots=0, resigned=False, dropped=False, bot_dropped=False):
    """A finished game as ``_finish`` leaves it: the owner in seat 0, then ``others``, then ``bots``; the seats'
    places, scores and finished_at, and the statistics counters. ``ranks``/``scores``: one per seat."""
    import hashlib

    from games.models import Game, Seat
    from games.play import services as play_services

    when = FINISHED - dt.timedelta(minutes=minutes_ago)
    people = [owner, *others] + [None] * bots
    abandoned = status == "abandoned"
    game = Game.objects.create(
        engine_slug=slug, players=len(people), status=status, created_by=owner,
        seed_sha256=hashlib.sha256(str(minutes_ago).encode()).hexdigest(), revealed_seed=str(minutes_ago),
        started_at=when - dt.timedelta(days=1), finished_at=when,
        outcome=None if abandoned else [
            {"seat": n, "rank": ranks[n], "score": scores[n]} for n in range(len(people))
        ],
    )
    seats = [
        Seat.objects.create(
            game=game, number=n, join_order=n, user=person, is_bot=person is None,
            final_rank=None if abandoned else ranks[n], final_score=None if abandoned else scores[n],
            finished_at=when, resigned_at=when if (resigned and n == 0) else None,
            dropped_out=(dropped and n == 0) or (bot_dropped and n == len(people) - 1),
        )
        for n, person in enumerate(people)
    ]
    if not abandoned:
        play_services.record_finished_seats(engine_slug=slug, seats=seats)
    return game


def profile_html(client, user, **query) -> str:
    response = client.get(reverse("profile", args=[user.username]), query)
    assert response.status_code == 200
    return response.content.decode()


def table(html: str, css_class: str) -> str:
    start = html.index(f'<table class="{css_class} ')
    return html[start : html.index("</table>", start)]


def rows(html: str, css_class: str) -> list[dict[str, str]]:
    """The body rows of a table as {label: text}: the row header under "Game", each cell under its data-label."""
    from html import unescape

    def text(fragment):
        return " ".join(unescape(re.sub(r"<[^>]+>", " ", fragment)).split())

    body = table(html, css_class).split("<tbody>", 1)[1]
    result = []
    for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S):
        cells = {"Game": text(re.search(r'<th scope="row">(.*?)</th>', row, re.S).group(1))}
        found = re.findall(r'<td data-label="([^"]+)"[^>]*>(.*?)</td>', row, re.S)
        cells |= {label: text(value) for label, value in found}
        result.append(cells)
    return result


@pytest.fixture
def history(user_factory):
    """ada's five finished games of three kinds, one called off, and a rating in Konamon!."""
    from competition.models import Rating

    ada = user_factory(username="ada", display_name="Ada")
    bob = user_factory(username="bob", display_name="Bob")
    cy = user_factory(username="cy", display_name="Cy")
    finished_game(ada, [bob], bots=1, slug="mamma-mia", ranks=[1, 2, 3], scores=[5, 3, 1], minutes_ago=0)
    finished_game(ada, [bob], ranks=[2, 1], scores=[3, 12], minutes_ago=10)
    finished_game(ada, [cy], ranks=[1, 1], scores=[7, 7], minutes_ago=20)
    finished_game(ada, [bob, cy], ranks=[3, 1, 2], scores=[0, 8, 4], minutes_ago=30, resigned=True)
    finished_game(ada, [cy], bots=1, slug="marumiere", ranks=[2, 1, 3], scores=[1, 2, 0], minutes_ago=40,
                  bot_dropped=True)
    finished_game(ada, [bob], ranks=[None, None], scores=[None, None], minutes_ago=50, status="abandoned")
    Rating.objects.create(user=ada, engine_slug="konamon", mu=25, sigma=3, conservative=16.0, games=12,
                          last_game_at=FINISHED)
    return ada


@pytest.mark.django_db
def test_profile_shows_results_by_game_and_the_finished_games_as_two_semantic_tables(client, history):
    html = profile_html(client, history)
    for css_class, captions, headers in (
        ("stats", "Results by game",
         ["Game", "Played", "Won", "Win rate", "Average place", "Average score", "Rating"]),
        ("history", "Finished games, newest first", ["Game", "Date", "Opponents", "Place", "Score", "Outcome"]),
    ):
        part = table(html, css_class)
        assert f"<caption>{captions}</caption>" in part
        assert '<colgroup><col class="col-game">' in part  # the game column lines up in both tables
        head = part.split("<thead>", 1)[1].split("</thead>", 1)[0]
        assert head.count('<th scope="col"') == len(headers)
        assert re.findall(r'<th scope="col"[^>]*>([^<]*)</th>', head) == headers
        # Every number right-aligned in its column: the same class on its header and its cells.
        assert part.count('class="num"') > 0
    stats = table(html, "stats")
    assert stats.count('<td data-label="Played" class="num">') == 3 and f'<th scope="row">{KONAMON}</th>' in stats


@pytest.mark.django_db
def test_results_by_game_give_played_won_averages_with_units_and_the_rating_if_any(client, history):
    by_game = {row["Game"]: row for row in rows(profile_html(client, history), "stats")}
    assert by_game[KONAMON] == {
        "Game": KONAMON, "Played": "3", "Won": "1", "Win rate": "33 %", "Average place": "2.0",
        "Average score": "3.3 points", "Rating": "16.0",
    }  # the called-off game counts for nothing; the shared first place is a win
    assert by_game[MAMMA_MIA] | {"Rating": "—"} == by_game[MAMMA_MIA]
    assert by_game[MAMMA_MIA]["Average score"] == "5 recipes baked"
    assert by_game[MARUMIERE]["Average score"] == "1 point" and by_game[MARUMIERE]["Won"] == "0"


@pytest.mark.django_db
def test_match_history_rows_read_game_date_players_place_of_count_score_with_unit_and_outcome(client, history):
    listed = rows(profile_html(client, history), "history")
    games = [row.pop("Game").split(" #")[0] for row in listed]
    assert games == [MAMMA_MIA, KONAMON, KONAMON, KONAMON, MARUMIERE, KONAMON]
    assert [row["Date"] for row in listed] == ["March 1, 2026"] * 6
    assert listed == [
        {"Date": "March 1, 2026", "Opponents": "Bob, Bot 3 (normal)", "Place": "1st of 3",
         "Score": "5 recipes baked", "Outcome": "won"},
        {"Date": "March 1, 2026", "Opponents": "Bob", "Place": "2nd of 2", "Score": "3 points", "Outcome": "lost"},
        {"Date": "March 1, 2026", "Opponents": "Cy", "Place": "1st of 2", "Score": "7 points",
         "Outcome": "shared win"},
        {"Date": "March 1, 2026", "Opponents": "Bob, Cy", "Place": "3rd of 3", "Score": "0 points",
         "Outcome": "resigned"},
        {"Date": "March 1, 2026", "Opponents": "Cy, Bot 3 (normal, dropped out)", "Place": "2nd of 3",
         "Score": "1 point", "Outcome": "lost"},
        {"Date": "March 1, 2026", "Opponents": "Bob", "Place": "—", "Score": "—", "Outcome": "called off"},
    ]


@pytest.mark.django_db
def test_match_history_player_lists_end_without_a_trailing_comma(client, history):
    html = table(profile_html(client, history), "history")
    assert ", </td>" not in html and ",</td>" not in html
    assert '<td data-label="Opponents" class="players">Bob, Bot 3 (normal)</td>' in html


@pytest.mark.django_db
def test_match_history_dates_are_in_the_readers_time_zone(client, history, user_factory):
    client.force_login(user_factory(username="kenji", time_zone="Asia/Tokyo"))
    listed = rows(profile_html(client, history), "history")
    assert {row["Date"] for row in listed} == {"March 2, 2026"}  # 08:30 on the 2nd in Tokyo
    assert '<time datetime="2026-03-02T08:30:00+09:00">' in profile_html(client, history)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("ja", ["結果", "ゲーム別の成績", "平均得点", "3人中1位", "勝ち", "同率1位", "負け", "レシピ5枚完成"]),
        ("zh-hant", ["結果", "各遊戲戰績", "平均得分", "3 人中第 1 名", "勝", "並列第一", "敗", "烤好 5 張食譜"]),
        ("fr", ["Résultat", "Résultats par jeu", "Score moyen", "1re place sur 3", "gagnée", "gagnée ex æquo",
                "perdue", "5 recettes cuites"]),
    ],
)
def test_the_two_tables_read_in_every_language(client, history, settings, language, expected):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    html = profile_html(client, history)
    for text in expected:
        assert text in html, text
    for english in ("Results by game", "Average score", "Outcome", "Finished games, newest first", "shared win"):
        assert english not in html, english


@pytest.mark.django_db
def test_profile_queries_do_not_grow_with_the_number_of_games_in_the_history(client, user_factory):
    """Paged history, counters for the stats, one query for their ratings: 3 games or 30, the same queries."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from competition.models import Rating

    ada, bob = user_factory(username="ada"), user_factory(username="bob")
    client.force_login(bob)

    def add_games(count, start):
        for index in range(start, start + count):
            slug = ["konamon", "mamma-mia", "marumiere"][index % 3]
            seats = 2 + index % 2  # with a bot every other game
            finished_game(ada, [bob], bots=index % 2, slug=slug, ranks=[1 + index % 2, 2 - index % 2, 3][:seats],
                          scores=[index, 3, 1][:seats], minutes_ago=index)

    def count():
        with CaptureQueriesContext(connection) as queries:
            html = profile_html(client, ada)
        return len(queries), html

    add_games(3, 0)
    Rating.objects.create(user=ada, engine_slug="konamon", mu=25, sigma=3, conservative=16.0, games=3)
    small, html = count()
    assert len(rows(html, "history")) == 3
    add_games(27, 3)
    large, html = count()
    assert len(rows(html, "history")) == 20 and 'rel="next"' in html  # a page of the 30, and the way on
    assert small == large, (small, large)
    older = re.search(r'href="\?page=(older\.[0-9.]+)#history-title" rel="next"', html).group(1)
    with CaptureQueriesContext(connection) as queries:
        assert len(rows(profile_html(client, ada, page=older), "history")) == 10
    assert len(queries) == large
