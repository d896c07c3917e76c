"""Forms of the trust app, for its pages and its API alike."""

from __future__ import annotations

from allauth.core import ratelimit
from django import forms
from django.http import HttpRequest
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy


class DeleteAccountForm(forms.Form):
    """Deleting an account takes its password (also with a token: a token alone never deletes its account)."""

    password = forms.CharField(label=_lazy("Your password"), widget=forms.PasswordInput, strip=False)

    def __init__(self, *args, user, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.user = user

    def clean_password(self) -> str:
        password = self.cleaned_data["password"]
        if not self.user.check_password(password):
            raise forms.ValidationError(_("That is not your password."), code="wrong_password")
        return password


def deletion_attempt_allowed(request: HttpRequest) -> bool:
    """Whether another attempt at deleting the account may go ahead: each one counts against allauth's
    failed-login limits for this account and address, so the password is guessed here no faster than on the
    login page."""
    return ratelimit.consume(request, action="login_failed", key=f"delete:{request.user.pk}")
