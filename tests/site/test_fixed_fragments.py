"""``{% fixed %}`` (mammamia/fragments.py, issue 33): a part of a page that is the same for every request in one
language is rendered once per process and language, with none of the page's variables."""

from __future__ import annotations

from django.template import Context, Engine, Template
from django.utils import translation


def template(source: str) -> Template:
    return Template("{% load i18n fragments %}" + source, engine=Engine.get_default())


def test_a_fixed_part_is_rendered_once_per_language():
    calls = []
    page = template("{% fixed %}{% translate 'Log' %}{{ count }}{% endfixed %}")

    class Counted:
        def __str__(self):
            calls.append(1)
            return "x"

    with translation.override("fr"):
        french = [page.render(Context({"count": Counted()})) for _ in range(3)]
    with translation.override("en"):
        english = page.render(Context())
    assert french == ["Journal"] * 3
    assert english == "Log"
    assert calls == []  # the page's variables are not the part's


def test_a_fixed_part_sees_only_its_named_inputs_and_is_kept_under_them():
    page = template("{% fixed code=current %}{{ code }}/{{ secret }}{% endfixed %}")
    assert page.render(Context({"current": "fr", "secret": "hand"})) == "fr/"
    assert page.render(Context({"current": "ja", "secret": "hand"})) == "ja/"
    assert page.render(Context({"current": "fr"})) == "fr/"


def test_a_fixed_part_is_escaped_as_the_page_is():
    page = template("{% fixed name=name %}<b>{{ name }}</b>{% endfixed %}")
    assert page.render(Context({"name": "<i>"})) == "<b>&lt;i&gt;</b>"
