"""The Traditional Chinese catalogue reads as Taiwan writes it (issue 19, point 8).

The review of every zh-Hant string found Simplified-looking wording, mainland terms, chess words for card
moves ("下棋", "一步棋", "一手"), a mix of 您 and 你, and Django's own durations reading "1 日" and "1 月"
("January") inside "time runs out in …". These tests keep those from coming back.
"""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.contrib.humanize.templatetags.humanize import naturaltime
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext, pgettext

PO_PATH = Path(settings.BASE_DIR) / "locale" / "zh_Hant" / "LC_MESSAGES" / "django.po"

# Simplified-only characters a machine translation or a mainland writer would slip in, each next to the
# Traditional one this site uses: 这這 们們 个個 时時 间間 戏戲 设設 输輸 户戶 网網 络絡 开開 关關 发發 点點
# 击擊 页頁 邮郵 为為 说說 过過 还還 没沒 会會 对對 让讓 从從 选選 择擇 样樣 题題 现現 码碼 请請 将將 认認
# 错錯 误誤 录錄 复復 态態 机機 张張 轮輪 胜勝 败敗 积積 赛賽 联聯 计計 钟鐘 数數 库庫 单單 问問 听聽
# 萨薩 烧燒 鱼魚 厨廚 凤鳳 榄欖 盘盤 级級 类類 据據.
SIMPLIFIED_ONLY = set(
    "这们个时间戏设输户网络开关发点击页邮为说过还没会对让从选择样题现码请将认错误录复态机张轮胜败积赛联计钟数库单问听"
    "萨烧鱼厨凤榄盘级类据"
)

# Mainland wording where Taiwan says something else (Taiwan's word in the comment).
MAINLAND_TERMS = {
    "信息": "訊息",
    "用戶": "使用者",
    "默認": "預設",
    "視頻": "影片",
    "設置": "設定",
    "登錄": "登入",
    "文件": "檔案",
    "網絡": "網路",
    "軟件": "軟體",
    "服務器": "伺服器",
    "數據": "資料",
    "屏幕": "螢幕",
    "菜單": "選單",
    "鏈接": "連結",
    "創建": "建立",
    "當前": "目前",
    "獲取": "取得",
    "郵箱": "信箱",
    "賬號": "帳號",
    "質量": "品質",
    "界面": "介面",
    "運行": "執行",
    "緩存": "快取",
    "字符": "字元",
    "激活": "啟用",
    "刷新": "重新整理",
    "搜索": "搜尋",
    # The site's own choices: a card game has no chess moves, and the site says 你 throughout.
    "棋": "出手／一步",
    "這一手": "這一步",
    "您": "你",
    "燒烤": "煎烤 (Konamon!'s 焼き)",
    "打工仔": "工讀生",
}

PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|\{\w+\}")
HAN = "\u4e00-\u9fff"


@pytest.fixture(autouse=True)
def _back_to_the_default_language():
    """A page request activates the reader's language for the thread: later tests expect the default."""
    yield
    translation.deactivate()


def _entries():
    return [entry for entry in polib.pofile(str(PO_PATH)) if entry.msgid and not entry.obsolete]


def _translations(entry) -> list[str]:
    return [text for _, text in sorted(entry.msgstr_plural.items())] if entry.msgid_plural else [entry.msgstr]


def test_no_simplified_characters_or_mainland_terms_in_the_catalogue():
    found = []
    for entry in _entries():
        for text in _translations(entry):
            chars = sorted(SIMPLIFIED_ONLY.intersection(text))
            terms = [term for term in MAINLAND_TERMS if term in text]
            if chars or terms:
                found.append((entry.msgid, text, chars, terms))
    assert found == []


def test_placeholders_are_kept_and_there_is_one_plural_form():
    wrong = []
    for entry in _entries():
        expected = set(PLACEHOLDER.findall(entry.msgid)) | set(PLACEHOLDER.findall(entry.msgid_plural or ""))
        if entry.msgid_plural:
            assert sorted(entry.msgstr_plural) == [0], entry.msgid  # nplurals=1: msgstr[0] only
        for text in _translations(entry):
            if text and not set(PLACEHOLDER.findall(text)) <= expected:
                wrong.append((entry.msgid, text))
            # The singular may leave out the count (Django's blocktranslate); the rest must all be there.
            kept = set(PLACEHOLDER.findall(entry.msgid_plural or entry.msgid))
            if text and not kept <= set(PLACEHOLDER.findall(text)):
                wrong.append((entry.msgid, text))
    assert wrong == []


def test_punctuation_after_chinese_text_is_full_width():
    half_width = re.compile(f"[{HAN}][,:;!?]|[{HAN}]\\(")
    assert [text for entry in _entries() for text in _translations(entry) if half_width.search(text)] == []


