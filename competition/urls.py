from django.urls import path

from competition import views

app_name = "competition"

urlpatterns = [
    path("leaderboards/<slug:slug>/", views.leaderboard, name="leaderboard"),
    path("leagues/", views.league_list, name="leagues"),
    path("leagues/new/", views.league_create, name="league-create"),
    path("leagues/<int:league_id>/", views.league_detail, name="league"),
    path("leagues/<int:league_id>/sign-up/", views.league_sign_up, name="league-sign-up"),
    path("leagues/<int:league_id>/withdraw/", views.league_withdraw, name="league-withdraw"),
]
