"""The whole account life cycle through allauth's real views and e-mails."""

import re

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from accounts.models import User

PASSWORD = "a-long-Unusual-passphrase-42"


def _link_in(message, *, path_fragment: str) -> str:
    match = re.search(r"https?://[^\s]+" + re.escape(path_fragment) + r"[^\s]*", message.body)
    assert match, f"no {path_fragment} link in: {message.body}"
    return match.group(0).replace("http://testserver", "")


# Account e-mails go through the outbox after commit (trust.account_mail): a committing test, eager workers.
@pytest.mark.django_db(transaction=True)
def test_sign_up_verify_log_in_by_email_and_username_then_edit_profile(client, eager_celery):
    response = client.post(
        reverse("account_signup"),
        {"email": "ada@example.com", "username": "ada", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert response.status_code == 302
    user = User.objects.get(username="ada")
    assert not user.emailaddress_set.get().verified

    # Mandatory verification: until the link is followed, logging in is refused.
    assert len(mail.outbox) == 1
    assert mail.outbox[0].to == ["ada@example.com"]
    assert mail.outbox[0].body.startswith("Hello from mammamia!")  # the site's name, not the host's
    confirm_path = _link_in(mail.outbox[0], path_fragment="/accounts/confirm-email/")
    page = client.get(confirm_path)
    assert page.status_code == 200
    assert b'class="form-card' in page.content  # allauth's page inside our layout
    response = client.post(confirm_path)
    assert response.status_code == 302
    assert user.emailaddress_set.get().verified

    client.post(reverse("account_logout"))
    response = client.post(reverse("account_login"), {"login": "ada@example.com", "password": PASSWORD})
    assert response.status_code == 302
    assert client.get(reverse("settings")).status_code == 200

    client.post(reverse("account_logout"))
    assert client.get(reverse("settings")).status_code == 302
    response = client.post(reverse("account_login"), {"login": "ada", "password": PASSWORD})
    assert response.status_code == 302

    response = client.post(
        reverse("settings"),
        {
            "display_name": "Ada L.",
            "language": "en",
            "time_zone": "Europe/London",
            "notify_mode": "digest",
            "deadline_reminders": "on",
        },
    )
    assert response.status_code == 302
    user.refresh_from_db()
    assert (user.display_name, user.time_zone, user.notify_mode) == ("Ada L.", "Europe/London", "digest")
    assert "Ada L." in client.get(reverse("profile", args=["ada"])).content.decode()


# Account e-mails go through the outbox after commit (trust.account_mail): a committing test, eager workers.
@pytest.mark.django_db(transaction=True)
def test_unverified_account_cannot_log_in_and_gets_the_verification_mail_again(client, user_factory, eager_celery):
    user = user_factory(username="bob", verified_email=False)
    response = client.post(reverse("account_login"), {"login": "bob", "password": "correct horse battery staple"})
    assert response.status_code == 302
    assert response.url == reverse("account_email_verification_sent")
    assert client.get(reverse("settings")).status_code == 302
    assert [m.to for m in mail.outbox] == [[user.email]]


# Account e-mails go through the outbox after commit (trust.account_mail): a committing test, eager workers.
@pytest.mark.django_db(transaction=True)
def test_password_reset_by_emailed_link_lets_the_user_log_in_with_the_new_password(client, user, eager_celery):
    response = client.post(reverse("account_reset_password"), {"email": user.email})
    assert response.status_code == 302
    assert len(mail.outbox) == 1
    reset_path = _link_in(mail.outbox[0], path_fragment="/accounts/password/reset/key/")

    form_page = client.get(reset_path, follow=True)
    assert form_page.status_code == 200
    new_password = "another-Long-passphrase-77"
    response = client.post(form_page.redirect_chain[-1][0], {"password1": new_password, "password2": new_password})
    assert response.status_code == 302

    client.logout()
    assert client.post(reverse("account_login"), {"login": user.username, "password": new_password}).status_code == 302
    assert client.get(reverse("settings")).status_code == 200


@pytest.mark.django_db
def test_repeated_failed_logins_are_rate_limited_even_with_the_right_password_afterwards(client, user):
    for _ in range(5):
        response = client.post(reverse("account_login"), {"login": user.username, "password": "wrong"})
        assert response.status_code == 200
    right = {"login": user.username, "password": "correct horse battery staple"}
    response = client.post(reverse("account_login"), right)
    assert response.status_code in (200, 429)
    assert "Too many failed login attempts" in response.content.decode()
    assert client.get(reverse("settings")).status_code == 302


@pytest.mark.django_db
def test_account_pages_use_the_site_layout(logged_in_client):
    visitor = Client()
    for name in ("account_login", "account_signup", "account_reset_password"):
        html = visitor.get(reverse(name)).content.decode()
        assert 'class="site-header"' in html and 'class="form-card auth-form"' in html
    for name in ("account_email", "account_change_password"):
        html = logged_in_client.get(reverse(name)).content.decode()
        assert 'class="site-header"' in html and "<label" in html
