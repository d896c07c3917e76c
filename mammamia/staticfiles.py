"""The static files' storage in production: whitenoise's compressed, hashed files, with each name's URL worked
out once per process.

A page names about twenty static files (``{% static %}``: the stylesheets, scripts, icons); each lookup in the
manifest and the URL built from it cost ~9 % of a game page's Django CPU (issue 33). The manifest does not change
while a process runs (a deployment restarts it), so the URL of a name does not either.
"""

from __future__ import annotations

from whitenoise.storage import CompressedManifestStaticFilesStorage


class ManifestStaticFilesStorage(CompressedManifestStaticFilesStorage):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._urls: dict[str, str] = {}

    def url(self, name, force: bool = False) -> str:
        if force or name is None:
            return super().url(name, force)
        found = self._urls.get(name)
        if found is None:
            found = self._urls[name] = super().url(name)  # a name missing from the manifest raises, every time
        return found
