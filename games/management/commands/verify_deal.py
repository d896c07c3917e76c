"""Re-run a finished or called-off game's deal from its revealed seed and compare."""

from django.core.management.base import BaseCommand, CommandError

from games.history.services import verify_deal
from games.models import Game


class Command(BaseCommand):
    help = "For a game over (finished or called off): check the revealed seed against its SHA-256, re-run the game."

    def add_arguments(self, parser):
        parser.add_argument("game_id", type=int)

    def handle(self, *args, game_id, **options):
        game = Game.objects.filter(pk=game_id).first()
        if game is None:
            raise CommandError(f"no game {game_id}")
        problems = verify_deal(game)
        if problems:
            for problem in problems:
                self.stderr.write(problem)
            raise CommandError(f"game {game_id} does not verify")
        self.stdout.write(
            f"game {game_id}: seed {game.revealed_seed} has SHA-256 {game.seed_sha256}; "
            f"seats, deal and all {game.version} moves re-run to the same game"
        )
