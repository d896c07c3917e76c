from django.urls import path

from reach import views

app_name = "reach"

urlpatterns = [
    path("settings/channels/", views.channels, name="channels"),
    path("settings/push/subscribe/", views.push_subscribe, name="push-subscribe"),
    path("settings/push/unsubscribe/", views.push_unsubscribe, name="push-unsubscribe"),
    path("settings/webhooks/", views.webhook_add, name="webhook-add"),
    path("settings/webhooks/<int:hook_id>/", views.webhook_action, name="webhook-action"),
    path("settings/feeds/regenerate/", views.feeds_regenerate, name="feeds-regenerate"),
    path("feeds/<slug:secret>/deadlines.ics", views.calendar_feed, name="calendar"),
    path("feeds/<slug:secret>/awaiting.atom", views.atom_feed, name="atom"),
    path("manifest.webmanifest", views.manifest, name="manifest"),
    path("sw.js", views.service_worker, name="service-worker"),
]
