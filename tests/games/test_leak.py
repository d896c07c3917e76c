"""The leak test: every page, partial and API response for each seat (and a spectator) during random
games shows nothing hidden from that viewer.

Three layers, for each engine:
1. Hidden facts are derived from the FULL state minus what the viewer's own view holds (the engine
   tests prove views are need-to-know; this proves the pages only use views), and no response for
   that viewer may show them: Mamma Mia! recipes by id and by their card label, Konamon! action cards
   by number label, Marumiere faces (no face number drawn beyond those the view gives).
   The live-update events of the game (``live.publish``) carry ids, versions and the partial's token only.
2. Positive controls: the viewer's own hand does appear, so the token checks are not vacuous.
3. Isolation: with every OTHER seat's SeatView and the full GameState replaced by poison, the viewer's
   responses are byte-for-byte the same — rendering has no path to anyone else's cards. The whole log
   (log page, API) is derived from the state through the engine's view of the asking viewer alone: that
   one call still gets the real state, and it may be made for this viewer only.
4. Fair play (issue 30): while the game runs, the site's secret, the deal's seed and the salt of every sealed
   choice not yet revealed are in no response (a commitment to one of a handful of choices could otherwise be
   opened by trying them all); the commitments the viewer's log holds are on the check page (positive control).
5. Help on the table (issue 27): a hidden card's explanation (named after the card: help-recipe-<id>,
   help-action-<n>, help-face-<colour>-<n>) is on no page, and the help and "What can I do now?" are on the page,
   so every hunt above covers them; the isolation check proves they read the viewer's view alone.
6. Notes and chat (issue 17): a seat's private note is in no response for anyone else (pages, partial,
   API, My games); the table chat, which the platform adds nothing to, reaches every viewer.
"""

from __future__ import annotations

import json
import random
import re
import uuid
from html.parser import HTMLParser

import pytest
import time_machine
from django.core.cache import cache
from django.urls import reverse
from django.utils.html import escape
from game_helpers import SLUGS, play_people_to_the_end, start_game

from games import tables
from games.engines import get_engine as game_engine
from games.history import review as reviews
from games.models import GameLogChunk, GameReview, GameState, GameStatus, Move, Seat, SeatView
from games.play import services as play_services
from marumiere.engine import SIZE_DECIMALS
from together import services as together
from together.rules import notes_allowed

POISON = "LEAKED-BY-A-PAGE"


def walk(value):
    """Every (key, value) pair and scalar in a JSON value, recursively."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield key, item
            yield from walk(item)
    elif isinstance(value, list):
        for item in value:
            yield None, item
            yield from walk(item)


def strings_in(value) -> set[str]:
    return {v for _k, v in walk(value) if isinstance(v, str)} | ({value} if isinstance(value, str) else set())


# Hidden facts per engine: (hidden tokens, own tokens) for a viewer ------------------------------------


def mamma_mia_tokens(state, view, seat):
    from mamma_mia.ui import recipe_card

    recipe = re.compile(r"^(green|red|yellow|purple|brown)-[1-8]$")
    in_state = set()
    for other, hand in enumerate(state["hands"]):
        if other != seat:
            in_state |= set(hand["recipes"])
    for deck in state["decks"]:
        in_state |= set(deck)
    in_state |= {c for c in state.get("oven", []) if recipe.match(str(c))}
    known = {s for s in strings_in(view) if recipe.match(s)}
    hidden = in_state - known
    own = set(view["hand"]["recipes"]) if seat is not None and view.get("hand") else set()

    def tokens(ids):
        # Issue 27: a recipe's explanation on the table is named after it (help-recipe-<id>).
        return {escape(recipe_card(r)["label"]) for r in ids} | set(ids) | {f"help-recipe-{r}" for r in ids}

    return tokens(hidden), tokens(own)


def konamon_tokens(state, view, seat):
    from konamon.ui import action_card

    in_state = set(state["deck"])
    for other, hand in enumerate(state["hands"]):
        if other != seat:
            in_state |= set(hand)
    known = set()
    for key, value in walk(view):
        if key in {"cards", "card", "hand", "discard_pile", "played", "discard", "queue"}:
            known |= {v for _k, v in walk(value) if isinstance(v, int) and not isinstance(v, bool)}
            if isinstance(value, int) and not isinstance(value, bool):
                known.add(value)
    hidden = in_state - known
    own = set(view.get("hand") or [])

    def tokens(numbers):
        # Issue 27: an action card's explanation on the table is named after it (help-action-<n>).
        return {escape(str(action_card(n)["label"])) for n in numbers} | {f"help-action-{n}" for n in numbers}

    return tokens(hidden), tokens(own)


def marumiere_hidden_faces(state, view) -> set[str]:
    """The card ids (colour-number) in rows and piles whose face this viewer's view does not give: the help on
    the table explains a face (help-face-<id>) only where the view shows it (issue 27)."""
    dealt = {card for row in state.get("rows") or [] for card in row}
    dealt |= {card for pile in state.get("piles") or [] for card in (pile if isinstance(pile, list) else [])}
    seen = {
        f"{value['colour']}-{value['number']}"
        for _key, value in walk(view)
        if isinstance(value, dict) and "colour" in value and value.get("number") is not None
    }
    return dealt - seen


def marumiere_faces_shown(view) -> int:
    return sum(1 for row in view.get("rows", []) for card in row if "number" in card)


# Marumiere backs: a text meant for people states a size no more precisely than the view gives it -------

# The word before a back's size in each language's card label ("red heart, size 4.9").
SIZE_WORDS = ("size", "taille", "大きさ", "大小")
SIZE_PHRASE = re.compile(rf"(?:{'|'.join(SIZE_WORDS)})\s*(\d+(?:[.,]\d+)?)")
DECIMAL_NUMBER = re.compile(r"(?<![\w.,])\d+[.,](\d+)(?![\w.,])")


class PeoplesText(HTMLParser):
    """The text of a page meant for people: its text (SVG titles, i.e. tooltips, included) and the
    attributes read out or shown (aria-label, title, alt, placeholder); not scripts, styles or the
    drawing's coordinates."""

    READ_ATTRIBUTES = ("aria-label", "title", "alt", "placeholder")

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.skipping = 0

    def handle_starttag(self, tag, attrs) -> None:
        if tag in ("script", "style"):
            self.skipping += 1
        self.parts += [value for name, value in attrs if name in self.READ_ATTRIBUTES and value]

    def handle_endtag(self, tag) -> None:
        if tag in ("script", "style") and self.skipping:
            self.skipping -= 1

    def handle_data(self, data) -> None:
        if not self.skipping:
            self.parts.append(data)


