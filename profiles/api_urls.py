"""A person's API (profiles, history, settings), under /api/."""

from django.urls import path

from profiles import api as accounts_api

urlpatterns = [
    path("users/<str:username>/", accounts_api.ProfileView.as_view(), name="api-user"),
    path("users/<str:username>/history/", accounts_api.HistoryView.as_view(), name="api-user-history"),
    path("settings/", accounts_api.SettingsView.as_view(), name="api-settings"),
    path("settings/away/", accounts_api.AwayView.as_view(), name="api-settings-away"),
    path("settings/quiet-days/", accounts_api.QuietDaysView.as_view(), name="api-settings-quiet-days"),
]
