from django.urls import path

from trust import views

urlpatterns = [
    path("settings/tokens/", views.create_token, name="api-token-create"),
    path("settings/tokens/<str:token_key>/revoke/", views.revoke_token, name="api-token-revoke"),
]