def peoples_text(html: str) -> str:
    parser = PeoplesText()
    parser.feed(html)
    return "\n".join(parser.parts)


def view_sizes(view) -> set[str]:
    """Every back's size in a Marumiere view, as text: rows, pile tops, the trick."""
    sizes = [card["size"] for row in view.get("rows") or [] for card in row]
    sizes += [pile["top"]["size"] for pile in view.get("piles") or []]
    sizes += [card["size"] for card in view.get("trick") or [] if "size" in card]
    return {str(size) for size in sizes}


def overprecise_sizes(text: str, sizes: set[str], *, decimals: int) -> list[str]:
    """What in ``text`` states a size more precisely than the view: a size phrase whose number is not
    one of the view's ``sizes``, or any number with more ``decimals`` than the view's sizes have."""
    stated = [number for number in SIZE_PHRASE.findall(text) if number.replace(",", ".") not in sizes]
    return stated + [match[0] for match in DECIMAL_NUMBER.finditer(text) if len(match[1]) > decimals]


def decimals_of(sizes: set[str]) -> int:
    return max((len(size.partition(".")[2]) for size in sizes), default=0)


def test_the_size_check_catches_sizes_finer_than_the_view():
    sizes = {"4.9", "6.8"}
    assert decimals_of(sizes) == 1 and decimals_of({"6.75", "5.0"}) == 2
    assert overprecise_sizes("red heart, size 4.9 · 赤のハート、大きさ 6.8", sizes, decimals=1) == []
    label = '<svg aria-label="red heart, size 4.87"></svg>'
    assert overprecise_sizes(peoples_text(label), sizes, decimals=1) == ["4.87", "4.87"]
    assert overprecise_sizes(peoples_text("<title>cœur rouge, taille 6,81</title>"), sizes, decimals=1) == [
        "6,81",
        "6,81",
    ]
    assert overprecise_sizes("size 5.1", sizes, decimals=1) == ["5.1"], "a size the view does not give"
    drawing = '<path d="M0.1234,1.5678" transform="scale(0.123456)"/>'
    assert overprecise_sizes(peoples_text(drawing), sizes, decimals=1) == [], "coordinates are not text"


def check_marumiere_sizes(pages: dict[str, str], view, seat) -> None:
    sizes = view_sizes(view)
    for name in ("page", "partial", "log", "lobby"):
        found = overprecise_sizes(peoples_text(pages[name]), sizes, decimals=decimals_of(sizes))
        assert not found, (seat, name, found[:5])
    assert SIZE_PHRASE.search(peoples_text(pages["page"])), "no size stated on the page: the check is vacuous"


def check_marumiere_emails(messages) -> None:
    """E-mails show no view: they may state no size at all, nor any number finer than a view's sizes."""
    assert messages, "no e-mail was sent: the check is vacuous"
    for message in messages:
        texts = [message.subject, message.body] + [content for content, _type in getattr(message, "alternatives", [])]
        for text in texts:
            found = overprecise_sizes(peoples_text(text), set(), decimals=SIZE_DECIMALS)
            assert not found, (message.subject, found[:5])


# Issue 31: a back's "probably …" reading, in the three languages the test's players read, is exactly the range of
# numbers one of the view's sizes allows: a name never tells more than the view.
LIKELY_PHRASES = (
    re.compile(r"probably\s(\d+)(?:\sto\s(\d+))?"),
    re.compile(r"probablement\s(?:un\s|de\s)?(\d+)(?:\sà\s(\d+))?"),
    re.compile(r"おそらく\s?(\d+)(?:〜(\d+))?"),
)


