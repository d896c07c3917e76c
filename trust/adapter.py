from __future__ import annotations

from dataclasses import dataclass

from allauth.account.adapter import DefaultAccountAdapter
from allauth.core import context as allauth_context
from django.conf import settings
from django.contrib.sites.shortcuts import get_current_site
from django.utils import translation

LANGUAGE_CODES = {code for code, _name in settings.LANGUAGES}


@dataclass(frozen=True)
class _SiteForMail:
    name: str
    domain: str


class AccountAdapter(DefaultAccountAdapter):
    def save_user(self, request, user, form, commit=True):
        """New users start in the language they signed up in."""
        user = super().save_user(request, user, form, commit=False)
        user.language = translation.get_language() or "en"
        if commit:
            user.save()
        return user

    def add_message(self, request, level, message_template=None, message_context=None, extra_tags="", message=None):
        """A message is written in the language of the page that will show it. Django stores it as text, and
        once someone is logged in the next page speaks their account's language (UserPreferencesMiddleware),
        whatever the page the form was on: "logged in" written in French showed on a Japanese page."""
        user = getattr(request, "user", None)
        language = user.language if user is not None and user.is_authenticated else None
        if language not in LANGUAGE_CODES:
            return super().add_message(request, level, message_template, message_context, extra_tags, message)
        with translation.override(language):
            return super().add_message(request, level, message_template, message_context, extra_tags, message)

    def send_mail(self, template_prefix: str, email: str, context: dict) -> None:
        """allauth's mails greet with the site's name; without the sites framework
        that would be the host name ("Hello from 127.0.0.1:8000!"), so name it.
        They go through the outbox like game e-mails (trust.account_mail): an SMTP
        outage delays them and loses none."""
        from trust.account_mail import queue_account_mail

        site = context.get("current_site") or get_current_site(allauth_context.request)
        context = {**context, "current_site": _SiteForMail("mammamia", site.domain)}
        queue_account_mail(self.render_mail(template_prefix, email, context), context=context)

    def _get_login_attempts_cache_key(self, request, **credentials) -> str:
        """Failed logins count per account AND client address (trust.throttling): a stranger elsewhere
        cannot lock the owner out; the web login and POST /api/token/ share the counter."""
        from trust.throttling import login_attempts_key

        return login_attempts_key(self, request, **credentials)
