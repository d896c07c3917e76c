"""Print a new VAPID key pair for Web Push, as environment variables."""

from django.core.management.base import BaseCommand

from reach.push import generate_keys


class Command(BaseCommand):
    help = "Print a new VAPID key pair (VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY) for Web Push."

    def handle(self, *args, **options) -> None:
        public, private = generate_keys()
        self.stdout.write(f"VAPID_PUBLIC_KEY={public}\nVAPID_PRIVATE_KEY={private}\n")
