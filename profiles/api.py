"""The JSON API of accounts: a player's public profile (stats, match history) and my settings,
notification preferences, quiet days and absences — what ``/u/<username>/``, ``/settings/``,
``/settings/quiet-days/`` and ``/settings/away/`` offer a person. Validation is the pages' own forms and
changes go through the pages' services (``games.clock_settings`` for anything that moves a clock), so both say
and do the same."""

from __future__ import annotations

from django.conf import settings
from django.utils import timezone, translation
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import permissions, serializers
from rest_framework.response import Response

from accounts.models import ConfirmMoves, NotifyMode
from api import pagination
from api.errors import form_invalid
from api.fields import StrictBooleanField, StrictCharField, StrictChoiceField, StrictIntegerField
from clocks.arithmetic import quiet_weekdays
from clocks.forms import QuietDaysForm
from games import clock_settings as clock_services
from games.api import ApiView, _valid, player
from games.history import selectors as history_selectors
from games.serializers import MyGameSerializer
from notifications import vacations
from notifications.forms import AwayForm
from profiles.forms import ConfirmMovesForm, SettingsForm


class StatsSerializer(serializers.Serializer):
    game = serializers.CharField(source="engine_slug")
    played = serializers.IntegerField()
    won = serializers.IntegerField()
    win_rate = serializers.FloatField(help_text="won / played")
    average_place = serializers.FloatField(allow_null=True)
    average_score = serializers.FloatField(allow_null=True, help_text="In the game's own unit (points, recipes).")
    dropped = serializers.IntegerField(help_text="Games the bot finished for them after three timeouts.")


class ProfileSerializer(serializers.Serializer):
    username = serializers.CharField()
    name = serializers.CharField(source="public_name")
    away = serializers.SerializerMethodField()
    stats = serializers.SerializerMethodField(help_text="Per game, from the player's finished games.")
    url = serializers.SerializerMethodField(help_text="The profile page.")

    def get_away(self, user) -> bool:
        return user.is_away()

    @extend_schema_field(StatsSerializer(many=True))
    def get_stats(self, user) -> list[dict]:
        return StatsSerializer(history_selectors.game_stats(user=user), many=True).data

    def get_url(self, user) -> str:
        return self.context["request"].build_absolute_uri(f"/u/{user.username}/")


class ProfileView(ApiView):
    """A player's public profile and per-game statistics."""

    serializer_class = ProfileSerializer
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: ProfileSerializer})
    def get(self, request, username: str):
        return Response(ProfileSerializer(player(username), context={"request": request}).data)


class HistoryView(ApiView):
    """A player's match history: finished games, newest first, with their seat (`my_seat`: theirs)."""

    serializer_class = MyGameSerializer
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        parameters=[pagination.PAGE_PARAMETER], responses={200: pagination.page_serializer(MyGameSerializer)}
    )
    def get(self, request, username: str):
        page = history_selectors.match_history(user=player(username), page=request.query_params.get("page"))
        results = MyGameSerializer(page.object_list, many=True, context={"request": request}).data
        return Response(pagination.page_body(request, results, next_token=page.older, previous_token=page.newer))


class SettingsSerializer(serializers.Serializer):
    username = serializers.CharField(read_only=True)
    email = serializers.EmailField(read_only=True, help_text="Changed on the site (it needs a confirmation).")
    display_name = StrictCharField(max_length=40, allow_blank=True, help_text="Empty: the username is shown.")
    language = StrictChoiceField(choices=[code for code, _name in settings.LANGUAGES])
    time_zone = StrictCharField(max_length=64, help_text="An IANA zone, e.g. Europe/Paris.")
    notify_mode = StrictChoiceField(
        choices=NotifyMode.values,
        help_text="E-mail when a game awaits my move: once (until I visit), every time, a daily digest, never.",
    )
    deadline_reminders = StrictBooleanField(help_text="E-mail reminders before a move deadline passes.")
    confirm_moves = StrictChoiceField(
        choices=ConfirmMoves.values,
        help_text="The site's pages ask “Send this move?” before a one-tap move: on touch screens, always, never.",
    )
    play_forced_moves = StrictBooleanField(
        help_text="When I have exactly one legal move it is played for me at once (logged as such, no e-mail)."
    )
    next_game_after_move = StrictBooleanField(help_text="After a move, the site's page goes on to my next game.")


