"""The Celery app: turn e-mails, reminders, deadlines and bot moves."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mammamia.settings")

app = Celery("mammamia")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
