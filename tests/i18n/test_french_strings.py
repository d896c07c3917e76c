"""The French catalogue reads as a French board-game player expects (issue 19, point 8).

The rules chosen for French, checked over every entry of locale/fr/LC_MESSAGES/django.po:
- typography: a no-break space (U+00A0) before « : ; ! ? » and after « (and before »), never an ordinary
  or a narrow one, and never none; the typographic apostrophe ’, never ';
- the reader is addressed as « vous », never « tu »;
- one word per game notion (robot, réglages, ingrédient, poivron, replay, n°);
- placeholders kept exactly, and both plural forms given.
Then a few pages rendered in French show fixed phrases, including Django's own relative times glued into ours.
"""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path

import polib
import pytest
from django.template import Context, Template
from django.urls import reverse
from django.utils import timezone, translation

PO = Path(__file__).resolve().parents[2] / "locale" / "fr" / "LC_MESSAGES" / "django.po"
NBSP = "\u00a0"

# Names written as their makers write them (a game's own title keeps its "!"), and code shown as code.
VERBATIM = ("Mamma Mia!", "Konamon!", "こなもんっ!", "Authorization: Token", "Content-Type: application/json")

TU_WORDS = re.compile(r"\b(tu|toi|ton|ta|tes|te)\b|\bt’", re.IGNORECASE)
# The word French players would not expect for a notion the site names otherwise (before → the site's word).
AVOIDED_WORDS = {
    r"\bbots?\b": "robot",
    r"\bparamètres\b": "réglages (Settings)",
    r"\bgarnitures?\b": "ingrédient (topping)",
    r"\bpiment\b": "poivron (green pepper)",
    r"\bpepperoni\b": "poivron (green pepper)",
    r"\brejeu\b|\brelecture\b": "replay",
    r"nº": "n°",
}
PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|\{\w+\}")


@pytest.fixture(scope="module")
def catalogue():
    return [entry for entry in polib.pofile(str(PO)) if not entry.obsolete]


def translations(entry):
    if entry.msgid_plural:
        return [entry.msgstr_plural[index] for index in sorted(entry.msgstr_plural)]
    return [entry.msgstr]


def typography_faults(text: str) -> list[str]:
    for verbatim in VERBATIM:
        text = text.replace(verbatim, "")
    text = re.sub(r"&\w+;", "", text)  # HTML entities are markup
    faults = []
    for match in re.finditer(r"[:;!?»]", text):
        before = text[match.start() - 1] if match.start() else ""
        if match.group() == ":" and text[match.end() : match.end() + 2] == "//":
            continue  # a URL
        if before != NBSP and before != "«":
            faults.append(f"{text[max(0, match.start() - 12) : match.end()]!r}: want U+00A0 before {match.group()}")
    for match in re.finditer("«", text):
        if text[match.end() : match.end() + 1] != NBSP:
            faults.append(f"{text[match.start() : match.end() + 12]!r}: want U+00A0 after «")
    if "'" in text:
        faults.append(f"{text!r}: want ’, not '")
    if "\u202f" in text:
        faults.append(f"{text!r}: the site uses U+00A0, not U+202F")
    return faults


def test_the_catalogue_uses_french_typography(catalogue):
    faults = [
        f"{entry.msgid!r} → {fault}" for entry in catalogue for text in translations(entry)
        for fault in typography_faults(text)
    ]
    assert not faults, "\n".join(faults)


def test_the_reader_is_always_vous(catalogue):
    tu = [text for entry in catalogue for text in translations(entry) if TU_WORDS.search(text)]
    assert not tu, tu
    vous = sum(bool(re.search(r"\b(vous|votre|vos)\b", text)) for e in catalogue for text in translations(e))
    assert vous > 150


def test_one_word_for_each_game_notion(catalogue):
    found = [
        f"{text!r}: say {word}" for entry in catalogue for text in translations(entry)
        for pattern, word in AVOIDED_WORDS.items() if re.search(pattern, text, re.IGNORECASE)
    ]
    assert not found, "\n".join(found)
    topping = {entry.msgctxt: entry.msgstr for entry in catalogue if entry.msgid == "pepper"}
    assert topping == {"mamma mia topping": "poivron", None: "poivron"}


