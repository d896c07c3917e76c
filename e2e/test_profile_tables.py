"""Issue 19, point 8: a profile's results by game and match history as two aligned tables — the game column
lines up in both, numbers right-aligned in tabular figures — photographed on a phone (360×740, where each row
is a card, with no sideways scrolling of the page) and a desktop, light and dark, with axe's contrast check;
the phone also in Japanese and French. Screenshots in e2e-artifacts/screens/<test>/profile-*.png.

The history is written straight into the database (the services' own counters): playing 24 games through the
pages is the game tests' work, not this one's."""

from __future__ import annotations

from playwright.sync_api import expect

SEED = r"""
import datetime as dt, hashlib, random, sys
import django
django.setup()
from django.utils import timezone
from accounts.models import User
from competition.models import Rating
from games.models import Game, Seat
from games.play import services

owner = User.objects.get(username=sys.argv[1])
others = []
for n, name in enumerate(["Bob", "千代", "Amélie"]):
    user, _ = User.objects.get_or_create(username=f"{owner.username}-{n}",
                                         defaults={"email": f"{owner.username}-{n}@e2e.example", "display_name": name})
    others.append(user)
rng = random.Random(19)
now = timezone.now()
for index in range(24):
    slug = ["konamon", "mamma-mia", "marumiere"][index % 3]
    people = [owner, *rng.sample(others, rng.choice([1, 2]))] + [None] * rng.choice([0, 0, 1])
    scores = [rng.randint(0, 14) for _ in people]
    if index == 4:
        scores[1] = scores[0]  # a shared first place
    order = sorted(range(len(people)), key=lambda n: -scores[n])
    ranks = [1 + sorted(scores, reverse=True).index(scores[n]) for n in range(len(people))]
    status = "abandoned" if index == 7 else "finished"
    when = now - dt.timedelta(hours=9 * index + 1)
    game = Game.objects.create(
        engine_slug=slug, players=len(people), status=status, created_by=owner,
        seed_sha256=hashlib.sha256(f"{owner.pk}-{index}".encode()).hexdigest(), revealed_seed=str(index),
        started_at=when - dt.timedelta(days=1), finished_at=when,
        outcome=None if status == "abandoned" else [
            {"seat": n, "rank": ranks[n], "score": scores[n]} for n in range(len(people))],
    )
    seats = [
        Seat.objects.create(
            game=game, number=n, join_order=n, user=person, is_bot=person is None,
            final_rank=None if status == "abandoned" else ranks[n],
            final_score=None if status == "abandoned" else scores[n], finished_at=when,
            resigned_at=when if (index == 10 and n == 0) else None, dropped_out=index == 13 and n == 0,
        )
        for n, person in enumerate(people)
    ]
    if status == "finished":
        services.record_finished_seats(engine_slug=slug, seats=seats)
Rating.objects.update_or_create(user=owner, engine_slug="konamon",
                                defaults={"mu": 25.4, "sigma": 2.9, "conservative": 16.7, "games": 8,
                                          "last_game_at": now})
Rating.objects.update_or_create(user=owner, engine_slug="marumiere",
                                defaults={"mu": 27.0, "sigma": 1.6, "conservative": 22.2, "games": 12,
                                          "last_game_at": now})
print("seeded")
"""


def seed_history(stack, username: str) -> None:
    assert stack.run_script(SEED, username, timeout=300) == "seeded"


def box(page, selector: str) -> dict:
    return page.locator(selector).first.bounding_box()


def test_profile_match_history_and_results_are_two_aligned_tables(player_factory, contexts, checker, stack):
    owner = player_factory("tables", "desktop")
    seed_history(stack, owner.username)
    _, phone = contexts("phone", "visitor-phone")
    url = f"/u/{owner.username}/"
    for viewport, page in (("desktop", owner.page), ("phone", phone)):
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            page.goto(url)
            expect(page.locator("table.stats tbody tr")).to_have_count(3)
            expect(page.locator("table.history tbody tr")).to_have_count(20)  # a page; the rest behind "Older"
            expect(page.locator("nav.pager a[rel=next]")).to_be_visible()
            # Numbers right-aligned in tabular figures, in both tables.
            for cell in (page.locator("table.stats td.num").first, page.locator("table.history td.num").first):
                style = cell.evaluate("c => [getComputedStyle(c).textAlign, getComputedStyle(c).fontVariantNumeric]")
                assert style[0] == "right" and "tabular-nums" in style[1], style
            if viewport == "desktop":
                # Real tables with a visible header row; the game column equally wide in both.
                expect(page.locator("table.stats thead")).to_be_visible()
                stats, history = box(page, "table.stats thead th"), box(page, "table.history thead th")
                assert abs(stats["x"] - history["x"]) < 1 and abs(stats["width"] - history["width"]) < 2, (
                    stats, history)
            else:
                # Cards: in every row of the history, the values end on the same right edge.
                edges = page.locator("table.history tbody tr:nth-child(-n+6) td.num").evaluate_all(
                    "cells => cells.map(c => { const r = document.createRange(); r.selectNodeContents(c);"
                    " const rects = r.getClientRects(); return Math.round(rects[rects.length - 1].right); })")
                assert len(set(edges)) == 1, edges
            where = f"profile tables {viewport} {scheme}"
            checker.page(page, where, axe=True, axe_key=f"profile-{viewport}-{scheme}")
            page.screenshot(path=str(checker.shots / f"profile-{viewport}-{scheme}.png"), full_page=True)
            page.locator("table.stats").screenshot(path=str(checker.shots / f"profile-{viewport}-{scheme}-stats.png"))
            if viewport == "phone":  # what a phone shows at the top of the match history, as the reader sees it
                page.locator("table.history caption").evaluate("c => c.scrollIntoView()")
                page.screenshot(path=str(checker.shots / f"profile-phone-{scheme}-history.png"))
    # The phone in Japanese and French (the longest labels), light.
    phone.emulate_media(color_scheme="light")
    for language in ("ja", "fr"):
        phone.context.add_cookies([{"name": "django_language", "value": language, "url": stack.base_url}])
        phone.goto(url)
        expect(phone.locator("html")).to_have_attribute("lang", language)
        checker.page(phone, f"profile tables phone {language}", axe=True, axe_key=f"profile-phone-{language}")
        phone.screenshot(path=str(checker.shots / f"profile-phone-light-{language}.png"), full_page=True)
        phone.locator("table.stats").evaluate("c => c.scrollIntoView()")
        phone.screenshot(path=str(checker.shots / f"profile-phone-light-{language}-stats.png"))
        phone.locator("table.history caption").evaluate("c => c.scrollIntoView()")
        phone.screenshot(path=str(checker.shots / f"profile-phone-light-{language}-history.png"))