def test_terms_read_as_a_taiwanese_player_expects():
    with translation.override("zh-hant"):
        assert pgettext("mamma mia topping", "pepper") == "青椒"  # a green pepper, not pepperoni
        assert pgettext("konamon process", "bake") == "煎烤"
        assert pgettext("konamon board", "Hot showcase") == "保溫櫃"
        assert gettext("It is your move.") == "輪到你了。"
        assert gettext("Resign") == "認輸" and gettext("Rematch") == "再戰" and gettext("Leaderboard") == "排行榜"


def test_relative_times_read_naturally_in_traditional_chinese():
    with translation.override("zh-hant"):
        later = naturaltime(timezone.now() + timedelta(days=1, hours=23, minutes=1)).replace("\xa0", " ")
        earlier = naturaltime(timezone.now() - timedelta(days=40)).replace("\xa0", " ")
        assert later == "1 天、23 小時後"  # not Django's own "1 日"
        assert earlier == "1 個月、1 週前"  # not "1 月" (January)
        assert gettext("Time runs out %(when)s.") % {"when": later} == "時間將於 1 天、23 小時後到期。"
        assert gettext("turn began %(since)s") % {"since": earlier} == "從 1 個月、1 週前開始等待"


def _client_in_chinese() -> Client:
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "zh-hant"
    return client


@pytest.mark.django_db
def test_home_and_rules_pages_speak_taiwanese_chinese():
    home = _client_in_chinese().get(reverse("home")).content.decode()
    assert '<html lang="zh-hant">' in home and "和朋友玩卡牌遊戲，一次一步" in home
    konamon = _client_in_chinese().get(reverse("rules", args=["konamon"])).content.decode()
    # The rules page names Konamon!'s boards and steps as the table and the log do.
    assert "攤位的工讀生" in konamon and "<strong>保溫櫃</strong>" in konamon and "<strong>煎烤</strong>" in konamon
    mamma_mia = _client_in_chinese().get(reverse("rules", args=["mamma-mia"])).content.decode()
    assert "超豪華披薩（Bombastica）" in mamma_mia and "青椒" in mamma_mia


@pytest.mark.django_db
def test_a_timed_game_tells_its_player_when_time_runs_out_in_chinese(user_factory):
    from tests.games.game_helpers import awaited_human, start_game

    users = [user_factory(username=f"zh{n}", language="zh-hant") for n in range(2)]
    game = start_game("marumiere", users, time_limit_hours=48)
    seat, _ = awaited_human(game)
    client = Client()
    client.force_login(seat.user)  # who reads in the language of their settings
    html = client.get(reverse("game", args=[game.pk])).content.decode().replace("\xa0", " ")
    # The clock's own reading, as it ticks beside it (issue 35): 「1 天 23 小時」, not a rounded relative time.
    assert re.search(r"剩餘時間：<strong data-clock-text>(1 天 23 小時|2 天 0 小時)</strong>", html)
    assert "叫牌卡：標準" in html  # the game's options, label and value, with a full-width colon


def test_log_sentences_follow_each_other_without_a_space_after_a_chinese_full_stop():
    from games.ui import describe_event

    players = [{"seat": 0, "name": "阿華"}, {"seat": 1, "name": "bob"}]
    turn = {"type": "turn", "seat": 0, "topping": "pepper", "count": 2, "draw": "kitchen", "drew": 1}
    with translation.override("zh-hant"):
        assert str(describe_event("mamma-mia", turn, players)) == "阿華 把青椒 ×2 放進烤箱。從廚房抽了 1 張。"
    with translation.override("en"):
        english = str(describe_event("mamma-mia", turn, players))
        assert english == "阿華 put pepper ×2 into the oven. Drew 1 from the kitchen."


def test_labels_and_name_lists_use_chinese_punctuation():
    from clocks.forms import TimeControlFields

    with translation.override("zh-hant"):
        assert gettext("%(name)s: %(rule)s") % {"name": "記憶", "rule": "嚴格"} == "記憶：嚴格"
        presets = [str(label) for _, label in TimeControlFields().fields["bank_preset"].choices]
        assert presets[0].startswith("快速對局：初始 4 小時") and not any(": " in label for label in presets)


@pytest.mark.django_db
def test_the_language_menu_names_each_language_in_its_own_language():
    html = _client_in_chinese().get(reverse("home")).content.decode()
    menu = html[html.index('<select id="lang-select"') : html.index("</select>")]
    for name in ("English", "日本語", "繁體中文", "Français"):
        assert f">{name}</option>" in menu
    assert "英語" not in menu and "法語" not in menu


@pytest.mark.django_db
def test_the_match_history_lists_opponents_with_the_chinese_separator(user_factory):
    from tests.games.game_helpers import play_out, start_game

    users = [user_factory(username=name, language="zh-hant") for name in ("zhalice", "zhbob", "zhcarol")]
    play_out(start_game("marumiere", users))
    html = _client_in_chinese().get(reverse("profile", args=["zhalice"])).content.decode()
    opponents = re.search(r'<td data-label="對手" class="players">(.*?)</td>', html).group(1)
    assert opponents in ("zhbob、zhcarol", "zhcarol、zhbob")  # seats are drawn: either order
