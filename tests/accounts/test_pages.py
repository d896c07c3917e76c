"""Home and rules pages: the three games, in every language, with their cards."""

import re

import pytest
from django.conf import settings as django_settings
from django.test import Client
from django.urls import reverse

from konamon import rules as konamon_rules
from mamma_mia import rules as mamma_mia_rules
from mamma_mia.engine import TOPPINGS
from marumiere import rules as marumiere_rules

LANGUAGES = ["en", "ja", "zh-hant", "fr"]
# A heading from each language's own rules template (proves the per-language prose is chosen).
FIRST_HEADING = {"en": "The idea", "ja": "ゲームの概要", "zh-hant": "遊戲概要", "fr": "Le principe"}
SYMBOLS = {"mamma-mia": "tp-pineapple", "konamon": "ac-prep", "marumiere": "mm-heart"}
CARD_COUNTS = {"mamma-mia": ("recipe-card ", 40), "konamon": ("customer-card ", 18), "marumiere": ("back-card ", 36)}


def _client_in(language: str) -> Client:
    client = Client()
    client.cookies[django_settings.LANGUAGE_COOKIE_NAME] = language
    return client


@pytest.mark.django_db
def test_home_lists_every_registered_game_with_players_and_rules_links(client):
    html = client.get(reverse("home")).content.decode()
    # The site's three games, and the test settings' plug-in game.
    assert html.count('class="game-tile ') == 4 and "Hidden number" in html
    for name in ("Mamma Mia!", "こなもんっ!", "マルミエール"):
        assert name in html
    for slug in ("mamma-mia", "konamon", "marumiere"):
        assert reverse("rules", args=[slug]) in html
    assert "2–5 players" in html and "2–4 players" in html
    assert reverse("account_signup") in html


@pytest.mark.django_db
def test_home_offers_the_lobby_to_a_logged_in_user(logged_in_client):
    html = logged_in_client.get(reverse("home")).content.decode()
    assert reverse("lobby") in html and reverse("account_signup") not in html


@pytest.mark.django_db
def test_player_counts_come_from_the_games_engine(client, monkeypatch):
    from mamma_mia.engine import engine

    monkeypatch.setattr(type(engine), "min_players", 3)
    monkeypatch.setattr(type(engine), "max_players", 6)
    assert "3–6 players" in client.get(reverse("home")).content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("slug", ["mamma-mia", "konamon", "marumiere"])
def test_rules_page_explains_the_game_in_the_readers_language_with_its_cards(slug, language):
    response = _client_in(language).get(reverse("rules", args=[slug]))
    assert response.status_code == 200
    html = response.content.decode()
    assert f'<html lang="{language}">' in html
    assert FIRST_HEADING[language] in html
    css_class, count = CARD_COUNTS[slug]
    assert html.count(f'class="{css_class}') == count
    assert f'<symbol id="{SYMBOLS[slug]}"' in html  # the game's own card artwork, inline SVG
    assert f"/static/{slug.replace('-', '_')}/{slug.replace('-', '_')}.css" in html  # and its own stylesheet


@pytest.mark.django_db
def test_unknown_rules_page_is_not_found(client):
    assert client.get("/rules/chess/").status_code == 404


@pytest.mark.django_db
def test_konamon_rules_show_all_60_action_cards_and_customer_names_in_the_language(client):
    html = _client_in("fr").get(reverse("rules", args=["konamon"])).content.decode()
    assert len(re.findall(r'class="action-card action-card--t\d"', html)) == 60
    assert "Le critique gastronomique" in html and "グルメ評論家" in html


def test_mamma_mia_recipes_follow_the_rule_tables_pattern():
    recipes = {r["id"]: r for group in mamma_mia_rules.recipes_by_colour() for r in group["recipes"]}
    assert len(recipes) == 40
    assert recipes["green-1"]["needs"] == {"pepper": 1, "pineapple": 4}
    assert recipes["red-4"]["needs"] == {"salami": 1, "mushroom": 4}
    assert recipes["yellow-5"]["needs"] == dict.fromkeys(TOPPINGS, 1)
    assert recipes["brown-7"]["kind"] == "monotoni"
    assert recipes["brown-7"]["needs"] == {"mushroom": 1}
    assert recipes["purple-6"]["kind"] == "bombastica" and recipes["purple-6"]["needs"] == {}
    assert recipes["purple-8"]["kind"] == "minimale" and recipes["purple-8"]["symbol"] == "?"


def test_konamon_action_cards_follow_the_rule_tables_examples():
    cards = {card["number"]: card for block in konamon_rules.action_blocks() for card in block["cards"]}
    assert [cards[1][k] for k in ("prep", "bake", "hand_over")] == [1, 1, 0]
    assert cards[17] == {"number": 17, "total": 3, "prep": 2, "bake": 1, "hand_over": 0}
    assert cards[60] == {"number": 60, "total": 5, "prep": 1, "bake": 2, "hand_over": 2}
    for block in konamon_rules.action_blocks():
        assert all(c["prep"] + c["bake"] + c["hand_over"] == block["total"] for c in block["cards"])


def test_every_konamon_customer_has_a_name_in_every_language():
    for language in LANGUAGES:
        customers = konamon_rules.customers(language=language)
        assert len(customers) == 18
        assert all(c["name"] for c in customers)
    assert konamon_rules.customers(language="zh-hant")[9]["name"] == "美食評論家"


def test_marumiere_shapes_have_area_proportional_to_the_number():
    suit = marumiere_rules.suits()[0]
    scales = [float(card["scale"]) for card in suit["cards"]]
    assert scales[-1] == 1.0
    assert abs(scales[3] ** 2 / scales[0] ** 2 - 4) < 0.02
    assert [card["trump"] for card in suit["cards"]].count(True) == 1
