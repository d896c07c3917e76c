from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TrustConfig(AppConfig):
    name = "trust"
    verbose_name = _("Trust and privacy")

    def ready(self) -> None:
        from games import policies
        from trust import account_mail, checks, invites, receivers, schema  # noqa: F401 - the deploy check, receivers, schema

        account_mail.register()  # account e-mails go through the outbox
        policies.register_invite_links(invites)  # the lobby's per-link invitations
