from django.templatetags.static import static
from django.urls import path
from drf_spectacular.views import SpectacularSwaggerSplitView

from games import api, fairness_api


class SwaggerDocs(SpectacularSwaggerSplitView):
    """Swagger UI from the sidecar's local files, its set-up script served apart (CSP: no inline code)."""

    template_name = "games/api_docs.html"

    @staticmethod
    def _swagger_ui_resource(filename):
        return static(f"drf_spectacular_sidecar/swagger-ui-dist/{filename}")

    @staticmethod
    def _swagger_ui_favicon():
        return static("favicon.svg")


urlpatterns = [
    path("docs/", SwaggerDocs.as_view(url_name="api-schema"), name="api-docs"),
    path("games/", api.MyGamesView.as_view(), name="api-games"),
    path("games/commitment/", api.CommitmentView.as_view(), name="api-game-commitment"),
    path("lobby/", api.LobbyView.as_view(), name="api-lobby"),
    path("games/<int:game_id>/", api.GameView.as_view(), name="api-game"),
    path("games/<int:game_id>/moves/", api.MoveView.as_view(), name="api-game-move"),
    path("games/<int:game_id>/join/", api.JoinView.as_view(), name="api-game-join"),
    path("games/<int:game_id>/contribution/", api.ContributionView.as_view(), name="api-game-contribution"),
    path("games/<int:game_id>/fairness/", fairness_api.FairnessView.as_view(), name="api-game-fairness"),
    path("games/<int:game_id>/leave/", api.LeaveView.as_view(), name="api-game-leave"),
    path("games/<int:game_id>/cancel/", api.CancelView.as_view(), name="api-game-cancel"),
    path("games/<int:game_id>/bots/", api.BotsView.as_view(), name="api-game-bots"),
    path("games/<int:game_id>/invitations/", api.InviteView.as_view(), name="api-game-invite"),
    path(
        "games/<int:game_id>/invite-suggestions/",
        api.InviteSuggestionsView.as_view(),
        name="api-game-invite-suggestions",
    ),
    path("games/<int:game_id>/log/", api.GameLogView.as_view(), name="api-game-log"),
    path("games/<int:game_id>/replay/", api.ReplayView.as_view(), name="api-game-replay"),
    path("games/<int:game_id>/review/", api.ReviewView.as_view(), name="api-game-review"),
    path("games/<int:game_id>/reveal/", api.RevealView.as_view(), name="api-game-reveal"),
    path("invitations/", api.MyInvitationsView.as_view(), name="api-invitations"),
    path(
        "invitations/<int:invitation_id>/decline/",
        api.DeclineInvitationView.as_view(),
        name="api-invitation-decline",
    ),
]
