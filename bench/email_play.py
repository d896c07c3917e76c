"""Whole games played by e-mail replies alone (issue 34): e-mails and replies per game, per move, and CPU per move.

Two players who never open a page play a 2-player game of each engine to the end by answering their e-mails,
in this process (``reach.replies.handle``, the inbound listener's own entry point, with real MIME messages; the
outbox delivered by ``notifications.delivery`` to Django's in-memory mail backend). Each player answers after
the hold (``TURN_NOTIFY_HOLD_SECONDS``, 180 s: the slow correspondence player, the case that costs the most
e-mails), as they read them: the codes from the e-mail's text, a letter where it asks for one, and — where the
e-mail offers it — every step of a Konamon! card in one line (``whole``). The baseline of the same run answers
one code per reply (``one``: what e-mail play was before). A turn the e-mail cannot take ("make this one on the
site") is played on the site and counted.

Used by ``python -m bench`` (part ``email``) and by ``tests/reach/test_email_play_whole_games.py``. Reads the
e-mails only from their text, so the same harness runs against an older tree to measure "before".
"""

from __future__ import annotations

import random
import re
import time
from dataclasses import dataclass, field
from email.message import EmailMessage

CODE_RE = re.compile(r"(?:^|   )(\d+) = (.+?)(?=   \d+ = |$)", re.MULTILINE)
LETTERS_RE = re.compile(r"\b([A-Z]) = ")
PARTS_MARK = "write the letter of your choice"
# Django's in-memory mail backend, however the site's mail is configured (the bench: an SMTP catcher).
IN_MEMORY_MAIL = {"EMAIL_BACKEND": "django.core.mail.backends.locmem.EmailBackend",
                  "MAILERS": {"default": {"BACKEND": "django.core.mail.backends.locmem.EmailBackend"}}}
SEVERAL_MARK = "You may write several steps on that line"


@dataclass
class Tally:
    game: str
    strategy: str
    moves: int = 0  # moves the players chose (forced moves and bots aside)
    replies: int = 0
    refused_replies: int = 0
    on_site: int = 0  # turns the e-mail could not take
    emails: dict[str, int] = field(default_factory=dict)  # sent, by kind
    refusals: list[str] = field(default_factory=list)  # why, the first few (what the answers said)
    reply_cpu: float = 0.0  # process CPU seconds inside replies.handle (the move, its e-mails queued)
    finished: bool = False

    @property
    def emails_total(self) -> int:
        return sum(self.emails.values())

    def as_dict(self) -> dict:
        return {
            "game": self.game, "strategy": self.strategy, "moves": self.moves, "replies": self.replies,
            "refused_replies": self.refused_replies, "refusals": self.refusals, "on_site": self.on_site,
            "emails": self.emails_total,
            "emails_by_kind": dict(sorted(self.emails.items())), "finished": self.finished,
            "emails_per_move": round(self.emails_total / max(1, self.moves), 3),
            "replies_per_move": round(self.replies / max(1, self.moves), 3),
            "reply_cpu_ms_per_reply": round(1000 * self.reply_cpu / max(1, self.replies), 2),
            # Per move played by reply (a Konamon! card's reply plays several), the turns made on the site aside.
            "reply_cpu_ms_per_move": round(1000 * self.reply_cpu / max(1, self.moves - self.on_site), 2),
        }


def _deliver_all() -> None:
    """The hold is over (the players answer slower than it): every pending row due now, then delivered."""
    from django.utils import timezone

    from notifications import delivery
    from notifications.models import OutboxEmail

    pending = OutboxEmail.objects.filter(status=OutboxEmail.Status.PENDING)
    pending.update(next_attempt_at=timezone.now())
    for pk in pending.values_list("pk", flat=True):
        delivery.deliver(pk)


def _reply_bytes(message, line: str) -> bytes:
    answer = EmailMessage()
    answer["From"] = message.to[0]
    answer["To"] = message.reply_to[0]
    answer["Subject"] = "Re: " + message.subject
    quoted = "> " + message.body[:300].replace("\n", "\n> ")
    answer.set_content(f"{line}\n\nOn Monday, mammamia wrote:\n{quoted}\n")
    return answer.as_bytes()


def _codes(body: str) -> list[tuple[str, str]]:
    return [(code, label.strip()) for code, label in CODE_RE.findall(body)]


