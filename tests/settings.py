"""The test suite's settings: the site's, plus the test-only game folder that proves a game plugs in."""

from mammamia.settings import *  # noqa: F403
from mammamia.settings import INSTALLED_APPS

INSTALLED_APPS = [*INSTALLED_APPS, "tests.hidden_number"]

# Most tests look at a notification's content and delivery right after a move; the hold of issue 34 has its own
# tests (tests/notifications/test_notify_quiet_at_the_table.py), which set it.
TURN_NOTIFY_HOLD_SECONDS = 0

# Reviews of finished games search for seconds per game: most tests finish games and look at other things; the
# review's own tests (tests/games/test_game_review.py, the leak test) turn them on with a small budget.
GAME_REVIEWS = False
