"""The test game is played as the platform tests play: bots and e-mails at once, five players at hand."""

from tests.games.conftest import _bots_move_at_once, players  # noqa: F401 - fixtures
