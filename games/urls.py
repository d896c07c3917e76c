from django.urls import path

from games import fairness_page, views
from games.tutorial import views as tutorial_views

urlpatterns = [
    path("games/", views.my_games, name="my-games"),
    path("lobby/", views.lobby, name="lobby"),
    path("games/new/", views.create_game, name="game-create"),
    path("games/invite/<str:token>/", views.invite_link, name="game-invite-link"),
    path("games/invitations/<int:invitation_id>/decline/", views.decline_invitation, name="invitation-decline"),
    path("games/<int:game_id>/", views.game, name="game"),
    path("games/<int:game_id>/table/", views.game_table, name="game-table"),
    path("games/<int:game_id>/move/", views.game_move, name="game-move"),
    path("games/<int:game_id>/log/", views.game_log, name="game-log"),
    path("games/<int:game_id>/check/", fairness_page.check_page, name="game-fairness"),
    path("games/<int:game_id>/replay/", views.replay, name="game-replay"),
    path("games/<int:game_id>/review/", views.review, name="game-review"),
    path("games/<int:game_id>/join/", views.join, name="game-join"),
    path("games/<int:game_id>/contribution/", views.contribute, name="game-contribution"),
    path("games/<int:game_id>/leave/", views.leave, name="game-leave"),
    path("games/<int:game_id>/cancel/", views.cancel, name="game-cancel"),
    path("games/<int:game_id>/invite/", views.invite, name="game-invite"),
    path("games/<int:game_id>/invite/suggestions/", views.invite_suggestions, name="game-invite-suggestions"),
    path("games/<int:game_id>/bots/add/", views.add_bot, name="game-bot-add"),
    path("games/<int:game_id>/bots/<int:seat_id>/remove/", views.remove_bot, name="game-bot-remove"),
    path("learn/<slug:slug>/", tutorial_views.start, name="tutorial-start"),
    path("learn/<slug:slug>/bots/", tutorial_views.play_against_bots, name="tutorial-bots"),
    path("learn/step/<int:game_id>/", tutorial_views.next_step, name="tutorial-next"),
]
