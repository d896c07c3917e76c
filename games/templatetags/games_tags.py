"""Template tags of the games platform: match history, opponents and "waiting on" summaries."""

from __future__ import annotations

import datetime as dt
import functools
import re

from django import template
from django.contrib.humanize.templatetags.humanize import naturaltime as humanize_naturaltime
from django.contrib.humanize.templatetags.humanize import ordinal
from django.template.defaultfilters import floatformat
from django.utils import formats, timezone
from django.utils.html import conditional_escape, format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, pgettext
from django.utils.translation import gettext as _

from clocks.controls import duration_text
from games import policies
from games.history import selectors as history_selectors
from games.models import GameStatus
from games.registry import game_title, tutorial_of
from games.ui.names import and_list

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
    return game_title(slug)


@register.filter
def has_tutorial(slug: str) -> bool:
    """Whether the game ``slug`` brings a guided first game (issue 27)."""
    return tutorial_of(slug) is not None


@register.filter(name="game_title")
def game_title_filter(slug: str) -> str:
    """``{{ engine.slug|game_title }}``: the game's name in the reader's language."""
    return game_title(slug)


@register.simple_tag
def opponents(seat) -> str:
    """The other players at ``seat``'s game (its seats prefetched), bots and drop-outs marked."""
    others = [s for s in seat.game.seats.all() if s.pk != seat.pk]
    if not others:
        return ""

    return format_html("{} {}", _("with"), format_html_join(_(", "), "{}", ((s.listed_name,) for s in others)))


@register.filter
def naturaltime(value) -> str:
    """humanize's ``naturaltime`` with its two parts joined as the site joins a duration's (issue 19): Django
    joins them with the list separator, 「1日、23時間後」; the reader's language writes 「1日23時間後」,
    « dans 1 jour et 23 heures ». Loaded after ``humanize``, this filter replaces it."""
    text = humanize_naturaltime(value)
    if not isinstance(text, str):
        return text
    parts = text.split(_(", "))
    if len(parts) != 2:
        return text
    return pgettext("two parts of a duration", "%(larger)s %(smaller)s") % {"larger": parts[0], "smaller": parts[1]}


@register.simple_tag
def label_parts(name) -> tuple[str, str]:
    """``{% label_parts name as label %}{{ label.0 }}…{{ label.1 }}``: the translated "%(name)s: %(text)s"
    around markup that cannot go through ``blocktranslate`` (an include, a link): 「名前：…」, « nom : … »,
    never a hard-coded English colon (issue 19). Both parts are escaped HTML."""
    marker = "\x00"
    text = _("%(name)s: %(text)s") % {"name": conditional_escape(name), "text": marker}
    before, _sep, after = text.partition(marker)
    return mark_safe(before), mark_safe(after)  # noqa: S308 - the name is escaped, the rest is our catalogue's


@register.filter(name="and_list")
def and_list_filter(items) -> str:
    """``{{ names|and_list }}``: "A and B", "A, B and C" in the reader's language (issue 19)."""
    return and_list(items or [])


@register.simple_tag
def awaited_summary(game) -> str:
    """On whom the game waits and since when (seats prefetched)."""
    awaited = [s for s in game.seats.all() if s.awaited]
    if not awaited:
        return ""
    since = min(s.awaited_since for s in awaited if s.awaited_since) if any(s.awaited_since for s in awaited) else None
    names = and_list(s.name for s in awaited)  # "alice and bob", 「aliceとbob」
    waited = timezone.now() - since if since is not None else None
    if waited is None or waited < dt.timedelta(minutes=1):
        return _("waiting on %(names)s") % {"names": names}
    # A length of time, not a relative one: "for 5 hours" ("since 5 hours ago" was not English, issue 19).
    return _("waiting on %(names)s for %(duration)s") % {"names": names, "duration": duration_text(waited)}


@register.inclusion_tag("games/_match_history_table.html", takes_context=True)
def match_history(context, profile_user, page=1):
    """``{% match_history profile_user page %}``: per-game statistics and the finished games (paginated), two
    tables whose cells are ready to show (issue 19: units, places "2nd of 3", outcomes, ratings).

    Four queries whatever the length of the history or the page shown: the stats are the counters
    ``PlayerStats`` keeps, their ratings one query, the history a keyset page (``history_selectors.history_page``).
    """
    stats = history_selectors.game_stats(user=profile_user)
    for row in stats:
        row["rating"] = None
    policies.add_stats_extras(user=profile_user, rows=stats)  # each game's rating (competition)
    for row in stats:
        row["name"] = _engine_name(row["engine_slug"])
        average = row["average_score"]
        # Passed as the reader writes it ("7.5", "7,5"): score_text keeps a string as it is, plural for a fraction.
        row["average_score_text"] = "" if average is None else _score_text(row["engine_slug"], floatformat(average, -1))
    history = history_selectors.match_history(user=profile_user, page=page)
    return {
        "profile_user": profile_user,
        "stats": stats,
        "page": history,
        "rows": [_history_row(seat) for seat in history.object_list],
        "request": context.get("request"),
    }


