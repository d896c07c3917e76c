"""Signals of the games platform, for notifications (issue 7) and anything else that reacts to play.

Every signal is sent INSIDE the database transaction that made the change, so
a receiver can write its own rows (an e-mail outbox) atomically with it: if the
transaction rolls back, the receiver's rows vanish too. Receivers must
therefore be quick, must not send e-mail or call the network themselves (queue
with ``transaction.on_commit`` instead) and must not raise unless they mean to
undo the move. The sender is always ``games.models.Game``.

Need to know: a receiver that describes the game to a person must build the
text from that person's ``SeatView`` (``games.play.selectors.seat_view_for``) or
that person's own log (``seat_logs`` below, ``games.history.selectors.viewer_log``),
never from ``GameState``.

``game_started(game, seats)``
    The last seat was filled: seat numbers and colours are drawn, the engine's
    state and every ``SeatView`` exist, ``game.status == "active"``. ``seats``
    lists every ``Seat`` in seat order (``seat.awaited`` tells who moves first).
    ``game_advanced`` is sent too, right after, for the seats awaited at start.

``game_advanced(game, newly_awaited_seats, moves, seat_views, seat_logs)``
    After each applied move (``moves``: the new ``Move`` rows, oldest first;
    empty for the start of the game), the final move included.
    ``newly_awaited_seats``: the ``Seat`` rows whose input is awaited now and
    either was not awaited before these moves, or made one of these moves and
    is awaited again (its turn went on: a Konamon! card worked one step at a
    time, a Mamma Mia! decision right after its turn). A seat that stays
    awaited without having moved (a Konamon! player who has not chosen yet
    while others chose) is not in the list: it was told already. Bot seats are
    included (``seat.is_bot``); skip them for e-mail. ``seat.awaited_since`` is
    this moment for every listed seat; empty after the final move (then
    ``game_finished`` follows). ``seat_views``: the fresh ``SeatView`` rows
    just written, by seat number (``None``: spectators); ``seat_logs``: each
    viewer's whole engine log (not stored on the rows), same keys, when the
    move computed it — use the one of the person you write to, so you need not
    read them again. It is empty when the engine's ``per_event_log`` let the
    move compute only each viewer's new events: then the row's ``log_tail``
    holds the last events of that log (it ends at ``log_size``), and
    ``games.history.selectors.viewer_log`` derives the whole of it.

``game_finished(game)``
    The game has ended: ``game.outcome`` holds the ranking
    (``[{"seat", "rank", "score"}]``), ``game.revealed_seed`` the seed, each
    ``Seat`` its ``final_rank`` / ``final_score``; no seat is awaited.

``game_cancelled(game)``
    The creator cancelled the game before its start.

``invitation_created(invitation)``
    A user was invited by username (``invitation.user``, ``invitation.game``,
    ``invitation.invited_by``). Not sent for invitation links.

``invitation_declined(invitation)``
    The invited user declined (``invitation.status`` is "declined" now); a declined rematch is
    cancelled by ``together`` from here.

``seat_timed_out(game, seat, dropped_out, moves, log_from, seat_view)``
    ``services.play_timeout_move`` played for ``seat`` because its time ran
    out; ``dropped_out`` is True when this was its third timeout and the bot
    has taken over the seat for good. ``moves``: the ``Move`` rows the bot made
    for the seat (``made_by == "timeout"``); ``seat_view``: the seat's fresh
    ``SeatView`` row, whose log from position ``log_from`` on is what those
    moves told the seat (what the bot played for it).
"""

from django.dispatch import Signal

game_started = Signal()
game_advanced = Signal()
game_finished = Signal()
# game_abandoned(game): a game ended without a result (called off by its players, together.services), inside
# the transaction that ends it. No ranking: what counts finished games (leagues) learns it is over.
game_abandoned = Signal()
game_cancelled = Signal()
invitation_created = Signal()
invitation_declined = Signal()
seat_timed_out = Signal()
