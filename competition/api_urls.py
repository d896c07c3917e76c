from django.urls import path

from competition import api

urlpatterns = [
    path("leaderboards/<slug:slug>/", api.LeaderboardView.as_view(), name="api-leaderboard"),
    path("users/<str:username>/ratings/", api.PlayerRatingsView.as_view(), name="api-player-ratings"),
    path("leagues/", api.LeaguesView.as_view(), name="api-leagues"),
    path("leagues/<int:league_id>/", api.LeagueView.as_view(), name="api-league"),
    path("leagues/<int:league_id>/sign-up/", api.LeagueSignUpView.as_view(), name="api-league-sign-up"),
    path("leagues/<int:league_id>/withdraw/", api.LeagueWithdrawView.as_view(), name="api-league-withdraw"),
]
