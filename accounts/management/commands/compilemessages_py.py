"""Compile .po catalogs to .mo with polib: no GNU gettext needed (``make messages``)."""

from __future__ import annotations

import os
from pathlib import Path

import polib
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError


def catalog_paths(*, roots: list[Path]) -> list[Path]:
    """Every LC_MESSAGES/*.po under the given locale roots, sorted."""
    return sorted(path for root in roots if root.is_dir() for path in root.glob("*/LC_MESSAGES/*.po"))


def compile_catalog(*, po_path: Path) -> tuple[Path, int]:
    """Write the .mo beside ``po_path``; returns it and how many messages it holds.

    polib leaves out fuzzy and untranslated entries, as msgfmt does, so a
    half-translated string falls back to English instead of showing a guess.
    Written beside and renamed into place: a process reading the catalog meanwhile (a site running, another
    test worker of ``make test``) reads the old file or the new one, never half of one.
    """
    catalog = polib.pofile(str(po_path))
    mo_path = po_path.with_suffix(".mo")
    partial = mo_path.with_name(f".{mo_path.name}.{os.getpid()}.tmp")
    try:
        catalog.save_as_mofile(str(partial))
        partial.replace(mo_path)
    finally:
        partial.unlink(missing_ok=True)
    return mo_path, len(catalog.translated_entries())


class Command(BaseCommand):
    help = "Compile the project's .po files to .mo with polib (no gettext needed)."

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--locale", "-l", action="append", default=[], help="Only these locales (e.g. ja, zh_Hant)."
        )

    def handle(self, *args, **options) -> None:
        roots = [Path(path) for path in settings.LOCALE_PATHS]
        paths = catalog_paths(roots=roots)
        if options["locale"]:
            paths = [path for path in paths if path.parent.parent.name in options["locale"]]
        if not paths:
            raise CommandError(f"No .po files found under {', '.join(str(root) for root in roots)}.")
        for po_path in paths:
            try:
                mo_path, count = compile_catalog(po_path=po_path)
            except (OSError, ValueError) as error:
                raise CommandError(f"{po_path}: {error}") from error
            self.stdout.write(f"{mo_path.relative_to(settings.BASE_DIR)}: {count} messages")
