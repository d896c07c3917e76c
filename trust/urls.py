from django.urls import path

from trust import views

urlpatterns = [
    path("settings/tokens/", views.create_token, name="api-token-create"),
    path("settings/tokens/<str:token_key>/revoke/", views.revoke_token, name="api-token-revoke"),
    path("settings/data/", views.data_export, name="account-data-export"),
    path("settings/delete/", views.delete_account, name="account-delete"),
]
