from django.urls import path

from together import views

urlpatterns = [
    path("games/<int:game_id>/chat/", views.chat_post, name="together-chat"),
    path("games/<int:game_id>/note/", views.note_save, name="together-note"),
    path("games/<int:game_id>/resign/", views.resign, name="together-resign"),
    path("games/<int:game_id>/call-off/", views.call_off, name="together-call-off"),
    path("games/<int:game_id>/call-off/answer/", views.call_off_answer, name="together-call-off-answer"),
    path("games/<int:game_id>/hand-over/", views.hand_over, name="together-hand-over"),
    path("games/<int:game_id>/rematch/", views.rematch_propose, name="together-rematch"),
    path("games/<int:game_id>/rematch/accept/", views.rematch_accept, name="together-rematch-accept"),
    path("games/<int:game_id>/rematch/decline/", views.rematch_decline, name="together-rematch-decline"),
    path("u/<str:username>/block/", views.block, name="together-block"),
    path("u/<str:username>/unblock/", views.unblock, name="together-unblock"),
    path("settings/blocked/", views.blocked_list, name="together-blocked"),
    path("report/", views.report, name="together-report"),
]
