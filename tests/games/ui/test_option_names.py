"""Issue 35, item 6: a game's option names read in the reader's language. A game's own Japanese term (Marumiere's
誰もミエーズ, 自分だけミエール) may follow as a reading aid, in brackets, never stand in for the name."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils import translation

from games.engines import all_engines
from games.ui import get_ui

pytestmark = pytest.mark.django_db

KANA = re.compile(r"[\u3040-\u30ff]")
CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]")
BRACKETED = re.compile(r"\([^)]*\)|（[^）]*）")

#: what each language may not show outside a bracketed reading aid
FOREIGN_SCRIPT = {"en": CJK, "fr": CJK, "zh-hant": KANA}


def _option_texts():
    for engine in all_engines():
        for label, help_text, values in get_ui(engine.slug).option_labels.values():
            yield engine.slug, [label, help_text, *values.values()]


@pytest.mark.parametrize("language", sorted(FOREIGN_SCRIPT))
def test_every_option_name_is_in_the_readers_language_outside_its_reading_aid(language):
    foreign = FOREIGN_SCRIPT[language]
    with translation.override(language):
        for slug, texts in _option_texts():
            for text in texts:
                assert not foreign.search(BRACKETED.sub("", str(text))), (slug, language, str(text))


@pytest.mark.parametrize(
    ("language", "nobody", "only_me"),
    [
        ("en", "Nobody sees (誰もミエーズ)", "Only I see (自分だけミエール)"),
        ("fr", "Personne ne voit (誰もミエーズ)", "Moi seul vois (自分だけミエール)"),
        ("zh-hant", "誰都看不到（誰もミエーズ）", "只有自己看得到（自分だけミエール）"),
        ("ja", "誰もミエーズ（", "自分だけミエール（"),
    ],
)
def test_marumieres_variants_keep_the_games_term_as_a_reading_aid_on_the_create_form(
    client, user, language, nobody, only_me
):
    user.language = language
    user.save(update_fields=["language"])
    client.force_login(user)
    html = client.get(reverse("game-create") + "?game=marumiere", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert nobody in html and only_me in html