def check_marumiere_readings(page: str, view, seat) -> None:
    from marumiere.engine import size_candidates

    allowed = {(c[0], c[-1]) for c in (size_candidates(float(size)) for size in view_sizes(view))}
    text = peoples_text(page)
    stated = [(int(low), int(high or low)) for phrase in LIKELY_PHRASES for low, high in phrase.findall(text)]
    assert stated, f"seat {seat}: no back read out as a range of numbers: the check is vacuous"
    wrong = [pair for pair in stated if pair not in allowed]
    assert not wrong, f"seat {seat}: ranges {wrong[:5]} are not what the view's sizes allow"


def check_accessible_names(game, slug, seat, pages) -> None:
    """Issue 31: the names of cards, piles and tricks and the sentences the keyboard commands read out (hand, table)
    are on the pages ``check_viewer`` hunted through, so its checks cover them; here, that they are there (not
    vacuous) and that Marumiere's "probably 7 to 9" is exactly what one of the view's sizes allows."""
    if slug not in ("mamma-mia", "konamon", "marumiere"):
        return
    page = pages["page"]
    assert 'data-reading="table"' in page, slug
    assert ('data-reading="hand"' in page) == (seat is not None), slug
    if slug == "marumiere":
        check_marumiere_readings(page, SeatView.objects.get(game=game, seat_number=seat).view, seat)


def hidden_number_tokens(state, view, seat):
    """The plug-in test game (tests/hidden_number/): the others' secret numbers, drawn as ``hn-number``."""
    own = {view["my_number"]} if view.get("my_number") is not None else set()
    hidden = {n for other, n in enumerate(state["secrets"]) if other != seat} if view.get("numbers") is None else set()

    def tokens(numbers):
        return {f'class="hn-number">{n}<' for n in numbers}

    return tokens(hidden - own), tokens(own)


TOKENS = {"mamma-mia": mamma_mia_tokens, "konamon": konamon_tokens, "hidden-number": hidden_number_tokens}
# The site's games and the test settings' plug-in game, whose hidden fact is each player's secret number.
LEAK_SLUGS = [*SLUGS, "hidden-number"]


# Rendering everything a viewer can get ------------------------------------------------------------


def normalise(text: str) -> str:
    text = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", text)
    text = re.sub(r'name="idempotency_key" value="[^"]+"', "", text)
    return re.sub(r'"csrfToken": "[^"]+"', "", text)


def responses_for(client, game, *, seated: bool = False, seat: int | None = None) -> dict[str, str]:
    since = max(0, game.version - 7)
    if seated and seat is not None:
        # Issue 32: the page's "since your last visit" (seen last a few moves ago) and the API's field.
        seat_id = Seat.objects.get(game=game, number=seat).pk
        play_services.mark_visited(seat_id=seat_id, version=since)
    urls = {
        "page": reverse("game", args=[game.pk]),
        "api-since": reverse("api-game", args=[game.pk]) + f"?since={since}",
        "api-since-start": reverse("api-game", args=[game.pk]) + "?since=0",
        "partial": reverse("game-table", args=[game.pk]) + "?v=stale",
        "log": reverse("game-log", args=[game.pk]),
        "api": reverse("api-game", args=[game.pk]),
        "api-log": reverse("api-game-log", args=[game.pk]),
        "lobby": reverse("lobby"),
        "chat": reverse("api-game-chat", args=[game.pk]),
        "my_games": reverse("my-games") if seated else reverse("lobby"),
        "fairness": reverse("game-fairness", args=[game.pk]),
        "api-fairness": reverse("api-game-fairness", args=[game.pk]),
    }
    if seated:
        urls["note"] = reverse("api-game-note", args=[game.pk])
    result = {}
    for name, url in urls.items():
        response = client.get(url)
        assert response.status_code == 200, (name, response.status_code)
        result[name] = response.content.decode()
    if seated and seat is not None and game.status == GameStatus.ACTIVE:
        # A move chosen on a page behind (issue 32): the answer shows what changed since, nothing applied.
        row = SeatView.objects.get(game=game, seat_number=seat)
        if row.legal_moves and row.moves_version > 0:
            post = {"move": json.dumps(row.legal_moves[0]), "version": 0, "idempotency_key": str(uuid.uuid4())}
            response = client.post(reverse("game-move", args=[game.pk]), post)
            assert response.status_code == 409, response.status_code
            result["stale"] = re.sub(r'name="idempotency_key" value="[^"]+"', "", response.content.decode())
    if game.status == GameStatus.ACTIVE:
        assert client.get(reverse("game-replay", args=[game.pk])).status_code == 404
        for name in ("api-game-replay", "api-game-reveal"):  # only after the end
            assert client.get(reverse(name, args=[game.pk])).status_code == 409
    return result


def note_marker(game, seat_number) -> str:
    return f"PRIVATE-NOTE-{game.pk}-{seat_number}"


