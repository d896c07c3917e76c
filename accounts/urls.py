from django.urls import path

from accounts import views

urlpatterns = [
    path("settings/", views.settings_view, name="settings"),
    path("settings/time-zone/browser/", views.browser_time_zone, name="settings-browser-time-zone"),
    path("settings/moves/", views.confirm_moves_view, name="settings-confirm-moves"),
    path("u/<str:username>/", views.profile, name="profile"),
]
