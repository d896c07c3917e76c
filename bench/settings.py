"""Production settings, plus the bench-only framework-ceiling URL.

The site's own URLs are included unchanged; ``bench/ceiling/<row>/`` exists
only under this module, so production never carries it. Static files are
collected into ``BENCH_STATIC_ROOT`` so a bench run never touches the
deployment's ``staticfiles/``.
"""

import os

from bench.stack import queue_names
from mammamia.settings import *  # noqa: F403
from mammamia.settings import env

ROOT_URLCONF = "bench.urls"
STATIC_ROOT = env.str("BENCH_STATIC_ROOT", default=str(BASE_DIR / "var" / "bench" / "static"))  # noqa: F405

# A queue of its own: a worker of another deployment sharing the broker never takes the bench's tasks (nor, with
# BENCH_QUEUE, a worker of the other tree's stack in a run with --before). Outgoing: webhooks and push
# (mammamia/workers.py); slow: reviews of finished games.
CELERY_TASK_DEFAULT_QUEUE, CELERY_OUTGOING_QUEUE, CELERY_SLOW_QUEUE = queue_names(os.environ)
# The two stacks of a run with --before share one Redis cache: their keys apart (the same game ids in each database).
CACHES["default"]["KEY_PREFIX"] = env.str("BENCH_CACHE_PREFIX", default="")  # noqa: F405
CELERY_TASK_ROUTES = {
    "reach.tasks.*": {"queue": CELERY_OUTGOING_QUEUE},
    "games.tasks.review_finished_game": {"queue": CELERY_SLOW_QUEUE},
}
