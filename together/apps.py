from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TogetherConfig(AppConfig):
    """Playing together (issue 17): table chat, private notes, resign, call off, rematch, block and report."""

    name = "together"
    verbose_name = _("Playing together")

    def ready(self) -> None:
        # Signal receivers (a declined rematch), and the kinds of message this app sends (chat, table news).
        from together import messages, receivers  # noqa: F401

        messages.register()
        # A chat message, a resignation, a call-off or a rematch changes the table without a move: open pages hear.
        from live import publish
        from together.live import table_activity

        table_activity.connect(publish.table_activity, dispatch_uid="live.table_activity")
        # What the platform core asks of this app without importing it (games.policies, games.panels).
        from games import policies
        from together import moderation, page, texts
        from together import selectors as together_selectors

        policies.register_join_veto(moderation.check_may_join)
        policies.register_invitation_veto(moderation.check_may_invite)
        policies.register_invitee_filter(moderation.without_blocks)
        policies.register_activity_stamp(together_selectors.activity_stamp_subquery)
        policies.register_event_text(texts.platform_event_text)
        policies.register_my_games_extra(page.my_games_extra)
        policies.register_access_columns(together_selectors.access_columns)
        from games import panels
        from together.panels import after_game, replay_chat, requests, table

        panels.register(table.panel)
        panels.register(after_game.panel)
        panels.register(requests.panel)
        panels.register(replay_chat.panel)