def chat_marker(game) -> str:
    return f"TABLE-CHAT-{game.pk}"


def write_notes_and_chat(game):
    """Every seated player writes a private note (where the rules allow one); the first also chats."""
    for seat in Seat.objects.filter(game=game, is_bot=False).select_related("user").order_by("number"):
        if notes_allowed(engine_slug=game.engine_slug, options=game.options):
            together.save_note(user=seat.user, game_id=game.pk, text=note_marker(game, seat.number))
        if seat.number == 0 or not Seat.objects.filter(game=game, number=0, is_bot=False).exists():
            together.post_chat_message(user=seat.user, game_id=game.pk, text=chat_marker(game))
    # Read by all: the unread marker would otherwise differ between the first and the isolated rendering.
    latest = together.ChatMessage.objects.filter(game=game).latest("id").pk
    for seat in Seat.objects.filter(game=game, is_bot=False):
        together.mark_chat_read(seat=seat, upto=latest)


def viewers(game):
    seats = list(Seat.objects.filter(game=game, is_bot=False).select_related("user").order_by("number"))
    return [(seat.number, seat.user) for seat in seats] + [(None, None)]


def login(client, user):
    client.logout()
    if user is not None:
        client.force_login(user)


def unrevealed_salts(slug, state) -> set[str]:
    """The salts of the sealed choices made and not yet revealed (games.engines.sealing's labels)."""
    from games.engines.sealing import salt

    if not state.get("sealed"):
        return set()
    seed, round_ = state["seed"], state["round"]
    if slug == "konamon":
        return {salt(seed, f"konamon:{round_}:{s}") for s, choice in enumerate(state["chosen"]) if choice is not None}
    if slug == "marumiere":
        found = {salt(seed, f"marumiere-bid:{round_}:{s}:{p}") for s, p in enumerate(state["bids"]) if p is not None}
        return found | {salt(seed, f"marumiere-play:{round_}:{s}:{p}") for s, p in state["trick"]}
    return set()


def check_fair_play(game, slug, state, view, pages, everything) -> int:
    """Issue 30: no secret of the deal or of a sealed choice before its time; the viewer's commitments shown.
    Returns how many unrevealed salts there were (so the check is known not to be vacuous)."""
    row = GameState.objects.get(game=game)
    secrets_now = {row.seed, row.deal_seed} - {""}
    if game.status == GameStatus.ACTIVE:
        leaked = [secret for secret in secrets_now if secret in everything]
        assert not leaked, f"{slug}: the deal's secret or seed is shown while the game runs"
    salts = unrevealed_salts(slug, state)
    assert not [value for value in salts if value in everything], f"{slug}: a sealed choice's salt before its reveal"
    committed = [event["commitment"] for event in view["log"] if "commitment" in event]
    assert all(commitment in pages["fairness"] and commitment in pages["api-fairness"] for commitment in committed)
    return len(salts)


def check_viewer(client, game, slug, seat, user):
    state = tables.full_state(game)
    row = SeatView.objects.get(game=game, seat_number=seat)
    view = {**row.view, "log": game.engine.view(state, seat)["log"]}
    login(client, user)
    with time_machine.travel(game.started_at, tick=False):
        pages = responses_for(client, game, seated=user is not None, seat=seat)
    everything = "\n".join(pages.values())
    assert POISON not in everything
    if game.version > 0:  # the new outputs of issue 32 are there, so the checks below are not vacuous
        assert json.loads(pages["api-since-start"])["since"]["count"] > 0
        changed = json.loads(pages["api-since"])["since"]
        if user is not None and changed and changed["others_played"]:
            assert 'id="since"' in pages["page"]
    # Private notes (issue 17): only their author ever gets them; the table chat reaches every viewer.
    others_notes = [note_marker(game, n) for n in range(game.players) if n != seat]
    assert not [marker for marker in others_notes if marker in everything], f"seat {seat} sees another's note"
    if seat is not None and notes_allowed(engine_slug=game.engine_slug, options=game.options):
        assert note_marker(game, seat) in pages["page"] and note_marker(game, seat) in pages["note"]
    assert chat_marker(game) in pages["page"] and chat_marker(game) in pages["chat"]
    pages["_sealed_count"] = str(check_fair_play(game, slug, state, view, pages, everything))
    if slug in TOKENS:
        hidden, own = TOKENS[slug](state, view, seat)
        leaked = sorted(token for token in hidden if re.search(rf"(?<![\w-]){re.escape(token)}(?![\w-])", everything))
        assert not leaked, f"{slug} seat {seat} sees hidden cards: {leaked[:5]}"
        if own and seat is not None:
            assert any(token in pages["page"] for token in own), "own hand not rendered: token check is vacuous"
        pages["_hidden_count"] = str(len(hidden))
    elif slug == "marumiere":
        shown = marumiere_faces_shown(row.view)
        drawn = len(re.findall(r'class="mr-card__num"', pages["page"]))
        assert drawn <= shown, f"marumiere seat {seat}: {drawn} faces drawn, the view gives {shown}"
        check_marumiere_sizes(pages, row.view, seat)
        hidden_faces = marumiere_hidden_faces(state, view)
        leaked = sorted(face for face in hidden_faces if f'help-face-{face}"' in everything)
        assert not leaked, f"marumiere seat {seat}: the help explains hidden faces {leaked[:5]}"
        pages["_hidden_count"] = str(len(hidden_faces))
    # Issue 27: the help on the table and "What can I do now?" are on the page (so the hunts above cover them).
    assert "data-table-help" in pages["page"], f"{slug}: no help on the table"
    if user is not None and row.legal_moves and game.status == GameStatus.ACTIVE:
        assert 'class="what-now"' in pages["page"], f"{slug} seat {seat}: no 'What can I do now?'"
    return pages


