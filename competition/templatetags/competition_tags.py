"""Ratings next to names where many games are listed (the lobby): one query for the whole list."""

from __future__ import annotations

from django import template

from competition.selectors import ratings_for_pairs

register = template.Library()


@register.simple_tag
def ratings_of_seats(*game_lists) -> dict:
    """``{"<user id>:<game slug>": Shown}`` for every seated player of the games in ``game_lists``
    (their seats prefetched): one query for the page."""
    pairs = [
        (seat.user_id, game.engine_slug)
        for games in game_lists
        for game in (games or [])
        for seat in game.seats.all()
    ]
    return {f"{u}:{slug}": shown for (u, slug), shown in ratings_for_pairs(pairs).items()}


@register.simple_tag
def seat_rating(ratings: dict, seat, game):
    """The shown rating of ``seat``'s player in ``game``, or ``None``."""
    if not ratings or seat.user_id is None:
        return None
    return ratings.get(f"{seat.user_id}:{game.engine_slug}")


@register.simple_tag
def profile_ratings(user) -> list:
    """``user``'s rating per game with its chart (the profile): a fixed number of queries."""
    from django.utils.translation import gettext as _

    from competition.chart import rating_chart
    from competition.selectors import player_ratings

    result = []
    for entry in player_ratings(user=user):
        title = _("Rating in %(game)s") % {"game": entry.engine_name}
        entry.chart = rating_chart([c.conservative for c in entry.history], title=title)
        result.append(entry)
    return result
