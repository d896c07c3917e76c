"""How long a game lasts and how far it has come, for templates (``games.lengths``)."""

from django import template

from games import lengths

register = template.Library()


@register.simple_tag
def game_length(slug: str, players: int) -> str:
    """{% game_length game.engine_slug game.players %}: "3 rounds, ~30 moves each" (or "")."""
    return lengths.length_text(slug, players)


@register.filter
def game_progress(game) -> str:
    """{{ game|game_progress }}: "round 2 of 3" (or "" before the start)."""
    return lengths.progress_text(game)
