"""Recompute every rating from the finished rated games, in the order they finished, and compare."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from competition import ratings


class Command(BaseCommand):
    help = "Rebuild every rating from the finished rated games and report where the stored ones differ."

    def add_arguments(self, parser):
        parser.add_argument("--write", action="store_true", help="Replace the stored ratings by the rebuilt ones.")
        parser.add_argument("--show", type=int, default=20, help="Differences to print (default 20).")

    def handle(self, *args, write: bool = False, show: int = 20, **options):
        report = ratings.rebuild()
        self.stdout.write(
            f"{report.games} rated games replayed; {len(report.ratings)} ratings rebuilt; "
            f"{len(report.differences)} differ from the stored ones."
        )
        for line in report.differences[:show]:
            self.stdout.write(f"  {line}")
        if write:
            count = ratings.write_rebuilt(report)
            self.stdout.write(f"{count} ratings written.")
            return
        if report.differences:
            raise CommandError("stored ratings differ from the history (run with --write to replace them)")
