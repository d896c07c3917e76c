"""``{% fixed %}…{% endfixed %}``: a part of a page that is the same for every request in one language, rendered
once per process and language instead of on every page (issue 33: a game page's fixed parts, its `<template>`s,
keyboard commands, language menu and scripts, were ~60 translations, URLs and static paths looked up on every view).

The part is rendered with none of the page's variables, so it cannot come to depend on the viewer by mistake (a
variable in it renders empty, which shows at once): only the values named in the tag are given to it, and they are
part of what it is kept under, with the language, the URL configuration and prefix and ``STATIC_URL``::

    {% fixed languages=LANGUAGES %}<select>{% for code, name in languages %}…{% endfor %}</select>{% endfixed %}

Kept on the template's own node: a template parsed again (a development server's loader) starts empty.
"""

from __future__ import annotations

from django import template
from django.conf import settings
from django.template.base import token_kwargs
from django.urls import get_script_prefix, get_urlconf
from django.utils import translation
from django.utils.safestring import mark_safe

register = template.Library()


class FixedNode(template.Node):
    def __init__(self, nodelist, inputs: dict) -> None:
        self.nodelist = nodelist
        self.inputs = inputs
        self.rendered: dict[tuple, str] = {}

    def render(self, context) -> str:
        values = {name: value.resolve(context) for name, value in self.inputs.items()}
        key = (
            translation.get_language(),
            get_urlconf() or settings.ROOT_URLCONF,
            get_script_prefix(),
            settings.STATIC_URL,
            repr(values),
        )
        html = self.rendered.get(key)
        if html is None:
            html = self.rendered[key] = self.nodelist.render(context.new(values))
        return mark_safe(html)  # noqa: S308 - the output of the autoescaping template itself


@register.tag
def fixed(parser, token):
    bits = token.split_contents()[1:]
    inputs = token_kwargs(bits, parser, support_legacy=False)
    if bits:
        raise template.TemplateSyntaxError("{% fixed %} takes only name=value inputs")
    nodelist = parser.parse(("endfixed",))
    parser.delete_first_token()
    return FixedNode(nodelist, inputs)
