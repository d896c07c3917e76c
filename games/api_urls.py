from django.templatetags.static import static
from django.urls import path
from drf_spectacular.views import SpectacularSwaggerSplitView

from games import api
from trust.api import TokenView


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
    path("token/", TokenView.as_view(), name="api-token"),
    path("games/", api.MyGamesView.as_view(), name="api-games"),
    path("lobby/", api.LobbyView.as_view(), name="api-lobby"),
    path("games/<int:game_id>/", api.GameView.as_view(), name="api-game"),
    path("games/<int:game_id>/moves/", api.MoveView.as_view(), name="api-game-move"),
    path("games/<int:game_id>/join/", api.JoinView.as_view(), name="api-game-join"),
    path("games/<int:game_id>/leave/", api.LeaveView.as_view(), name="api-game-leave"),
]