@register.simple_tag(name="score_text")
def score_text_tag(slug: str, score) -> str:
    """``{% score_text slug score %}``: the score in its game's unit, as the end screen says it ("4 recipes baked")."""
    return _score_text(slug, score)


_DOUBLE_STOP = re.compile(r"([.!?…])\.(?=\s|$)")


@register.filter(is_safe=True)
def one_stop(sentence) -> str:
    """A sentence whose last word brings its own stop keeps only that one: "a game of Mamma Mia!", not
    "Mamma Mia!." (a game's name may end in "!"; the translated sentence adds its own full stop)."""
    return _DOUBLE_STOP.sub(r"\1", str(sentence))


def _score_text(slug: str, score) -> str:
    """A score with its game's unit ("12 points", "5 recipes baked"); the bare number for an unknown game."""
    from games.registry import get_game

    try:
        return get_game(slug).ui.score_text(score)
    except KeyError:
        return str(score)


def _history_row(seat) -> dict:
    """One finished game of the match history, from the profile owner's seat (the game and its seats prefetched):
    the other players in seat order, the place among how many, the score with its unit, and the outcome."""
    game = seat.game
    seats = list(game.seats.all())
    called_off = game.status == GameStatus.ABANDONED
    if called_off:
        outcome, kind = _("called off"), "neutral"
    elif seat.dropped_out:
        outcome, kind = _("dropped out"), "out"
    elif seat.resigned_at:
        outcome, kind = _("resigned"), "out"
    elif seat.final_rank == 1:
        shared = any(s.final_rank == 1 for s in seats if s.pk != seat.pk)
        outcome, kind = (pgettext("match outcome", "shared win") if shared else pgettext("match outcome", "won")), "won"
    else:
        outcome, kind = pgettext("match outcome", "lost"), "lost"
    place_text = score_text = ""
    if not called_off and seat.final_rank:
        place_text = pgettext("match history", "%(place)s of %(count)s") % {
            "place": place(seat.final_rank), "count": len(seats),
        }
    if not called_off and seat.final_score is not None:
        score_text = _score_text(game.engine_slug, seat.final_score)
    return {
        "seat": seat,
        "game": game,
        "others": [s for s in seats if s.pk != seat.pk],
        "place_text": place_text,
        "score_text": score_text,
        "outcome": outcome,
        "outcome_kind": kind,
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


@register.simple_tag(takes_context=True)
def panels(context, place: str):
    """``{% panels "main" %}``: the registered panels (``games.panels``) shown at this place of the page."""
    from games import panels as registry

    return registry.render(context, (context.get("panels") or {}).get(place) or [])


@register.simple_tag
def log_lines(lines) -> str:
    """The log's lines (issue 19) as ``<ol class="log-lines">``: each with its time in the reader's time zone (with
    the date on a new day), round breaks, lines for hidden plays and the seal of a secret choice. Written here rather
    than as a template: a page's 20 lines cost ~5 ms of Django template nodes, ~0.5 ms this way (issue 33); the
    HTML is the template's, byte for byte (tests/games/test_log_lines_html.py)."""
    # As {% translate "literal" %} gives them: a literal's translation is not escaped.
    seal_title = _(
        "Sealed: the SHA-256 of this secret choice with a random salt. The salt is shown at the reveal, so anyone "
        "can check nothing was changed."
    )
    sealed = _("sealed")
    items = []
    for line in lines:
        classes = "log-line"
        if line.get("platform"):
            classes += " log-platform"
        if line.get("round_break"):
            classes += " log-round"
        if line.get("hidden"):
            classes += " log-hidden"
        at, when = line.get("at"), ""
        if at:
            local = timezone.template_localtime(at)
            day = ""
            if line.get("new_day"):
                day = f"{conditional_escape(formats.date_format(local, 'SHORT_DATE_FORMAT'))} "
            when = (f'<time class="log-time" datetime="{conditional_escape(formats.date_format(local, "c"))}">{day}'
                    f"{conditional_escape(formats.time_format(local, 'TIME_FORMAT'))}</time> ")
        text = line.get("text")
        text = conditional_escape(text if isinstance(text, str) else str(text))
        seal = ""
        if commitment := line.get("commitment"):
            seal = (f' <span class="log-seal" title="{seal_title}">{sealed} <code>{conditional_escape(commitment[:12])}'
                    "…</code></span>\n")
        items.append(f'<li class="{classes}">{when}<span class="log-text">{text}</span>{seal}</li>')
    return mark_safe(f'<ol class="log-lines">{"".join(items)}</ol>\n')  # noqa: S308 - every value escaped above
