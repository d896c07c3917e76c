"""A URLconf for rendering the game templates before (or apart from) the platform's game page."""

from django.http import HttpResponse
from django.urls import path


def _unused(request, game_id):
    return HttpResponse()


urlpatterns = [path("games/<int:game_id>/move/", _unused, name="game-move")]
