"""The DEBUG-only viewer of the development mail catcher's .eml files."""

import importlib
import os
import re
from email.message import EmailMessage

import pytest
from django.test import Client
from django.urls import NoReverseMatch, clear_url_caches, reverse

import mammamia.urls
from mammamia import devmail

STYLED = (
    '<!doctype html><html><head><meta charset="utf-8"></head><body style="background:#f6f3ee">'
    '<p style="color:#b3261e">Your move</p><a href="http://127.0.0.1:8000/games/1/">Open</a>'
    '<script>alert("x")</script></body></html>'
)


def directives(response) -> dict[str, list[str]]:
    """A Content-Security-Policy header as {directive: [values]}."""
    policy = {}
    for part in response["Content-Security-Policy"].split(";"):
        name, *values = part.split()
        policy[name] = values
    return policy


def _write_eml(folder, name, *, subject, html=None, mtime=None):
    message = EmailMessage()
    message["From"] = "mammamia <noreply@mammamia.example>"
    message["To"] = "ada@example.com"
    message["Subject"] = subject
    message.set_content("Confirm here: http://127.0.0.1:8000/accounts/confirm-email/abc/\n")
    if html:
        message.add_alternative(html, subtype="html")
    path = folder / name
    path.write_bytes(message.as_bytes())
    if mtime is not None:
        os.utime(path, (mtime, mtime))
    return path


def _reload_urls():
    importlib.reload(mammamia.urls)
    clear_url_caches()


@pytest.fixture
def debug_mail_dir(settings, tmp_path):
    settings.DEBUG = True
    settings.DEV_MAIL_DIR = tmp_path
    _reload_urls()
    yield tmp_path
    settings.DEBUG = False
    _reload_urls()


@pytest.mark.django_db
def test_mail_viewer_does_not_exist_without_debug(client):
    with pytest.raises(NoReverseMatch):
        reverse("dev-mail")
    assert client.get("/dev/mail/").status_code == 404


@pytest.mark.django_db
def test_mail_viewer_lists_messages_newest_first_and_shows_text_and_html_safely(debug_mail_dir):
    _write_eml(debug_mail_dir, "1000-000001-ada_at_example.com.eml", subject="Old one", mtime=1_000_000)
    _write_eml(
        debug_mail_dir,
        "2000-000001-ada_at_example.com.eml",
        subject="Please confirm",
        html='<p>Hi</p><script>alert("x")</script>',
        mtime=2_000_000,
    )
    (debug_mail_dir / "notes.txt").write_text("not a message")
    client = Client()
    listing = client.get(reverse("dev-mail")).content.decode()
    assert listing.index("Please confirm") < listing.index("Old one")
    assert "notes.txt" not in listing

    name = "2000-000001-ada_at_example.com.eml"
    detail = client.get(reverse("dev-mail-detail", args=[name])).content.decode()
    assert '<a href="http://127.0.0.1:8000/accounts/confirm-email/abc/"' in detail  # clickable link in text
    iframe = re.search(r"<iframe [^>]*>", detail).group(0)
    assert f'src="{reverse("dev-mail-html", args=[name])}"' in iframe
    assert 'sandbox="allow-popups allow-popups-to-escape-sandbox"' in iframe  # no allow-scripts, no same origin
    assert "alert" not in detail  # the HTML part is never inlined into the page


@pytest.mark.django_db
@pytest.mark.parametrize(
    "name", ["..%2F..%2Fetc%2Fpasswd", "..", "...eml", "%2Fetc%2Fpasswd.eml", "missing.eml", "secret.txt"]
)
def test_mail_viewer_refuses_names_outside_the_mail_folder(debug_mail_dir, name):
    (debug_mail_dir.parent / "secret.eml").write_text("Subject: secret\n\nsecret")
    (debug_mail_dir / "secret.txt").write_text("Subject: secret\n\nsecret")
    response = Client().get(f"/dev/mail/{name}/")
    assert response.status_code == 404


