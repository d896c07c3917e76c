"""Production's static storage works out each file's hashed URL once per process (issue 33)."""

from __future__ import annotations

import pytest

from mammamia.staticfiles import ManifestStaticFilesStorage


def test_a_static_url_is_the_manifests_and_worked_out_once(tmp_path, settings):
    settings.DEBUG = False
    storage = ManifestStaticFilesStorage(location=tmp_path, base_url="/static/")
    storage.hashed_files = {"css/site.css": "css/site.0123abcd.css"}
    assert storage.url("css/site.css") == "/static/css/site.0123abcd.css"
    storage.hashed_files = {"css/site.css": "css/site.ffff.css"}  # a process never sees its manifest change
    assert storage.url("css/site.css") == "/static/css/site.0123abcd.css"
    with pytest.raises(ValueError, match="manifest"):
        storage.url("missing.css")
    with pytest.raises(ValueError, match="manifest"):
        storage.url("missing.css")  # a missing name is not remembered as anything