def check_isolation(client, game, seat, user, pages_before, monkeypatch):
    """Poison every other seat's view and the full state (its log chunks too): this viewer's responses
    must not change."""
    others = list(
        SeatView.objects.filter(game=game).exclude(seat_number=seat)
        if seat is not None
        else SeatView.objects.filter(game=game, seat_number__isnull=False)
    )
    state_row = GameState.objects.get(game=game)
    saved_state, whole_state = state_row.state, tables.full_state(game)
    chunks = list(GameLogChunk.objects.filter(game=game).values_list("pk", "events"))
    saved = [(row.pk, row.view, row.log_tail, row.legal_moves) for row in others]
    poison = {"poison": POISON, "hand": POISON, "rows": POISON, "log": [{"type": POISON}]}
    SeatView.objects.filter(pk__in=[row.pk for row in others]).update(
        view=poison, log_tail=[{"type": POISON}], legal_moves=[{"type": POISON}]
    )
    GameState.objects.filter(pk=state_row.pk).update(state=poison)
    GameLogChunk.objects.filter(game=game).update(events=[{"type": POISON}])
    engine, asked_for = game.engine, []
    real_view = engine.view

    def view_of_the_real_state(state, viewer):
        asked_for.append(viewer)
        return real_view(whole_state if state.get("poison") == POISON else state, viewer)

    try:
        login(client, user)
        # Rendered afresh: the board cached before the poisoning would answer without reading anything.
        cache.clear()
        with time_machine.travel(game.started_at, tick=False), monkeypatch.context() as patch:
            patch.setattr(engine, "view", view_of_the_real_state)
            pages_after = responses_for(client, game, seated=user is not None, seat=seat)
    finally:
        GameState.objects.filter(pk=state_row.pk).update(state=saved_state)
        for pk, events in chunks:
            GameLogChunk.objects.filter(pk=pk).update(events=events)
        for pk, view, log_tail, legal in saved:
            SeatView.objects.filter(pk=pk).update(view=view, log_tail=log_tail, legal_moves=legal)
    assert asked_for, "the whole log is derived from the state: the check is vacuous"
    assert set(asked_for) == {seat}, f"seat {seat}'s responses computed the views of {sorted(set(asked_for), key=str)}"
    for name in pages_after:
        assert normalise(pages_after[name]) == normalise(pages_before[name]), f"{name} of seat {seat} changed"


def record_live_events(monkeypatch) -> list[tuple[str, str, dict]]:
    """Every live-update event published (live.publish), as it goes to Redis: the real publish still runs."""
    from live import publish

    published, real = [], publish.publish_now

    def publish_now(events):
        events = list(events)
        published.extend(events)
        real(events)

    monkeypatch.setattr(publish, "publish_now", publish_now)
    return published


def check_live_events(published, game) -> None:
    """Stream events say which game is at which version (and the partial's token), nothing of any view."""
    assert published, "the game's moves were announced"
    for group, name, data in published:
        assert name in ("game", "user") and group.split(".")[0] == name, (group, name)
        assert data["game"] == game.pk and isinstance(data["version"], int)
        assert set(data) <= {"game", "version", "token"}, data
        if "token" in data:
            assert re.fullmatch(r"\d+\.(open|active|finished|cancelled|abandoned)\.\d+\.\d+", data["token"]), data


