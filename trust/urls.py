from django.urls import path

from trust import views

urlpatterns = [
    path("settings/tokens/", views.create_token, name="api-token-create"),
    path("settings/tokens/<str:token_key>/revoke/", views.revoke_token, name="api-token-revoke"),
    path("games/<int:game_id>/links/", views.create_invite_link, name="game-invite-link-create"),
    path("games/<int:game_id>/links/<int:link_id>/revoke/", views.revoke_invite_link, name="game-invite-link-revoke"),
    path("settings/data/", views.data_export, name="account-data-export"),
    path("settings/delete/", views.delete_account, name="account-delete"),
]