class SettingsView(ApiView):
    """My settings and e-mail preferences (as on `/settings/`); PATCH changes some of them. A new time zone applies to
    my running clocks from now on (they are read under the old one first), as on the page."""

    serializer_class = SettingsSerializer

    @extend_schema(responses={200: SettingsSerializer})
    def get(self, request):
        return Response(SettingsSerializer(request.user).data)

    @extend_schema(request=SettingsSerializer(partial=True), responses={200: SettingsSerializer})
    def patch(self, request):
        data = _valid(SettingsSerializer, request, partial=True)
        user = request.user
        current = {name: getattr(user, name) for name in SettingsForm.Meta.fields}
        form = SettingsForm({**current, **data}, instance=user)
        confirm = ConfirmMovesForm({"confirm_moves": data.get("confirm_moves", user.confirm_moves)}, instance=user)
        for checked in (form, confirm):
            if not checked.is_valid():
                raise form_invalid(checked)
        user = form.save_for(request.user)  # a new time zone re-reads the running clocks first (as the page)
        if "confirm_moves" in data:
            confirm.save()
        turn = {name: data[name] for name in ("play_forced_moves", "next_game_after_move") if name in data}
        if turn:
            for name, value in turn.items():
                setattr(user, name, value)
            user.save(update_fields=list(turn))
        translation.activate(user.language)  # this answer is already in the new language
        return Response(SettingsSerializer(user).data)


class AwaySerializer(serializers.Serializer):
    away_until = serializers.DateTimeField(
        read_only=True, allow_null=True, help_text="When my deadlines run again; null when I am not away."
    )
    back_on = serializers.DateField(
        write_only=True,
        help_text="The day I am back (in my time zone): after today, at most 14 days ahead.",
    )


class AwayView(ApiView):
    """My absence (as on `/settings/away/`): my deadlines pause until I am back; DELETE: I am back."""

    serializer_class = AwaySerializer

    def _body(self, user) -> dict:
        return {"away_until": user.away_until if user.is_away() else None}

    @extend_schema(responses={200: AwaySerializer})
    def get(self, request):
        return Response(AwaySerializer(self._body(request.user)).data)

    @extend_schema(request=AwaySerializer, responses={200: AwaySerializer})
    def put(self, request):
        data = _valid(AwaySerializer, request)
        now = timezone.now()
        form = AwayForm({"back_on": data["back_on"].isoformat()}, user=request.user, now=now)
        if not form.is_valid():
            raise form_invalid(form)
        user = vacations.set_away(user=request.user, until=form.away_until(), now=now)
        return Response(AwaySerializer(self._body(user)).data)

    @extend_schema(request=None, responses={200: AwaySerializer})
    def delete(self, request):
        user = vacations.set_away(user=request.user, until=None, now=timezone.now())
        return Response(AwaySerializer(self._body(user)).data)



class QuietDaysSerializer(serializers.Serializer):
    days = serializers.ListField(
        child=StrictIntegerField(min_value=0, max_value=6),
        max_length=7,
        help_text="Weekdays on which my clocks do not run, 0 Monday … 6 Sunday, at most three; midnight to midnight "
        "in my time zone. [] for none.",
    )


class QuietDaysView(ApiView):
    """My quiet days (as on `/settings/quiet-days/`); PUT replaces them, from now on (running clocks are read under
    the old ones first)."""

    serializer_class = QuietDaysSerializer

    @extend_schema(responses={200: QuietDaysSerializer})
    def get(self, request):
        return Response({"days": sorted(quiet_weekdays(request.user.quiet_days))})

    @extend_schema(request=QuietDaysSerializer, responses={200: QuietDaysSerializer})
    def put(self, request):
        data = _valid(QuietDaysSerializer, request)
        form = QuietDaysForm({"days": [str(day) for day in data["days"]]}, user=request.user)
        if not form.is_valid():
            raise form_invalid(form)
        user = clock_services.set_quiet_days(user=request.user, weekdays=form.cleaned_data["days"])
        return Response({"days": sorted(quiet_weekdays(user.quiet_days))})