@pytest.mark.django_db
@pytest.mark.parametrize("slug", LEAK_SLUGS)
@pytest.mark.parametrize("seed", [1, 2])
def test_no_page_shows_a_hidden_card(
    slug, seed, players, client, django_capture_on_commit_callbacks, monkeypatch, mailoutbox
):
    rng = random.Random(f"{slug}{seed}")
    options = {"memory": rng.choice(["strict", "open"])} if slug == "mamma-mia" else {}
    if slug == "marumiere":
        options = {"variant": rng.choice(["standard", "nobody", "self"])}
        # Pages, labels and e-mails in three languages: each states sizes in its own words.
        for user, language in zip(players[:3], ("en", "ja", "fr"), strict=True):
            user.language = language
            user.save(update_fields=["language"])
    if slug == "hidden-number":
        options = {"top": 100}
    published = record_live_events(monkeypatch)
    with django_capture_on_commit_callbacks(execute=True):
        game = start_game(slug, players[: min(3, game_engine(slug).max_players)], options=options)
    write_notes_and_chat(game)
    checkpoints = hidden_seen = sealed_seen = 0
    for step in range(4000):
        game.refresh_from_db()
        if game.status != GameStatus.ACTIVE:
            break
        # The deal comes from the game's own fresh seed, so a game may end early: check the first moves
        # for sure (steps 0, 2, 4), then at seeded random moments.
        if (step in (0, 2, 4) or step % rng.randint(5, 30) == 0) and checkpoints < 6:
            checkpoints += 1
            for seat, user in viewers(game):
                pages = check_viewer(client, game, slug, seat, user)
                check_accessible_names(game, slug, seat, pages)
                hidden_seen += int(pages.pop("_hidden_count", "1")) > 0
                sealed_seen += int(pages.pop("_sealed_count"))
                if checkpoints <= 2:
                    check_isolation(client, game, seat, user, pages, monkeypatch)
        awaited = Seat.objects.filter(game=game, awaited=True).select_related("user").order_by("?").first()
        legal = SeatView.objects.get(game=game, seat_number=awaited.number).legal_moves
        if slug == "hidden-number" and step < 6:
            # A lucky early guess would end the game before the checkpoints: miss on purpose at first.
            secret = tables.full_state(game)["secrets"][1 - awaited.number]
            legal = [move for move in legal if move["number"] != secret] or legal
        with django_capture_on_commit_callbacks(execute=True):
            play_services.check_play_move(
                user=awaited.user,
                game_id=game.pk,
                move=rng.choice(legal),
                expected_version=game.version,
                idempotency_key=uuid.uuid4(),
            )
    assert checkpoints >= 3
    assert hidden_seen, "no checkpoint had anything hidden: the token check was vacuous"
    if slug in ("konamon", "marumiere"):
        assert sealed_seen, "no checkpoint had a sealed choice awaiting its reveal: the salt check was vacuous"
    check_live_events(published, game)
    if slug == "marumiere":
        check_marumiere_emails(mailoutbox)
    # After the end everything may be seen; the pages still render for everyone.
    game.refresh_from_db()
    if game.status == GameStatus.FINISHED:
        for _seat, user in viewers(game):
            login(client, user)
            assert client.get(reverse("game", args=[game.pk])).status_code == 200
            assert client.get(reverse("game-replay", args=[game.pk])).status_code == 200
            assert json.loads(client.get(reverse("api-game", args=[game.pk])).content)["game"]["seed"]


@pytest.mark.django_db
def test_a_deleted_account_leaves_no_name_behind(players, client, django_capture_on_commit_callbacks):
    """Issue 29 item 1: after hank deletes his account, nothing anyone can fetch names him or carries his words:
    the pages, partials, logs and API of a game he played (his chat, his seat, the log's "hank took a seat"), the
    waiting room of a game he joined and left, the other players' exports and profiles, the invitation search,
    and the e-mails already queued for the others (his call-off proposal's news)."""
    from games.lobby import services as lobby
    from games.models import GameEvent
    from notifications.models import OutboxEmail
    from reach.models import Delivery
    from tests.competition.competition_helpers import play_randomly_to_the_end
    from together.models import ChatMessage
    from trust.account import delete_account

    hank, bob, carol = players[:3]
    hank.display_name = "Hank Zephyrine"
    hank.save(update_fields=["display_name"])
    words = "HANK-TYPED-THESE-WORDS"
    left = lobby.create_game(user=bob, engine_slug="konamon", players=4)
    lobby.join_game(user=hank, game_id=left.pk)
    lobby.leave_game(user=hank, game_id=left.pk)
    finished = play_randomly_to_the_end(start_game("marumiere", [hank, bob]), random.Random(3))
    game = start_game("konamon", [bob, hank, carol], time_limit_hours=24)
    together.post_chat_message(user=hank, game_id=game.pk, text=words)
    together.post_chat_message(user=bob, game_id=game.pk, text="bob answers")
    together.propose_call_off(user=hank, game_id=game.pk)
    traces = ["Hank Zephyrine", hank.username, words]
    assert OutboxEmail.objects.filter(user=bob, status="pending", payload__name="Hank Zephyrine").exists()

    with django_capture_on_commit_callbacks(execute=True):
        delete_account(user=hank)

    def named(text: str) -> list[str]:
        return [trace for trace in traces if trace in text]

    for model, fields in ((ChatMessage, ["author_name", "text"]), (GameEvent, ["name"])):
        assert not named(json.dumps(list(model.objects.values(*fields)))), model
    for model in (OutboxEmail, Delivery):
        assert not named(json.dumps(list(model.objects.filter(status="pending").values_list("payload", flat=True))))
    for viewer in (bob, carol, None):
        login(client, viewer)
        pages = responses_for(client, game, seated=viewer is not None)
        for url in (
            reverse("game", args=[left.pk]),
            reverse("game", args=[finished.pk]),
            reverse("game-replay", args=[finished.pk]),
            reverse("api-game", args=[finished.pk]),
            reverse("api-game-log", args=[finished.pk]),
            reverse("profile", args=[bob.username]),
            reverse("api-user-history", args=[bob.username]),
        ):
            response = client.get(url)
            assert response.status_code == 200, url
            pages[url] = response.content.decode()
        if viewer is bob:
            pages["export"] = client.get(reverse("account-data-export")).content.decode()
            pages["search"] = client.get(
                reverse("api-game-invite-suggestions", args=[left.pk]), {"q": "Hank"}
            ).content.decode()
        leaks = {name: named(text) for name, text in pages.items() if named(text)}
        assert not leaks, (viewer, leaks)
        assert "bob answers" in pages["chat"]  # the others' words stay
        assert "Deleted with its author's account." in pages["page"]
