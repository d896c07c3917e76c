"""Reviews of finished games (issue 28): each person's decisions judged by the strong search, from that
seat's view at that moment only (``games.engines.review``), stored as one ``GameReview`` per seat.

Queued at a game's end (``schedule_review``) on the ``slow`` queue (settings ``CELERY_SLOW_QUEUE``: its own
worker, so reviews never wait ahead of moves, bots or e-mails). Bounded: ``GAME_REVIEW_ITERATIONS`` search
iterations per decision and at most ``GAME_REVIEW_DECISIONS`` decisions per seat (the first ones; the rest
are counted as not reviewed), so a game's review costs at most about ``players x decisions x iterations``
playouts. A game whose review never runs still ended normally: the review page says it is not ready.
"""

from __future__ import annotations

import time

from django.conf import settings
from django.db import transaction
from django.utils import translation

from games.engines.review import review_decision
from games.engines.search import has_search
from games.history.services import initial_state
from games.models import Game, GameReview, GameStatus, MadeBy, Move, Seat
from games.ui import get_ui

REVIEW_TASK = "games.tasks.review_finished_game"  # by name, like the bot task


def schedule_review(game: Game) -> None:
    """After commit, queue the review of ``game`` (just finished) if reviews are on and its game can search."""
    if not settings.GAME_REVIEWS or not has_search(game.engine):
        return
    game_id = game.pk

    def queue() -> None:
        from celery import current_app

        current_app.tasks[REVIEW_TASK].apply_async(args=[game_id], retry=True, retry_policy={"max_retries": 2})

    transaction.on_commit(queue, robust=True)  # a broker that is down must not undo the game's last move


def _labels(ui, view: dict, played: dict, best: dict | None) -> dict:
    """The played move (and the search's favourite) in words, from the seat's view then, in every language."""
    moves = [played] if best is None else [played, best]
    labels = {}
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            words = ui.move_labels(view=view, legal_moves=moves)
        labels[code] = {"played": words[0], **({"best": words[1]} if best is not None else {})}
    return labels


def review_game(*, game_id: int) -> int:
    """Review every person's decisions of finished game ``game_id`` not reviewed yet; the reviews written."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None or game.status != GameStatus.FINISHED or not has_search(game.engine):
        return 0
    people = set(Seat.objects.filter(game=game, user__isnull=False).values_list("number", flat=True))
    people -= set(GameReview.objects.filter(game=game).values_list("seat_number", flat=True))
    if not people:
        return 0
    engine, ui = game.engine, get_ui(game.engine_slug)
    iterations, most = settings.GAME_REVIEW_ITERATIONS, settings.GAME_REVIEW_DECISIONS
    entries: dict[int, list[dict]] = {seat: [] for seat in people}
    skipped = dict.fromkeys(people, 0)
    started = time.process_time()
    state = initial_state(game)
    for move in Move.objects.filter(game=game).order_by("sequence").iterator():
        seat = move.seat_number
        if seat in people and move.made_by == MadeBy.PLAYER and len(engine.legal_moves(state, seat)) > 1:
            if len(entries[seat]) >= most:
                skipped[seat] += 1
            else:
                view = engine.view(state, seat)  # what the seat could see when it chose: nothing more
                verdict = review_decision(
                    engine, view, seat, move.move, seed=f"{game.seed_sha256}:{move.sequence}", budget=iterations
                )
                best = verdict.best if verdict.mark != "good" else None
                entries[seat].append(
                    {
                        "sequence": move.sequence,
                        "mark": verdict.mark,
                        "loss": verdict.loss,
                        "played_value": verdict.played_value,
                        "best_value": verdict.best_value,
                        "labels": _labels(ui, view, move.move, best),
                    }
                )
        state = engine.play(state, seat, move.move)
    cpu_ms = round(1000 * (time.process_time() - started) / len(people))
    written = 0
    for seat in sorted(people):
        _review, created = GameReview.objects.get_or_create(
            game=game,
            seat_number=seat,
            defaults={"entries": entries[seat], "iterations": iterations, "skipped": skipped[seat], "cpu_ms": cpu_ms},
        )
        written += int(created)
    return written


def reviews_available(game: Game) -> bool:
    """Whether finished ``game`` gets reviews: they are on, and its game provides a sampler for the search."""
    return bool(settings.GAME_REVIEWS) and has_search(game.engine)


def review_of(*, game: Game, seat_number: int) -> GameReview | None:
    """The stored review of one seat, or None (not ready, or the game has none)."""
    return GameReview.objects.filter(game=game, seat_number=seat_number).first()


def entry_for_language(entry: dict) -> dict:
    """An entry with the labels of the active language (English when it has none)."""
    labels = entry.get("labels", {})
    chosen = labels.get(translation.get_language() or "en") or labels.get("en") or {}
    return {**entry, "played": chosen.get("played", ""), "best": chosen.get("best")}
