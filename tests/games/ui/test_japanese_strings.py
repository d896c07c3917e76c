"""Issue 19, point 8: the Japanese pages as a Japanese board-game player reads them.

Relative times glued to particles (「今から待機中」, 「今に作成」, 「たった今に終了」), the publisher's terms
(窯 and トッピング as Mobius prints them, ピーマン not ペパロニ), one word per concept across the site (手 is
played with 打つ, never shogi's 指す; 持ち時間 for the time control; ゲーム, not 対局), lists joined with 、
and numbers set without a space before their counter (「手札7枚」)."""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.contrib.humanize.templatetags.humanize import naturaltime
from django.urls import reverse
from django.utils import timezone, translation

from tests.games.game_helpers import play_out, start_game

CATALOGUE = Path(settings.BASE_DIR) / "locale" / "ja" / "LC_MESSAGES" / "django.po"

# Words that read wrongly, or as another game's jargon, wherever they appear in a msgstr.
NOT_IN_JAPANESE = {
    "ペパロニ": "the green-pepper topping is ピーマン (ペパロニ reads as the sausage)",
    "オーブン": "Mobius's Japanese edition bakes in the 窯",
    "具材": "the topping cards are トッピング, as the Japanese rules print them",
    "対局": "a game is a ゲーム (対局 is go and shogi)",
    "指し": "a move is 打つ here (指す is shogi)",
    "指せ": "a move is 打つ here (指す is shogi)",
    "早指し": "shogi jargon",
    "今から": "Django's 「今から…」 reads wrongly glued to our sentences: 「…後」",
}
# English a msgstr may keep: names, protocols and the code a page shows.
LATIN_ALLOWED = {
    "JSON", "API", "URL", "Webhook", "Discord", "Slack", "DEBUG", "SHA", "SHA-", "HTML", "Message-ID", "null", "true",
    "false", "iCalendar", "Atom", "Tokyo", "Paris", "Home", "End", "mammamia", "UUID", "NUL", "Content-Type",
    "application", "json", "POST", "http", "https", "Asia", "Incoming", "Authorization", "Token", "token", "code",
    "strong", "href", "lt", "gt", "manage", "py", "verify_deal", "type", "expected_version", "Europe", "f", "c",
    "confirm-moves", "HMAC-SHA-", "HMAC", "Python", "games", "fairness", "api", "JavaScript",
    # Keys and typed commands are named as printed on the keyboard (issue 31's command box), and Marumiere's
    # positions are the letters under the cards (issue 35).
    "Alt", "Shift", "Enter", "Tab", "K", "t", "l", "h", "b", "m", "C",
}


def _ja_user(user):
    user.language = "ja"
    user.save(update_fields=["language"])
    return user


def _catalogue():
    return [e for e in polib.pofile(str(CATALOGUE)) if e.msgid and not e.obsolete]


def _msgstrs(entry):
    return [entry.msgstr] if not entry.msgid_plural else list(entry.msgstr_plural.values())


def test_the_catalogue_has_no_leftovers_a_japanese_reader_would_stumble_on():
    problems = []
    for entry in _catalogue():
        for text in _msgstrs(entry):
            if not text:
                problems.append(f"untranslated: {entry.msgid!r}")
            for word, why in NOT_IN_JAPANESE.items():
                if word in text:
                    problems.append(f"{word} in {text!r} ({why})")
            bare = re.sub(r"%\([a-z_]+\)[sd]|\{[a-z_]+\}|<[^>]+>", "", text)
            english = [w for w in re.findall(r"[A-Za-z][A-Za-z\-_]*", bare) if w not in LATIN_ALLOWED]
            if english:
                problems.append(f"English left in {text!r}: {english}")
            # Japanese typography: 「7枚」, not 「7 枚」 (the whole catalogue, one way).
            if re.search(r"(\d|%\((count|counter|n|number|round|points|total)\)s) [\u3040-\u30ff\u4e00-\u9fff]", text):
                problems.append(f"space between a number and its counter: {text!r}")
    assert problems == []


