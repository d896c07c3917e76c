from django import template

from live.grants import make_grant

register = template.Library()


@register.simple_tag(takes_context=True)
def live_grant(context, game=None) -> str:
    """The signed grant for this page's stream: ``game``'s channel (only pass a game the viewer was
    just found allowed to see) and the logged-in viewer's own channel."""
    request = context.get("request")
    user = getattr(request, "user", None)
    user_id = user.pk if user is not None and user.is_authenticated else None
    game_id = game.pk if game is not None else None
    if game_id is None and user_id is None:
        return ""
    return make_grant(game_id=game_id, user_id=user_id)
