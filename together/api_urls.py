from django.urls import path

from together import api

urlpatterns = [
    path("games/<int:game_id>/chat/", api.ChatView.as_view(), name="api-game-chat"),
    path("games/<int:game_id>/note/", api.NoteView.as_view(), name="api-game-note"),
    path("games/<int:game_id>/resign/", api.ResignView.as_view(), name="api-game-resign"),
    path("games/<int:game_id>/call-off/", api.CallOffView.as_view(), name="api-game-call-off"),
    path("games/<int:game_id>/call-off/answer/", api.CallOffAnswerView.as_view(), name="api-game-call-off-answer"),
    path("games/<int:game_id>/hand-over/", api.HandOverView.as_view(), name="api-game-hand-over"),
    path("games/<int:game_id>/rematch/", api.RematchView.as_view(), name="api-game-rematch"),
    path("games/<int:game_id>/rematch/accept/", api.RematchAcceptView.as_view(), name="api-game-rematch-accept"),
    path("games/<int:game_id>/rematch/decline/", api.RematchDeclineView.as_view(), name="api-game-rematch-decline"),
    path("users/<str:username>/block/", api.BlockView.as_view(), name="api-user-block"),
    path("blocks/", api.BlocksView.as_view(), name="api-blocks"),
    path("reports/", api.ReportView.as_view(), name="api-reports"),
]