def test_the_seed_stays_secret_through_a_call_off_proposal_and_shows_once_the_game_is_called_off(client, players):
    """Issue 35: a called-off game reveals its seed as a finished one does — never before it is over."""
    game = start_game("konamon", players[:2])
    seed = GameState.objects.get(game=game).seed
    together.propose_call_off(user=players[0], game_id=game.pk)
    for _seat, user in viewers(game):
        login(client, user)
        pages = responses_for(client, game, seated=user is not None)
        assert not [name for name, text in pages.items() if seed in text], "the seed shows while the game goes on"
    together.answer_call_off(user=players[1], game_id=game.pk, accept=True)
    game.refresh_from_db()
    assert game.status == GameStatus.ABANDONED
    for _seat, user in viewers(game):
        login(client, user)
        assert seed in client.get(reverse("game", args=[game.pk])).content.decode()
        assert json.loads(client.get(reverse("api-game", args=[game.pk])).content)["game"]["seed"] == seed


# Guided first games (issue 27) ------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("slug", LEAK_SLUGS)
def test_no_tutorial_step_shows_a_hidden_card_and_its_box_reads_the_players_view_alone(client, slug, monkeypatch):
    """Every step of a tutorial (the game page with its step box, the live partial, a refused move) shows the
    player nothing hidden from their seat; and with every other seat's view and the full state poisoned, the
    step box is the same to the byte: its texts and the move it names come from the player's own view."""
    from games.tutorial.services import SESSION_GAMES
    from tests.games.test_tutorial import box_of, play_through

    checked = []

    def check(game, pages):
        seat = Seat.objects.get(game=game, is_bot=False).number
        state = tables.full_state(game)
        row = SeatView.objects.get(game=game, seat_number=seat)
        view = {**row.view, "log": game.engine.view(state, seat)["log"]}
        everything = "\n".join(pages.values())
        if slug in TOKENS:
            hidden, _own = TOKENS[slug](state, view, seat)
            leaked = sorted(t for t in hidden if re.search(rf"(?<![\w-]){re.escape(t)}(?![\w-])", everything))
            assert not leaked, f"{slug} tutorial step shows hidden cards: {leaked[:5]}"
        else:
            shown = marumiere_faces_shown(row.view)
            for html in pages.values():
                assert len(re.findall(r'class="mr-card__num"', html)) <= shown
        if "page" in pages:
            assert game.pk in client.session[SESSION_GAMES]
            before = box_of(normalise(pages["page"]))
            with monkeypatch.context() as poisoned:
                others = SeatView.objects.filter(game=game).exclude(seat_number=seat)
                saved = list(others.values_list("pk", "view", "legal_moves"))
                others.update(view={"poison": POISON}, legal_moves=[{"poison": POISON}])
                poisoned.setattr(tables, "full_state", lambda *a, **k: {"poison": POISON})
                after = box_of(normalise(client.get(reverse("game", args=[game.pk])).content.decode()))
                for pk, view_, legal in saved:
                    SeatView.objects.filter(pk=pk).update(view=view_, legal_moves=legal)
            assert after == before
        checked.append(game.version)

    play_through(client, slug, on_page=check)
    assert len(checked) >= 3


# Reviews after the end (issue 28) -------------------------------------------------------------------------------


def _reviews_on(settings) -> None:
    settings.GAME_REVIEWS = True
    settings.GAME_REVIEW_ITERATIONS = 6
    settings.GAME_REVIEW_DECISIONS = 4




@pytest.mark.django_db
def test_a_review_is_made_from_the_seats_view_at_the_time_only(players, settings, monkeypatch,
                                                              django_capture_on_commit_callbacks):
    """The search gets the view of the seat whose decision it is, as it was before that move — nothing else
    of the game (games.engines.review takes no state; its search is the one that cannot peek)."""
    _reviews_on(settings)
    game = start_game("hidden-number", players[:2], options={"top": 20})
    seen = []
    real = reviews.review_decision

    def recording(engine, view, seat, played, seed, budget):
        seen.append((seat, view, played))
        return real(engine, view, seat, played, seed, budget)

    monkeypatch.setattr(reviews, "review_decision", recording)
    game = play_people_to_the_end(game, django_capture_on_commit_callbacks)
    from games.history.services import replay_states

    before = {}
    previous = None
    for move, state in replay_states(game):
        if move is not None:
            before[move.sequence] = previous
        previous = state
    moves = {m.sequence: m for m in Move.objects.filter(game=game)}
    assert seen
    for seat, view, played in seen:
        sequence = next(s for s, m in moves.items() if m.seat_number == seat and m.move == played
                        and game.engine.view(before[s], seat) == view)
        assert game.engine.view(before[sequence], seat) == view
        assert view["numbers"] is None and view["my_number"] == before[sequence]["secrets"][seat]


