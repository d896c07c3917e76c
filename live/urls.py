from django.urls import path

from live import views

urlpatterns = [
    path("live/my-games-link/", views.my_games_link, name="live-my-games-link"),
]
