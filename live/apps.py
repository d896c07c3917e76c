from django.apps import AppConfig


class LiveConfig(AppConfig):
    name = "live"
    verbose_name = "Live updates"

    def ready(self) -> None:
        # A chat message, a resignation, a call-off or a rematch changes the table without a move.
        from live import publish
        from together.live import table_activity

        table_activity.connect(publish.table_activity, dispatch_uid="live.table_activity")
