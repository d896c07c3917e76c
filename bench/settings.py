"""Production settings, plus the bench-only framework-ceiling URL.

The site's own URLs are included unchanged; ``bench/ceiling/<row>/`` exists
only under this module, so production never carries it. Static files are
collected into ``BENCH_STATIC_ROOT`` so a bench run never touches the
deployment's ``staticfiles/``.
"""

from mammamia.settings import *  # noqa: F403
from mammamia.settings import env

ROOT_URLCONF = "bench.urls"
STATIC_ROOT = env.str("BENCH_STATIC_ROOT", default=str(BASE_DIR / "var" / "bench" / "static"))  # noqa: F405

# A queue of its own: a worker of another deployment sharing the broker never takes the bench's tasks.
CELERY_TASK_DEFAULT_QUEUE = "mammamia-bench"
CELERY_OUTGOING_QUEUE = "mammamia-bench-outgoing"  # webhooks and push (mammamia/workers.py)
CELERY_SLOW_QUEUE = "mammamia-bench-slow"  # reviews of finished games
CELERY_TASK_ROUTES = {
    "reach.tasks.*": {"queue": CELERY_OUTGOING_QUEUE},
    "games.tasks.review_finished_game": {"queue": CELERY_SLOW_QUEUE},
}
