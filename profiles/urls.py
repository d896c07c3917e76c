from django.urls import include, path

from profiles import views

# The quiet-days page keeps its name ``clocks:quiet-days`` (links and bookmarks), though its view lives here now.
quiet_days_patterns = ([path("settings/quiet-days/", views.quiet_days, name="quiet-days")], "clocks")

urlpatterns = [
    path("settings/", views.settings_view, name="settings"),
    path("settings/time-zone/browser/", views.browser_time_zone, name="settings-browser-time-zone"),
    path("settings/moves/", views.confirm_moves_view, name="settings-confirm-moves"),
    path("u/<str:username>/", views.profile, name="profile"),
    path("", include(quiet_days_patterns)),
]
