"""The DEBUG-only viewer of the development mail catcher's .eml files."""

import importlib
import os
from email.message import EmailMessage

import pytest
from django.test import Client
from django.urls import NoReverseMatch, clear_url_caches, reverse

import mammamia.urls
from mammamia import devmail


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

    detail = client.get(reverse("dev-mail-detail", args=["2000-000001-ada_at_example.com.eml"])).content.decode()
    assert '<a href="http://127.0.0.1:8000/accounts/confirm-email/abc/"' in detail  # clickable link in text
    assert "<iframe" in detail and " sandbox " in detail
    assert "<script>alert" not in detail  # the HTML part is escaped into srcdoc, never inlined
    assert "&lt;script&gt;alert" in detail


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
