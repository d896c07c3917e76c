"""Template tags of the games platform: match history, opponents and "waiting on" summaries."""

from __future__ import annotations

import functools

from django import template
from django.contrib.humanize.templatetags.humanize import naturaltime, ordinal
from django.utils.html import format_html, format_html_join
from django.utils.translation import get_language, pgettext
from django.utils.translation import gettext as _

from games.engines import engine_slugs, get_engine
from games.history import selectors as history_selectors

register = template.Library()


@register.filter
def place(rank) -> str:
    """A finishing place in the reader's language: 1st, 1位, 第1名, 1er."""
    if rank in (None, ""):
        return ""
    return _place(get_language() or "en", str(rank))


@functools.lru_cache(maxsize=512)
def _place(language: str, rank: str) -> str:
    # Cached: humanize's ordinal looks up ten translations per call, for every row of a history page.
    if language.startswith("en"):
        return ordinal(rank)
    if rank == "1":
        return pgettext("finishing place", "first place")
    return pgettext("finishing place", "place %(rank)s") % {"rank": rank}


def _engine_name(slug: str) -> str:
    return get_engine(slug).name if slug in engine_slugs() else slug


@register.simple_tag
def opponents(seat) -> str:
    """The other players at ``seat``'s game (its seats prefetched), bots and drop-outs marked."""
    others = [s for s in seat.game.seats.all() if s.pk != seat.pk]
    if not others:
        return ""

    def label(s):
        if s.dropped_out:
            return _("%(name)s (dropped out)") % {"name": s.name}
        if s.is_bot:
            return _("%(name)s (bot)") % {"name": s.name}
        return s.name

    # The reader's list separator: "with alice, bob", 「阿華、bob」.
    return format_html("{} {}", _("with"), format_html_join(_(", "), "{}", ((label(s),) for s in others)))


@register.simple_tag
def awaited_summary(game) -> str:
    """On whom the game waits and since when (seats prefetched)."""
    awaited = [s for s in game.seats.all() if s.awaited]
    if not awaited:
        return ""
    since = min(s.awaited_since for s in awaited if s.awaited_since) if any(s.awaited_since for s in awaited) else None
    names = _(", ").join(s.name for s in awaited)
    if since is None:
        return _("waiting on %(names)s") % {"names": names}
    return _("waiting on %(names)s since %(since)s") % {"names": names, "since": naturaltime(since)}


@register.inclusion_tag("games/_match_history_table.html", takes_context=True)
def match_history(context, profile_user, page=1):
    """``{% match_history profile_user page %}``: finished games (paginated) and per-game stats.

    Three queries whatever the length of the history or the page shown: the stats are the
    counters ``PlayerStats`` keeps, the history a keyset page (``history_selectors.history_page``).
    """
    stats = history_selectors.game_stats(user=profile_user)
    for row in stats:
        row["name"] = _engine_name(row["engine_slug"])
    history = history_selectors.match_history(user=profile_user, page=page)
    return {
        "profile_user": profile_user,
        "stats": stats,
        "page": history,
        "request": context.get("request"),
    }


@register.simple_tag
def game_stylesheet(slug: str) -> str:
    """The URL of a game's own stylesheet (its folder's ``static/<label>/<label>.css``); "" for an unknown game."""
    from django.templatetags.static import static

    from games.registry import get_game

    try:
        return static(get_game(slug).stylesheet)
    except KeyError:
        return ""


@register.filter
def other_seats(seat) -> list:
    """The other seats of ``seat``'s game (prefetched): loop over these, not over every seat with the
    viewer's skipped, so that ``forloop.last`` is the last one shown (no trailing comma)."""
    return [s for s in seat.game.seats.all() if s.pk != seat.pk]


@register.filter
def plural_count(value) -> int:
    """A number for ``{% blocktranslate count %}``: whole numbers as ``int``, any other (a shared
    score such as 2.5, or a missing one) as 2, which every language here treats as plural; gettext's
    plural rules take integers only."""
    from games.ui.base import plural_count as count

    return count(value)


@register.simple_tag
def end_result(game, players, seat) -> dict:
    """For the end banner (issue 19): the winners (platform places: a resigned seat is last), the viewer's
    own place ("you placed 2nd of 4", shared or not) and score with its unit."""
    ranked = [p for p in players if p.get("rank")]
    winners = [p for p in ranked if p["rank"] == 1]
    mine = None
    if seat is not None and seat.final_rank:
        try:
            from games.registry import get_game

            score_text = get_game(game.engine_slug).ui.score_text(seat.final_score)
        except KeyError:
            score_text = ""
        mine = {
            "place": seat.final_rank,
            "shared": sum(1 for p in ranked if p["rank"] == seat.final_rank) > 1,
            "score_text": score_text,
        }
    return {"winners": winners, "winner_names": [p["name"] for p in winners], "mine": mine, "count": len(players)}
