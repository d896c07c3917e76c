"""``GET /api/games/{id}/fairness/``: the values of “How you can check this game” (``games.fairness_page``)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers
from rest_framework.response import Response

from games.api import ApiView, _visible
from games.fairness_page import facts


class ContributionEntrySerializer(serializers.Serializer):
    join_position = serializers.IntegerField(help_text="0 for the first seat taken (the creator's), then in order.")
    seat = serializers.IntegerField(allow_null=True, help_text="The seat the start drew (null before the start).")
    name = serializers.CharField()
    contribution = serializers.CharField(help_text="32 hex digits, or empty when none was sent.")
    drawn_by = serializers.ChoiceField(
        choices=["player", "site", "none"],
        help_text="site: derived from the site's committed secret: a bot's, or a person's whose game waited for its "
        "deal and who sent none by its deadline (docs/fairness.md).",
    )
    bot = serializers.BooleanField(
        help_text="A bot's seat from the start: its bits are HMAC(secret, 'mammamia bot contribution:' + join "
        "position); a person's drawn by the site use 'mammamia site contribution:'."
    )


class CommitmentSerializer(serializers.Serializer):
    round = serializers.IntegerField()
    seat = serializers.IntegerField()
    kind = serializers.CharField(help_text="choice (Konamon!), bid or play (Marumiere).")
    position = serializers.IntegerField(required=False, help_text="Marumiere: the card's position in the row.")
    commitment = serializers.CharField(help_text="SHA-256 hex of salt + ':' + the choice as canonical JSON.")
    salt = serializers.CharField(allow_null=True, help_text="32 hex digits, once revealed (else null).")
    choice = serializers.JSONField(allow_null=True, help_text="What was committed, once revealed (else null).")


class DealCheckSerializer(serializers.Serializer):
    matches = serializers.BooleanField(help_text="Re-run from the published values, the game is the one played.")
    problems = serializers.ListField(child=serializers.CharField(), help_text="What differs, if anything.")
    moves = serializers.IntegerField(help_text="Moves re-run.")


class FairnessSerializer(serializers.Serializer):
    deal_check = DealCheckSerializer(
        allow_null=True, help_text="Once over: the site's re-run of seats, deal, moves and commitments (verify_deal)."
    )
    scheme = serializers.ChoiceField(
        choices=["joint", "site"],
        help_text="joint: the seed is HMAC-SHA-256 of the site's secret over every contribution (docs/fairness.md); "
        "site: a game created before, whose seed is the secret itself.",
    )
    contributions_due_at = serializers.DateTimeField(
        allow_null=True,
        help_text="A game the site seated (a league's) waits for every player's contribution until then; at that "
        "time the site draws the missing ones and the game starts. Null otherwise, and once it has started.",
    )
    secret_sha256 = serializers.CharField(help_text="SHA-256 of the secret's decimal digits, public from the creation.")
    secret = serializers.CharField(allow_null=True, help_text="The site's secret, once the game is over.")
    contributions = ContributionEntrySerializer(many=True, help_text="In join order: the order of the formula.")
    seed = serializers.CharField(allow_null=True, help_text="The deal's seed computed from the above, once over.")
    seat_order = serializers.ListField(
        child=serializers.IntegerField(), allow_null=True, help_text="seat -> join position, drawn from the seed."
    )
    commitments = CommitmentSerializer(many=True, help_text="The sealed choices your view of the log shows.")
    check = serializers.CharField(help_text="A standard-library Python script checking all of this.")


class FairnessView(ApiView):
    """How anyone can check this game: the secret's SHA-256, every contribution, the commitments; the secret and
    the seed once the game is over, the salts as choices are revealed."""

    serializer_class = FairnessSerializer
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: FairnessSerializer})
    def get(self, request, game_id: int):
        return Response(facts(_visible(request, game_id)))
