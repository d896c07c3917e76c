"""The log's lines are written by a template tag in Python (issue 33: a page's 20 lines cost ~5 ms of template
nodes): the HTML is the former template's, byte for byte, in every language and time zone, escapes included."""

from __future__ import annotations

import datetime as dt

import pytest
from django.template import Context, Engine, Template
from django.utils import timezone, translation
from django.utils.safestring import mark_safe

from games.templatetags.games_tags import log_lines

# The templates games/_log_lines.html and games/_log_seal.html as they were before the tag.
FORMER_LINES = (
    "{% load i18n %}{% comment %}Log lines (issue 19): each with its time in the reader's time "
    'zone (with the date on a new day), round breaks, lines for hidden plays. Needs: lines.{% e'
    'ndcomment %}<ol class="log-lines">{% for line in lines %}<li class="log-line{% if line.pla'
    'tform %} log-platform{% endif %}{% if line.round_break %} log-round{% endif %}{% if line.h'
    'idden %} log-hidden{% endif %}">{% if line.at %}<time class="log-time" datetime="{{ line.a'
    't|date:\'c\' }}">{% if line.new_day %}{{ line.at|date:"SHORT_DATE_FORMAT" }} {% endif %}{{ l'
    'ine.at|time:"TIME_FORMAT" }}</time> {% endif %}<span class="log-text">{{ line.text }}</spa'
    'n>{% if line.commitment %} {% include "games/_log_seal.html" %}{% endif %}</li>{% endfor %'
    '}</ol>\n'
)
FORMER_SEAL = (
    '{% load i18n %}<span class="log-seal" title="{% translate \'Sealed: the SHA-256 of this sec'
    'ret choice with a random salt. The salt is shown at the reveal, so anyone can check nothin'
    'g was changed.\' %}">{% translate "sealed" %} <code>{{ line.commitment|slice:":12" }}…</cod'
    'e></span>\n'
)


def former_html(lines) -> str:
    engine = Engine.get_default()
    seal = Template(FORMER_SEAL, engine=engine)
    source = FORMER_LINES.replace('{% include "games/_log_seal.html" %}', "{% include seal %}")
    return Template(source, engine=engine).render(Context({"lines": lines, "seal": seal}))


LINES = [
    {"platform": True, "text": "Ann <b> & \"Bob\" took a seat.", "at": dt.datetime(2026, 3, 1, 9, 0, tzinfo=dt.UTC),
     "new_day": True},
    {"platform": False, "text": mark_safe("<strong>Ann</strong> played 7"), "at": dt.datetime(2026, 3, 1, 23, 59,
     tzinfo=dt.UTC), "round_break": True, "commitment": "", "new_day": False},
    {"platform": False, "text": "Bob's secret <choice>", "at": dt.datetime(2026, 3, 2, 0, 5, tzinfo=dt.UTC),
     "round_break": False, "commitment": "ab<cd>ef0123456789", "new_day": True},
    {"platform": False, "text": "3 plays hidden", "at": dt.datetime(2026, 3, 2, 0, 6, tzinfo=dt.UTC), "hidden": True},
    {"platform": False, "text": "no time", "at": None, "round_break": False, "commitment": "", "new_day": False},
]


@pytest.mark.parametrize("language", ["en", "fr", "ja", "zh-hant"])
@pytest.mark.parametrize("zone", ["UTC", "Asia/Tokyo", "America/Los_Angeles"])
def test_the_log_lines_are_the_former_templates_html(language, zone):
    with translation.override(language), timezone.override(zone):
        assert log_lines(LINES) == former_html(LINES)


def test_a_log_without_lines_is_an_empty_list():
    assert log_lines([]) == former_html([]) == '<ol class="log-lines"></ol>\n'