def test_placeholders_and_the_single_plural_form_are_kept():
    for entry in _catalogue():
        wanted = sorted(re.findall(r"%\([a-z_]+\)[sd]|\{[a-z_]+\}", entry.msgid))
        for text in _msgstrs(entry):
            found = sorted(re.findall(r"%\([a-z_]+\)[sd]|\{[a-z_]+\}", text))
            # A Japanese plural form may name the count the English singular leaves out ("Your game is ready").
            plural = sorted(re.findall(r"%\([a-z_]+\)[sd]", entry.msgid_plural or ""))
            assert set(found) <= set(wanted) | set(plural), (entry.msgid, text)
            assert set(wanted) <= set(found) or entry.msgid_plural, (entry.msgid, text)
        if entry.msgid_plural:
            assert list(entry.msgstr_plural) == [0], entry.msgid


def test_one_term_per_concept_in_the_japanese_catalogue():
    with translation.override("ja"):
        from django.utils.translation import gettext, pgettext

        assert pgettext("mamma mia topping", "pepper") == gettext("pepper") == "ピーマン"
        assert gettext("Oven") == "窯"
        assert gettext("Time control") == gettext("time control") == "持ち時間"
        assert gettext("Time limit per move") == gettext("Time per move") == gettext("A time limit per move")
        assert gettext("%(game)s: that move is not possible") % {"game": "X"} == "X：その手は打てません"
        assert gettext("Resign") == "投了" and gettext("Rematch") == "再戦" and gettext("Leaderboard") == "ランキング"
        assert gettext("bot") == "ボット" and gettext("seat") == "席" and gettext("move") == "手"
        # Tie-breaks: one noun phrase that fits "the tie is broken by …", "(…)" and "Tie broken by …".
        rule = gettext("the most topping cards left in hand")
        assert (gettext("%(names)s tied on %(score)s; the tie is broken by %(rule)s.")
                % {"names": "A、B", "score": "レシピ2枚完成", "rule": rule}
                ).endswith("同点のときは手札に残ったトッピングカードの枚数が多いほうが上位です。")


def test_relative_times_read_naturally_whatever_django_answers():
    with translation.override("ja"):
        from django.utils.translation import gettext

        assert naturaltime(timezone.now()) == "たった今"
        later = naturaltime(timezone.now() + timedelta(days=1, hours=23, minutes=1))
        assert later == "1日、23時間後"
        assert gettext("It ended %(when)s.") % {"when": "たった今"} == "（たった今）"
        assert gettext("created %(when)s") % {"when": "たった今"} == "作成：たった今"
        invited = gettext("invited by %(name)s %(when)s") % {"name": "alice", "when": "たった今"}
        assert invited == "alice が招待（たった今）"
        # Past times may be 「たった今」: no sentence glues a past time to に.
        for msgid in ("It ended %(when)s.", "created %(when)s", "invited by %(name)s %(when)s",
                      "turn began %(since)s", "your turn began %(since)s",
                      "waiting on %(names)s for %(duration)s"):
            text = gettext(msgid)
            assert not re.search(r"%\((when|since)\)sに", text), text


@pytest.mark.django_db
def test_a_game_table_in_japanese_reads_naturally(players, client):
    game = start_game("mamma-mia", players[:2], time_limit_hours=48)
    seats = sorted(game.seats.all(), key=lambda s: s.number)
    awaited = next(s for s in seats if s.awaited)
    other = next(s for s in seats if not s.awaited)

    client.force_login(_ja_user(awaited.user))
    page = client.get(reverse("game", args=[game.pk])).content.decode()
    assert "あなたの手番です。" in page
    # The site's naturaltime joins the two parts as a duration, not with Django's list separator (issue 19).
    # The clock's own reading (issue 35), not a rounded "1日23時間後".
    assert "残り時間：<strong data-clock-text>1日23時間</strong>" in page, re.findall(r"[^>]*残り時間[^<]*", page)
    assert "窯" in page and "オーブン" not in page and "具材" not in page
    assert not re.search("(?<!たった)今から", page)

    client.force_login(_ja_user(other.user))
    page = client.get(reverse("game", args=[game.pk])).content.decode()
    assert "の手番です" in page and "から手番待ち" in page
    # 「たった今から手番待ち」 reads well; Django's own 「今から1日、23時間」 or 「今から待機中」 do not.
    assert not re.search("(?<!たった)今から", page) and "たった今に" not in page and "待機中" not in page


