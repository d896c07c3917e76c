"""Login throttling keys shared by the web login, the admin login (which is the web login) and the API.

allauth counts failed logins per client address (``10/m/ip``) and per key (``5/5m/key``). Its key is the login
as typed; here it is the account (whichever of its username or e-mail was typed) and the client's address, so
a stranger hammering an account from elsewhere slows only themselves and never locks the owner out, and the
owner can always sign in with a one-time code by e-mail (``ACCOUNT_LOGIN_BY_CODE_ENABLED``). The address is
the client's behind the documented reverse proxy (``ALLAUTH_TRUSTED_PROXY_COUNT``).
"""

from __future__ import annotations

from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.contrib.sites.shortcuts import get_current_site


def account_for_login(login: str):
    """The user a typed login names (username, case-insensitive, or a known e-mail address), or ``None``."""
    login = (login or "").strip()
    if not login or "\x00" in login:
        return None
    users = get_user_model().objects
    if "@" in login:
        address = EmailAddress.objects.filter(email__iexact=login).values_list("user_id", flat=True).first()
        if address is not None:
            return address
    return users.filter(username__iexact=login).values_list("pk", flat=True).first()


def login_attempts_key(adapter, request, **credentials) -> str:
    site = get_current_site(request)
    login = str(credentials.get("email") or credentials.get("username") or "").lower()
    account = account_for_login(login)
    who = f"user{account}" if account is not None else f"login:{login}"
    try:
        address = adapter.get_client_ip(request)
    except Exception:  # noqa: BLE001 - no address known: the account alone
        address = "?"
    return f"{site.domain}:{who}:{address}"
