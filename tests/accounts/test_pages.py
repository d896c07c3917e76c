"""Home and rules pages: the three games, in every language, with their cards."""

import re

import pytest
from django.conf import settings as django_settings
from django.test import Client
from django.urls import reverse

from mammamia import cards, catalog

LANGUAGES = ["en", "ja", "zh-hant", "fr"]
# A heading from each language's own rules template (proves the per-language prose is chosen).
FIRST_HEADING = {"en": "The idea", "ja": "ゲームの概要", "zh-hant": "遊戲概要", "fr": "Le principe"}
CARD_COUNTS = {"mamma-mia": ("recipe-card ", 40), "konamon": ("customer-card ", 18), "marumiere": ("back-card ", 36)}


def _client_in(language: str) -> Client:
    client = Client()
    client.cookies[django_settings.LANGUAGE_COOKIE_NAME] = language
    return client


@pytest.mark.django_db
def test_home_lists_the_three_games_with_players_and_rules_links(client):
    html = client.get(reverse("home")).content.decode()
    assert html.count('class="game-tile ') == 3
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
def test_home_and_rules_survive_an_engine_that_cannot_be_imported(client, monkeypatch):
    def broken(slug):
        raise ImportError("engine being written")

    monkeypatch.setattr("games.engines.get_engine", broken)
    assert client.get(reverse("home")).content.decode().count('class="game-tile ') == 3
    assert client.get(reverse("rules", args=["konamon"])).status_code == 200


@pytest.mark.django_db
def test_player_counts_come_from_the_engine_registry_when_it_answers(client, monkeypatch):
    class Engine:
        min_players, max_players = 3, 6

    monkeypatch.setattr("games.engines.get_engine", lambda slug: Engine())
    assert catalog.player_counts(slug="mamma-mia") == (3, 6)
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
    assert '<symbol id="tp-pineapple"' in html  # the card artwork is inline SVG


@pytest.mark.django_db
def test_unknown_rules_page_is_not_found(client):
    assert client.get("/rules/chess/").status_code == 404


@pytest.mark.django_db
def test_konamon_rules_show_all_60_action_cards_and_customer_names_in_the_language(client):
    html = _client_in("fr").get(reverse("rules", args=["konamon"])).content.decode()
    assert len(re.findall(r'class="action-card action-card--t\d"', html)) == 60
    assert "Le critique gastronomique" in html and "グルメ評論家" in html


def test_mamma_mia_recipes_follow_the_rule_tables_pattern():
    recipes = {r["id"]: r for r in cards.mamma_mia_recipes()}
    assert len(recipes) == 40
    assert recipes["green-1"]["needs"] == {"pepper": 1, "pineapple": 4}
    assert recipes["red-4"]["needs"] == {"salami": 1, "mushroom": 4}
    assert recipes["yellow-5"]["needs"] == dict.fromkeys(cards.TOPPINGS, 1)
    assert recipes["brown-7"] | {} and recipes["brown-7"]["kind"] == "monotoni"
    assert recipes["brown-7"]["needs"] == {"mushroom": 1}
    assert recipes["purple-6"]["kind"] == "bombastica" and recipes["purple-6"]["needs"] == {}
    assert recipes["purple-8"]["kind"] == "minimale" and recipes["purple-8"]["symbol"] == "?"


def test_mamma_mia_recipes_prefer_the_engines_data_file(tmp_path, monkeypatch):
    (tmp_path / "mamma_mia.json").write_text(
        '{"recipes": [{"id": "green-1", "colour": "green", "kind": "classic", "needs": {"pepper": 1, "olive": 4}}]}'
    )
    monkeypatch.setattr(cards, "ENGINE_DATA_DIR", tmp_path)
    assert [(r["id"], r["needs"]) for r in cards.mamma_mia_recipes()] == [("green-1", {"pepper": 1, "olive": 4})]
    (tmp_path / "mamma_mia.json").write_text("not json")
    assert len(cards.mamma_mia_recipes()) == 40  # an unreadable file falls back to the rule table


def test_konamon_action_cards_follow_the_rule_tables_examples():
    assert [cards.konamon_action_card(n)[k] for n in (1,) for k in ("prep", "bake", "hand_over")] == [1, 1, 0]
    assert cards.konamon_action_card(17) | {} == {"number": 17, "total": 3, "prep": 2, "bake": 1, "hand_over": 0}
    assert cards.konamon_action_card(60) == {"number": 60, "total": 5, "prep": 1, "bake": 2, "hand_over": 2}
    for block in cards.konamon_action_blocks():
        assert all(c["prep"] + c["bake"] + c["hand_over"] == block["total"] for c in block["cards"])


def test_every_konamon_customer_has_a_name_in_every_language():
    for language in LANGUAGES:
        customers = cards.konamon_customers(language=language)
        assert len(customers) == 18
        assert all(c["name"] for c in customers)
    assert cards.konamon_customers(language="zh-hant")[9]["name"] == "美食評論家"


def test_marumiere_shapes_have_area_proportional_to_the_number():
    suit = cards.marumiere_suits()[0]
    scales = [float(card["scale"]) for card in suit["cards"]]
    assert scales[-1] == 1.0
    assert abs(scales[3] ** 2 / scales[0] ** 2 - 4) < 0.02
    assert [card["trump"] for card in suit["cards"]].count(True) == 1


def test_konamon_cards_prefer_the_engines_data_file_and_keep_our_translated_names(tmp_path, monkeypatch):
    (tmp_path / "konamon.json").write_text(
        '{"actions": [{"number": 1, "prep": 2, "bake": 0, "hand_over": 0}],'
        ' "customers": [{"id": "c10", "name": {"ja": "評論家", "en": "Critic"}, "bonus": 9,'
        ' "orders": ["taiyaki"], "effect": "critic"}]}'
    )
    monkeypatch.setattr(cards, "ENGINE_DATA_DIR", tmp_path)
    assert cards.konamon_action_blocks()[0]["cards"][0] | {} == {
        "number": 1, "prep": 2, "bake": 0, "hand_over": 0, "total": 2
    }
    (customer,) = cards.konamon_customers(language="fr")
    assert (customer["name"], customer["name_ja"], customer["bonus"]) == ("Le critique gastronomique", "評論家", 9)
    (tmp_path / "konamon.json").write_text("{broken")
    assert len(cards.konamon_customers(language="en")) == 18