def test_placeholders_are_kept_and_plurals_have_both_forms(catalogue):
    for entry in catalogue:
        wanted = set(PLACEHOLDER.findall(entry.msgid)) | set(PLACEHOLDER.findall(entry.msgid_plural or ""))
        for text in translations(entry):
            assert text, f"{entry.msgid!r} is untranslated"
            # A singular may name its count in words ("plus qu’une heure"); a translation never invents one.
            assert set(PLACEHOLDER.findall(text)) <= wanted, (entry.msgid, text)
            if not entry.msgid_plural:
                assert set(PLACEHOLDER.findall(text)) == wanted, (entry.msgid, text)
        if entry.msgid_plural:
            assert len(entry.msgstr_plural) == 2, entry.msgid
            if "python-format" in entry.flags:
                # French counts 0 and 1 as singular (plural=(n > 1)): the plural form keeps every placeholder.
                assert set(PLACEHOLDER.findall(entry.msgstr_plural[1])) == wanted, entry.msgid


def test_django_relative_times_glue_into_our_sentences():
    soon = timezone.now() + timedelta(days=1, hours=23, minutes=5)
    ago = timezone.now() - timedelta(hours=3, minutes=2)
    template = Template(
        "{% load i18n humanize %}{% blocktranslate with when=soon|naturaltime %}time runs out {{ when }}"
        "{% endblocktranslate %} | {% blocktranslate with when=ago|naturaltime %}It ended {{ when }}."
        "{% endblocktranslate %}"
    )
    with translation.override("fr"):
        text = template.render(Context({"soon": soon, "ago": ago}))
    assert text == f"le temps expire dans 1{NBSP}jour, 23{NBSP}heures | Elle s’est terminée il y a 3{NBSP}heures."


@pytest.mark.django_db
def test_pages_in_french_read_naturally(client):
    client.cookies["django_language"] = "fr"
    home = client.get("/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert f"mammamia{NBSP}: des jeux de cartes entre amis, un coup à la fois." in home
    assert "Ne manquez pas votre tour." in home

    mamma_mia = client.get(reverse("rules", args=["mamma-mia"]), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Poivron" in mamma_mia and not re.search(r"\bpiment", mamma_mia, re.IGNORECASE)
    assert f"par exemple «{NBSP}trois salami{NBSP}»" in mamma_mia and "par Uwe Rosenberg" in mamma_mia

    konamon = client.get(reverse("rules", args=["konamon"]), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "S’il y en a plus de 5, il choisit lesquels y vont" in konamon
    assert f"Pressé{NBSP}: Arrive à l’humeur 2 au lieu de 3." in konamon

    marumiere = client.get(reverse("rules", args=["marumiere"]), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert f"jusqu’à 15{NBSP}% plus grande" in marumiere
    for page in (mamma_mia, konamon, marumiere):
        prose = re.sub(r"<[^>]*>", "", page)  # card faces such as Minimale's "?" stand alone on their own line
        assert not re.search(r"\w [:;!?»%]|« ", prose), "an ordinary space where French wants a no-break one"
        assert not re.search(r"[^\W\d]:", prose), "a colon glued to a word (English punctuation)"


@pytest.mark.parametrize(("score", "text"), [(0, "0 point"), (1, "1 point"), (2, "2 points"), (-1, "-1 point"),
                                             (-10, "-10 points"), (2.5, "2,5 points")])
def test_french_scores_count_zero_and_one_as_singular_and_negative_scores_by_their_size(score, text):
    from games.ui.base import GameUI

    with translation.override("fr"):
        assert GameUI.score_text(None, score) == text


def test_an_option_on_the_game_page_is_glued_by_the_translated_colon():
    template = Template(
        "{% load i18n %}{% blocktranslate with text=value %}{{ name }}: {{ text }}{% endblocktranslate %}"
    )
    with translation.override("fr"):
        text = template.render(Context({"name": "Mémoire", "value": "Stricte"}))
    assert text == f"Mémoire{NBSP}: Stricte"


@pytest.mark.django_db
def test_the_game_page_in_french_names_its_options_with_french_colons(client, user_factory):
    from tests.games.game_helpers import start_game

    players = [user_factory(username="amelie"), user_factory(username="bastien")]
    players[0].language = "fr"
    players[0].save(update_fields=["language"])
    game = start_game("mamma-mia", players, options={"memory": "strict"})
    client.force_login(players[0])
    client.cookies["django_language"] = "fr"
    page = client.get(reverse("game", args=[game.pk]), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert f"Mémoire{NBSP}: Stricte{NBSP}: seulement ce que vous avez entendu depuis votre dernier tour" in page