def test_read_mail_refuses_traversal_and_symlinks_out_of_the_folder(tmp_path):
    folder = tmp_path / "mail"
    folder.mkdir()
    outside = _write_eml(tmp_path, "outside.eml", subject="outside")
    (folder / "link.eml").symlink_to(outside)
    assert devmail.read_mail(folder=folder, name="../outside.eml") is None
    assert devmail.read_mail(folder=folder, name="link.eml") is None
    assert devmail.read_mail(folder=folder, name="/etc/passwd") is None
    _write_eml(folder, "ok.eml", subject="fine")
    assert devmail.read_mail(folder=folder, name="ok.eml").subject == "fine"


def test_mail_list_of_a_missing_folder_is_empty(tmp_path):
    assert devmail.list_mail(folder=tmp_path / "nowhere") == []


@pytest.mark.django_db
def test_mail_preview_shows_the_html_as_sent_with_inline_styles_and_no_scripts(debug_mail_dir):
    """Issue 19, point 12: the e-mail's own response allows its inline styles (the site's policy blocked them in
    the srcdoc) and forbids everything else: scripts, requests out, forms, being framed by anyone but the site."""
    _write_eml(debug_mail_dir, "3000-000001-ada_at_example.com.eml", subject="Your move", html=STYLED)
    response = Client().get(reverse("dev-mail-html", args=["3000-000001-ada_at_example.com.eml"]))
    assert response.status_code == 200 and response["Content-Type"] == "text/html; charset=utf-8"
    html = response.content.decode()
    assert '<body style="background:#f6f3ee">' in html and '<p style="color:#b3261e">Your move</p>' in html
    assert '<head><base target="_blank"><meta charset="utf-8">' in html  # links open in a tab, not the frame
    policy = directives(response)
    assert policy["style-src"] == ["'unsafe-inline'"]
    assert policy["default-src"] == ["'none'"] and "script-src" not in policy  # so no script runs at all
    assert policy["img-src"] == ["data:"] and policy["form-action"] == ["'none'"] and policy["base-uri"] == ["'none'"]
    assert policy["sandbox"] == ["allow-popups", "allow-popups-to-escape-sandbox"]  # no allow-scripts
    assert policy["frame-ancestors"] == ["'self'"] and response["X-Frame-Options"] == "SAMEORIGIN"
    assert "no-store" in response["Cache-Control"]


@pytest.mark.django_db
def test_the_site_keeps_its_own_csp_beside_the_mail_preview(debug_mail_dir):
    """The mail's policy is for its own response only: every page of the site, the preview page itself
    included, keeps the site's policy (styles from the site, scripts from the site, never framed)."""
    name = "3000-000001-ada_at_example.com.eml"
    _write_eml(debug_mail_dir, name, subject="Your move", html=STYLED)
    client = Client()
    for url in (reverse("home"), reverse("dev-mail"), reverse("dev-mail-detail", args=[name])):
        response = client.get(url)
        policy = directives(response)
        assert policy["style-src"] == ["'self'"], url
        assert policy["script-src"][0] == "'self'" and "'unsafe-inline'" not in response["Content-Security-Policy"], url
        assert policy["frame-ancestors"] == ["'none'"] and response["X-Frame-Options"] == "DENY", url
        assert "sandbox" not in policy, url


@pytest.mark.django_db
def test_mail_preview_without_an_html_part_or_without_debug_is_not_found(debug_mail_dir, settings):
    _write_eml(debug_mail_dir, "4000-000001-ada_at_example.com.eml", subject="Plain")
    assert Client().get(reverse("dev-mail-html", args=["4000-000001-ada_at_example.com.eml"])).status_code == 404
    assert Client().get("/dev/mail/..%2Fsecret.eml/html/").status_code == 404
    settings.DEBUG = False  # a copied route still refuses
    _write_eml(debug_mail_dir, "5000-000001-ada_at_example.com.eml", subject="Styled", html=STYLED)
    assert Client().get(reverse("dev-mail-html", args=["5000-000001-ada_at_example.com.eml"])).status_code == 404
