from django.urls import path

from games import views

urlpatterns = [
    path("games/", views.my_games, name="my-games"),
    path("lobby/", views.lobby, name="lobby"),
]
