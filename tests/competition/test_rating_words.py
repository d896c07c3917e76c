"""Issue 35, item 9: the leaderboard says what a rating means to a player ("the skill your results show with
near certainty", how it moves), in every language, instead of explaining itself as "μ − 3σ"."""

from __future__ import annotations

import datetime as dt

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import timezone

from competition.models import Rating

pytestmark = pytest.mark.django_db

MEANING = {
    "en": "A rating is the skill the results so far show with near certainty.",
    "ja": "レーティングは、これまでの結果からほぼ確実と言える実力です。",
    "zh-hant": "積分是目前的戰績幾乎可以確定的實力。",
    "fr": "La cote est le niveau que les résultats montrent déjà de façon quasi certaine.",
}


@pytest.mark.parametrize("language", [code for code, _name in settings.LANGUAGES])
def test_the_leaderboard_says_what_a_rating_means_not_mu_minus_three_sigma(user_factory, client, language):
    player = user_factory(username="rated")
    Rating.objects.create(user=player, engine_slug="konamon", mu=27, sigma=3, conservative=18, games=4,
                          last_game_at=timezone.now() - dt.timedelta(days=1))
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    html = client.get(reverse("competition:leaderboard", args=["konamon"])).content.decode()
    assert f'<html lang="{language}"' in html
    main = html.split("<main", 1)[1]
    assert "μ" not in main and "σ" not in main
    assert MEANING[language] in main
