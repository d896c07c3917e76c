"""The trust app's API (tokens, invitation links, account export and deletion), under /api/."""

from django.urls import path

from trust import api as trust_api

urlpatterns = [
    path("token/", trust_api.TokenView.as_view(), name="api-token"),
    path("tokens/", trust_api.MyTokensView.as_view(), name="api-tokens"),
    path("tokens/<str:token_key>/", trust_api.RevokeTokenView.as_view(), name="api-token-item"),
    path("games/<int:game_id>/invite-links/", trust_api.InviteLinksView.as_view(), name="api-game-invite-links"),
    path(
        "games/<int:game_id>/invite-links/<int:link_id>/",
        trust_api.InviteLinkView.as_view(),
        name="api-game-invite-link",
    ),
    path("account/export/", trust_api.AccountExportView.as_view(), name="api-account-export"),
    path("account/delete/", trust_api.AccountDeleteView.as_view(), name="api-account-delete"),
]