@pytest.mark.django_db
def test_a_waiting_room_and_the_lobby_in_japanese(players, client):
    from games.lobby import services as lobby_services

    game = lobby_services.create_game(
        user=players[0], engine_slug="konamon", players=4, options={}, bots=0, visibility="public",
        time_limit_hours=24, time_control=None, allow_stacked_deal=True,
    )
    lobby_services.join_game(user=players[1], game_id=game.pk)
    client.force_login(_ja_user(players[0]))
    room = client.get(reverse("game", args=[game.pk])).content.decode()
    assert "あと2人を待っています" in room and "空席" in room

    lobby = client.get(reverse("lobby")).content.decode()
    assert "4席中2席が埋まっています" in lobby
    assert "作成：" in lobby and "今に" not in lobby and not re.search("(?<!たった)今から", lobby)
    assert "seat0、seat1" in lobby  # the players at the table, listed the Japanese way


@pytest.mark.django_db
def test_the_settings_page_in_japanese(user, client):
    client.force_login(_ja_user(user))
    page = client.get(reverse("settings")).content.decode()
    assert "設定" in page and "タイムゾーン" in page and "ゲーム中の操作" in page
    assert "対局" not in page and "ブラウザから" not in page
    assert "表示名：" in page and "表示名:" not in page  # Django's label suffix, full width


@pytest.mark.django_db
def test_the_create_form_in_japanese(user, client):
    client.force_login(_ja_user(user))
    page = client.get(reverse("game-create")).content.decode()
    assert "マンマミーア! のオプション" in page and "厳格（前の自分の手番以降に聞いた宣言だけ）" in page
    assert "標準：最初3日、1手ごとに +1日（上限7日）" in page and "テンポよく：" in page
    assert "1手ごとの持ち時間" in page and "早指し" not in page


@pytest.mark.django_db
def test_the_mamma_mia_rules_page_uses_the_publishers_words(client):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "ja"
    page = client.get(reverse("rules", args=["mamma-mia"])).content.decode()
    assert "窯に入れる" in page and "トッピングカード65枚" in page and "ピーマン" in page
    for word in ("オーブン", "具材", "ペパロニ", "レシピ山札"):
        assert word not in page


@pytest.mark.django_db(transaction=True)
def test_an_end_screen_in_japanese_says_when_without_a_stray_particle(players, client):
    game = play_out(start_game("marumiere", players[:2]))
    seat = game.seats.order_by("number").first()
    client.force_login(_ja_user(seat.user))
    page = client.get(reverse("game", args=[game.pk])).content.decode()
    banner = re.search(r'<div class="end-banner">.*?</div>', page, re.S).group(0)
    assert "ゲームは終了しました。" in banner and "）" in banner
    assert "に終了" not in banner and "今に" not in banner
    assert re.search(r"2人中(1位|2位)(（同率）)?でした。", banner), banner
    assert "の勝ち！" in banner or "勝利を分け合いました！" in banner


@pytest.mark.django_db
def test_games_are_named_as_their_publishers_write_them(players, client):
    from games.registry import get_game

    with translation.override("ja"):
        assert [get_game(s).title() for s in ("mamma-mia", "konamon", "marumiere")] == [
            "マンマミーア!", "こなもんっ!", "マルミエール"]
    with translation.override("en"):
        assert get_game("konamon").title() == "こなもんっ! (Konamon!)" and get_game("mamma-mia").title() == "Mamma Mia!"
    game = start_game("mamma-mia", players[:2])
    client.force_login(_ja_user(players[0]))
    page = client.get(reverse("game", args=[game.pk])).content.decode()
    assert f'マンマミーア! <span class="muted">#{game.pk}</span>' in page
    lobby = client.get(reverse("lobby")).content.decode()
    assert ">こなもんっ!</a>" in lobby and "(Konamon!)" not in lobby and ">Mamma Mia!</a>" not in lobby


@pytest.mark.django_db
def test_the_language_menu_names_each_language_in_itself(client):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "ja"
    page = client.get("/").content.decode()
    for code, name in (("en", "English"), ("ja", "日本語"), ("zh-hant", "繁體中文"), ("fr", "Français")):
        assert re.search(rf'<option value="{code}" lang="{code}"( selected)?>{name}</option>', page), code
    assert "英語" not in page