def _card_line(rng: random.Random, menu, view: dict) -> str | None:
    """Every step of the card being carried out, as a player who reads the board writes them: what the stock, the
    boards and the customers allow, one after the other (the e-mail's codes, ``menu``: the same list)."""
    working = view.get("working") or {}
    left = working.get("left") or {}
    boards = {name: dict(counts) for name, counts in (view.get("boards") or {}).items()}
    stock = dict(view.get("stock") or {})
    needs = {}
    for option in menu.options:
        move = option.moves[""]
        if move["type"] == "hand_over":
            needs[(move["product"], move["customer"])] = 1
    processes = ("prep", "bake", "hand_over")
    current = processes.index(working.get("process", "prep"))
    words: list[str] = []
    for process in processes[current:]:
        for _step in range(int(left.get(process, 0) or 0)):
            possible = []
            for option in menu.options:
                move = option.moves[""]
                if move["type"] != process:
                    continue
                product = move["product"]
                if process == "prep":
                    ok = stock.get(product, 0) > 0 and sum(boards["cooking"].values()) < 5
                elif process == "bake":
                    ok = boards["cooking"].get(product, 0) > 0 and sum(boards["stove"].values()) < 5
                else:
                    ok = boards["showcase"].get(product, 0) > 0 and needs.get((product, move["customer"]), 0) > 0
                if ok:
                    possible.append(option)
            if not possible:
                break
            option = rng.choice(possible)
            move = option.moves[""]
            product = move["product"]
            if process == "prep":
                stock[product] -= 1
                boards["cooking"][product] = boards["cooking"].get(product, 0) + 1
            elif process == "bake":
                boards["cooking"][product] -= 1
                boards["stove"][product] = boards["stove"].get(product, 0) + 1
            else:
                boards["showcase"][product] -= 1
                needs[(product, move["customer"])] -= 1
            words.append(option.code)
    return " ".join(words + [menu.stop]) if words else None


def _line(rng: random.Random, message, seat_view, strategy: str, game) -> str:
    body = message.body
    codes = _codes(body)
    if SEVERAL_MARK in body:  # a Konamon! card (only the new e-mails offer it): codes of steps possible now
        from games.ui.base import find_legal
        from reach.replies import reply_menu

        menu = reply_menu(game=game, view=seat_view.view, legal_moves=seat_view.legal_moves)
        if strategy == "whole":
            line = _card_line(rng, menu, seat_view.view)
            if line:
                return line
        possible = [o.code for o in menu.options if find_legal(o.moves[""], seat_view.legal_moves) is not None]
        return rng.choice(possible) if possible else menu.stop
    code, _label = rng.choice(codes)
    parts = next((line for line in body.splitlines() if PARTS_MARK in line), "")
    letters = LETTERS_RE.findall(parts)
    return code + (rng.choice(letters) if letters else "")


def play_game(slug: str, users, *, strategy: str = "whole", seed: int = 1, max_actions: int = 3000) -> Tally:
    """One 2-player game of ``slug`` (``users``: two fresh players, e-mail on, "once until I visit") played by
    replies alone; its tally. Runs with ``TURN_NOTIFY_HOLD_SECONDS`` = 180 and the in-memory mail backend."""
    from django.core import mail
    from django.db.models import Count
    from django.test.utils import override_settings

    from games.lobby import services as lobby
    from games.models import Game, GameStatus, Move, Seat, SeatView
    from games.play import services as play_services
    from notifications.models import OutboxEmail
    from reach import replies

    rng = random.Random(seed)
    tally = Tally(slug, strategy)
    with override_settings(TURN_NOTIFY_HOLD_SECONDS=180, **IN_MEMORY_MAIL):
        mail.outbox = []
        game = lobby.create_game(user=users[0], engine_slug=slug, players=2, bots=0,
                                 visibility="private")
        lobby.join_game(user=users[1], game_id=game.pk, invite=lobby.invite_token(game))
        answered: set[str] = set()
        refused: set[str] = set()
        for _action in range(max_actions):
            _deliver_all()
            game = Game.objects.get(pk=game.pk)
            if game.status != GameStatus.ACTIVE:
                tally.finished = game.status == GameStatus.FINISHED
                break
            seats = list(Seat.objects.filter(game=game, awaited=True, is_bot=False).select_related("user"))
            if not seats:
                break
            seat = rng.choice(seats)
            message = next((m for m in reversed(mail.outbox) if m.to == [seat.user.email] and m.reply_to
                            and m.reply_to[0] not in answered), None)
            view = SeatView.objects.get(game=game, seat_number=seat.number)
            if message is None:  # "make this one on the site" (or no e-mail at all): the page it is
                play_services.check_play_move(user=seat.user, game_id=game.pk, move=rng.choice(view.legal_moves),
                                              expected_version=game.version)
                tally.on_site += 1
                continue
            # A card line refused (a step the board did not allow): the player answers that e-mail one code at a time.
            line = _line(rng, message, view, "one" if message.reply_to[0] in refused else strategy, game)
            started = time.process_time()
            result = replies.handle(_reply_bytes(message, line), recipients=[message.reply_to[0]],
                                    mail_from=seat.user.email)
            tally.reply_cpu += time.process_time() - started
            tally.replies += 1
            if result.outcome == "played":
                answered.add(message.reply_to[0])
            else:
                tally.refused_replies += 1  # the answer lists the codes again (same address: nothing was used)
                refused.add(message.reply_to[0])
                if len(tally.refusals) < 5:
                    tally.refusals.append(f"{line}: {result.outcome} {result.detail}")
        _deliver_all()
        tally.moves = Move.objects.filter(game=game, made_by="player").count()
        sent = OutboxEmail.objects.filter(game=game, status=OutboxEmail.Status.SENT)
        for kind, count in sent.values_list("kind").annotate(n=Count("pk")).values_list("kind", "n"):
            tally.emails[kind] = count
    return tally


