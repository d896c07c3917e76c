"""“How you can check this game”: the values of the deal and of the sealed choices, for the page and the API.

Need to know: the site's secret and the seed only once the game is over (finished or called off); the
contributions at once (public from the moment they are sent); the commitments as the viewer's own log shows them
(``engine.view(state, seat)["log"]``, ``history.selectors.viewer_log``), each salt only with its reveal.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from games import fairness
from games.engines.sealing import canonical
from games.history.selectors import viewer_log
from games.models import GameStatus
from games.play import selectors as play_selectors
from games.tables import seat_order

OVER = (GameStatus.FINISHED, GameStatus.ABANDONED)


def revealed_secret(game) -> str | None:
    """The site's secret once the game is over (issue 35: a called-off game reveals it too)."""
    return game.revealed_seed or None if game.status in OVER else None


def facts(access: play_selectors.GameAccess) -> dict[str, Any]:
    """Everything a viewer may check of ``access.game`` now, JSON-ready."""
    game = access.game
    joint = fairness.is_joint(game)
    secret = revealed_secret(game)
    by_join = sorted(access.seats, key=lambda seat: seat.join_order)
    contributions = [
        {
            "join_position": position,
            "seat": seat.number,
            "name": seat.name,
            "contribution": seat.contribution,
            "drawn_by": fairness.drawn_by(seat) if joint else "none",
            "bot": fairness.seated_as_bot(seat),
        }
        for position, seat in enumerate(by_join)
    ]
    seed = None
    if secret is not None:
        seed = str(fairness.deal_seed(game, secret, by_join))
    commitments = []
    if joint and game.status not in (GameStatus.OPEN, GameStatus.CANCELLED):
        commitments = game.engine.sealed_choices(viewer_log(game=game, seat_number=access.seat_number))
    return {
        "deal_check": deal_check(game) if secret is not None else None,
        "scheme": game.deal_scheme,
        "contributions_due_at": game.contributions_due_at if game.status == GameStatus.OPEN else None,
        "secret_sha256": game.seed_sha256,
        "secret": secret,
        "contributions": contributions,
        "seed": seed,
        "seat_order": seat_order(seed, game.players) if seed is not None and game.started_at else None,
        "commitments": commitments,
        "check": check_script(game, secret, contributions, commitments),
    }


DEAL_CHECK_TIMEOUT = 7 * 24 * 3600  # a game over never changes


def deal_check(game) -> dict[str, Any]:
    """The site's own re-run of a game over from its published values (``history.services.verify_deal``): the
    seed from the secret and the contributions, the seats, the deal, every move and every commitment. One
    replay, then kept in the cache (the key holds the commitment and the version, so it never outlives them)."""
    from django.core.cache import cache

    from games.history.services import verify_deal

    key = f"deal-check:{game.pk}:{game.seed_sha256[:16]}:{game.version}"
    found = cache.get(key)
    if found is None:
        problems = verify_deal(game)
        found = {"matches": not problems, "problems": problems, "moves": game.version}
        cache.set(key, found, DEAL_CHECK_TIMEOUT)
    return found


def check_script(game, secret: str | None, contributions: list[dict], commitments: list[dict]) -> str:
    """A few lines of standard-library Python that check what can be checked now, with the values filled in;
    "" while there is nothing to check yet (the secret unrevealed, no choice revealed)."""
    if secret is None and not any(entry["salt"] is not None for entry in commitments):
        return ""
    lines = ["import hashlib, hmac, json, random", ""]
    if secret is not None:
        lines += [
            f'secret = "{secret}"',
            f'assert hashlib.sha256(secret.encode()).hexdigest() == "{game.seed_sha256}"',
        ]
        if fairness.is_joint(game):
            listed = ", ".join(f'"{entry["contribution"]}"' for entry in contributions)
            lines += [
                f"contributions = [{listed}]  # in join order",
                f'message = "\\n".join(["{fairness.DEAL_LABEL}", *contributions]).encode()',
                "seed = int.from_bytes(hmac.new(secret.encode(), message, hashlib.sha256).digest()[:16], 'big')",
            ]
            for entry in contributions:
                if entry["drawn_by"] != "site":
                    continue
                position, label = entry["join_position"], fairness.BOT_LABEL if entry["bot"] else fairness.SITE_LABEL
                lines.append(
                    f'assert contributions[{position}] == hmac.new(secret.encode(), b"{label}{position}", '
                    "hashlib.sha256).hexdigest()[:32]"
                )
        else:
            lines.append("seed = int(secret)  # this game's seed was drawn by the site alone")
        lines += [
            f"order = list(range({game.players}))",
            "digest = hashlib.sha256(f'{seed}:seats'.encode()).digest()",
            "random.Random(int.from_bytes(digest[:16], 'big')).shuffle(order)",
            "print('seed', seed, 'seat -> join position', order)",
        ]
    opened = [entry for entry in commitments if entry["salt"] is not None]
    if opened:
        lines += ["", "def opens(commitment, salt, choice):"]
        lines += [
            "    text = json.dumps(choice, sort_keys=True, separators=(',', ':'))",
            "    return hashlib.sha256(f'{salt}:{text}'.encode()).hexdigest() == commitment",
            "",
        ]
        for entry in opened:
            choice = fairness_json(entry["choice"])
            lines.append(f'assert opens("{entry["commitment"]}", "{entry["salt"]}", {choice})')
        lines.append("print('every revealed choice is the one committed')")
    return "\n".join(lines) + "\n"


def fairness_json(value: Any) -> str:
    """A JSON value as a Python literal (``null`` → ``None``)."""
    import json

    return json.dumps(value, sort_keys=True).replace("null", "None").replace("true", "True").replace("false", "False")


@require_GET
def check_page(request: HttpRequest, game_id: int) -> HttpResponse:
    """The page “How you can check this game”, in the viewer's language."""
    access = play_selectors.game_access(game_id=game_id, user=request.user, session=request.session)
    if access is None or not access.may_view:
        raise Http404
    found = facts(access)
    names = {seat.number: seat.name for seat in access.seats}
    for entry in found["commitments"]:
        entry["name"] = names.get(entry["seat"], "")
        entry["choice_json"] = canonical(entry["choice"]) if entry["choice"] is not None else ""
    return render(request, "games/fairness.html", {"game": access.game, "facts": found})
