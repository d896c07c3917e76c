"""The test suite's settings: the site's, plus the test-only game folder that proves a game plugs in."""

from mammamia.settings import *  # noqa: F403
from mammamia.settings import INSTALLED_APPS

INSTALLED_APPS = [*INSTALLED_APPS, "tests.hidden_number"]