def service_cpu_per_move(slug: str, users, *, seed: int = 1, moves: int = 60) -> float:
    """The baseline of the CPU figure: CPU seconds per move played straight through the services (no e-mail read
    or parsed), the same game's first ``moves`` moves, e-mails queued as usual."""
    from django.test.utils import override_settings

    from games.lobby import services as lobby
    from games.models import Game, Seat, SeatView
    from games.play import services as play_services

    rng = random.Random(seed)
    spent, played = 0.0, 0
    with override_settings(TURN_NOTIFY_HOLD_SECONDS=180, **IN_MEMORY_MAIL):
        game = lobby.create_game(user=users[0], engine_slug=slug, players=2, bots=0,
                                 visibility="private")
        lobby.join_game(user=users[1], game_id=game.pk, invite=lobby.invite_token(game))
        for _ in range(moves):
            game = Game.objects.get(pk=game.pk)
            seat = Seat.objects.filter(game=game, awaited=True, is_bot=False).select_related("user").first()
            if seat is None:
                break
            legal = SeatView.objects.get(game=game, seat_number=seat.number).legal_moves
            started = time.process_time()
            play_services.check_play_move(user=seat.user, game_id=game.pk, move=rng.choice(legal),
                                          expected_version=game.version)
            spent += time.process_time() - started
            played += 1
    return spent / max(1, played)


SLUGS = ("mamma-mia", "konamon", "marumiere")


def _players(tag: str, count: int = 2) -> list:
    from django.contrib.auth import get_user_model

    user_model = get_user_model()
    stamp = f"{tag}{int(time.time() * 1000) % 10**9}"
    return [user_model.objects.create_user(username=f"mail{stamp}{n}", email=f"mail{stamp}{n}@bench.example",
                                           password=None) for n in range(count)]


def run(*, quick: bool = False, log=print) -> dict:
    """``make bench``'s part ``email``: for each game, a whole game by replies the new way (``whole``: a card in one
    line, a letter for the refill) against the baseline of the same run (``one``: one code per reply), and the CPU
    of a move by reply against a move straight through the services. Celery runs in this process (eager) so the
    stack's workers never take these rows: every e-mail is read where it was sent."""
    from django.test.utils import override_settings

    from mammamia.celery import app as celery_app

    saved = celery_app.conf.task_always_eager, celery_app.conf.task_eager_propagates
    celery_app.conf.task_always_eager, celery_app.conf.task_eager_propagates = True, True
    games = {}
    try:
        with override_settings(INBOUND_MAIL_DOMAIN="reply.bench.example", BOT_MOVE_DELAY_SECONDS=0):
            for slug in SLUGS if not quick else ("marumiere",):
                whole = play_game(slug, _players("w"), strategy="whole", seed=7)
                one = play_game(slug, _players("o"), strategy="one", seed=7)
                service = service_cpu_per_move(slug, _players("s"), seed=7, moves=20 if quick else 60)
                row = {"whole": whole.as_dict(), "one": one.as_dict(),
                       "service_cpu_ms_per_move": round(1000 * service, 2)}
                row["ratios"] = {
                    "emails_per_move": round(whole.emails_total / max(1, whole.moves)
                                             / max(1e-9, one.emails_total / max(1, one.moves)), 2),
                    "replies_per_move": round(whole.replies / max(1, whole.moves)
                                              / max(1e-9, one.replies / max(1, one.moves)), 2),
                    "cpu_per_move_by_reply_vs_service": round(
                        row["whole"]["reply_cpu_ms_per_move"] / max(1e-9, row["service_cpu_ms_per_move"]), 2),
                }
                games[slug] = row
                log(f"  {slug}: {whole.replies} replies, {whole.emails_total} e-mails for {whole.moves} moves "
                    f"(one code per reply: {one.replies}, {one.emails_total} for {one.moves})")
    finally:
        celery_app.conf.task_always_eager, celery_app.conf.task_eager_propagates = saved
    return {"games": games}
