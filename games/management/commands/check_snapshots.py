"""Replay every started game from its seed, options and moves and compare with what is stored."""

from django.core.management.base import BaseCommand, CommandError

from games.history.services import check_snapshot
from games.models import Game, GameStatus


class Command(BaseCommand):
    help = "Rebuild every game's state and views from its move log; fail on any mismatch."

    def add_arguments(self, parser):
        parser.add_argument("game_ids", nargs="*", type=int, help="Only these games (default: all started ones).")

    def handle(self, *args, game_ids, **options):
        games = Game.objects.filter(status__in=[GameStatus.ACTIVE, GameStatus.FINISHED]).order_by("pk")
        if game_ids:
            games = games.filter(pk__in=game_ids)
        checked = failed = 0
        for game in games.iterator():
            report = check_snapshot(game)
            checked += 1
            if report.problems:
                failed += 1
                for problem in report.problems:
                    self.stderr.write(f"game {game.pk}: {problem}")
        self.stdout.write(f"{checked} game(s) checked, {failed} mismatch(es)")
        if failed:
            raise CommandError(f"{failed} game(s) do not match their move log")
