"""Receivers of the platform's signals (sent inside the transaction that made the change)."""

from __future__ import annotations

import logging

from django.dispatch import receiver

from games import signals

logger = logging.getLogger(__name__)


@receiver(signals.invitation_declined, dispatch_uid="together.invitation_declined")
def on_invitation_declined(sender, invitation, **kwargs):
    """A declined rematch invitation cancels the rematch and tells the others."""
    from together.rematch import rematch_declined

    rematch_declined(invitation=invitation)


@receiver(signals.game_finished, dispatch_uid="together.game_finished")
def on_game_finished(sender, game, **kwargs):
    """A game that ends by play leaves no call-off proposal pending."""
    from together.services import void_call_offs

    void_call_offs(game_id=game.pk)