@pytest.mark.django_db
def test_only_the_seats_player_sees_its_review_on_the_page_and_the_api(
    players, client, user_factory, settings, django_capture_on_commit_callbacks
):
    _reviews_on(settings)
    reviewed = play_people_to_the_end(start_game("hidden-number", players[:2], options={"top": 20}),
                              django_capture_on_commit_callbacks)
    mine = GameReview.objects.get(game=reviewed, seat_number=Seat.objects.get(game=reviewed, user=players[0]).number)
    client.force_login(players[0])
    end_screen = client.get(reverse("game", args=[reviewed.pk])).content.decode()
    assert reverse("game-review", args=[reviewed.pk]) in end_screen and "Review your game" in end_screen
    page = client.get(reverse("game-review", args=[reviewed.pk])).content.decode()
    assert page.count('class="review-row') == len(mine.entries)
    api = client.get(reverse("api-game-review", args=[reviewed.pk])).json()
    assert api["status"] == "ready" and [e["sequence"] for e in api["entries"]] == [
        e["sequence"] for e in mine.entries
    ]
    # The replay marks my decision at its step.
    first = mine.entries[0]
    replay = client.get(reverse("game-replay", args=[reviewed.pk]), {"step": first["sequence"]}).content.decode()
    assert f'data-review-mark="{first["mark"]}"' in replay
    # Someone else (a spectator of this public game) gets no review at all.
    stranger = user_factory(username="stranger")
    client.force_login(stranger)
    assert client.get(reverse("game-review", args=[reviewed.pk])).status_code == 404
    assert client.get(reverse("api-game-review", args=[reviewed.pk])).status_code == 404
    replay = client.get(reverse("game-replay", args=[reviewed.pk]), {"step": first["sequence"]}).content.decode()
    assert "data-review-mark" not in replay


# A game the site seated, waiting for its deal (issue 30) ------------------------------------------------


@pytest.mark.django_db
def test_a_game_waiting_for_its_deal_shows_the_bits_sent_and_nothing_of_the_secret(client, players):
    """While a seated game (a league's) waits for its players' bits, what may be shown is decided thus: each
    contribution to everyone as soon as it is sent (it steers nothing without the secret, and seeing it early lets a
    player check theirs is the one used), the deadline, who has sent theirs; never the site's secret, nor the bits
    it would draw for a seat at the deadline (derived from the secret), nor a seed. Every response, every viewer."""
    import datetime as dt
    import secrets as random_bits

    from django.utils import timezone

    from games import fairness
    from games.lobby import services as lobby

    due = timezone.now() + dt.timedelta(hours=48)
    game = lobby.create_game(user=players[0], engine_slug="konamon", players=3, contributions_due_at=due)
    for user in players[1:3]:
        lobby.join_game(user=user, game_id=game.pk)
    sent = random_bits.token_hex(16)
    lobby.contribute(user=players[1], game_id=game.pk, contribution=sent)
    game.refresh_from_db()
    assert game.status == GameStatus.OPEN
    secret = GameState.objects.get(game=game).seed
    secrets_of_the_site = {secret, *(fairness.site_contribution(secret, position) for position in (0, 2))}
    urls = {
        "page": reverse("game", args=[game.pk]),
        "partial": reverse("game-table", args=[game.pk]) + "?v=stale",
        "check": reverse("game-fairness", args=[game.pk]),
        "api": reverse("api-game", args=[game.pk]),
        "api-fairness": reverse("api-game-fairness", args=[game.pk]),
        "lobby": reverse("lobby"),
    }
    for user in [*players[:3], None]:
        login(client, user)
        pages = {name: client.get(url) for name, url in urls.items()}
        if user is not None:
            pages["my-games"], pages["api-games"] = client.get(reverse("my-games")), client.get(reverse("api-games"))
        assert all(response.status_code == 200 for response in pages.values()), {
            name: response.status_code for name, response in pages.items()
        }
        texts = {name: response.content.decode() for name, response in pages.items()}
        leaked = {name for name, text in texts.items() if any(value in text for value in secrets_of_the_site)}
        assert not leaked, f"{user}: the site's secret or its would-be bits in {leaked}"
        assert sent in texts["check"] and sent in texts["api-fairness"], "the bits sent are public (positive control)"
        fair = json.loads(texts["api-fairness"])
        assert fair["secret"] is None and fair["seed"] is None and fair["contributions_due_at"]
        assert [entry["drawn_by"] for entry in fair["contributions"]] == ["none", "player", "none"]
