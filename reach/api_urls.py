from django.urls import path

from reach import api

urlpatterns = [
    path("settings/channels/", api.ChannelsView.as_view(), name="api-settings-channels"),
    path("settings/webhooks/", api.WebhooksView.as_view(), name="api-settings-webhooks"),
    path("settings/webhooks/<int:hook_id>/", api.WebhookView.as_view(), name="api-settings-webhook"),
    path("settings/webhooks/<int:hook_id>/enable/", api.WebhookEnableView.as_view(), name="api-webhook-enable"),
    path("settings/webhooks/<int:hook_id>/secret/", api.WebhookSecretView.as_view(), name="api-webhook-secret"),
    path("settings/push/", api.PushView.as_view(), name="api-settings-push"),
    path("settings/push/<int:subscription_id>/", api.BrowserView.as_view(), name="api-settings-push-browser"),
    path("settings/feeds/", api.FeedsView.as_view(), name="api-settings-feeds"),
    path("settings/feeds/renew/", api.FeedsRenewView.as_view(), name="api-settings-feeds-renew"),
]
