"""Hidden number: the smallest game with a hidden fact, kept to prove that a game plugs in.

Two players each get a secret number from the seed. Taking turns, a player guesses the other's
number (any number not guessed before) and is told "higher" or "lower"; whoever names the other's
number first wins. A seat sees its
own number and every hint; nobody sees the other's number before the end.

Pure like every engine (``shared/rules/ENGINE.md``): no Django, no I/O, no clock, no global
randomness. Registered only by the test settings (``tests/settings.py``).
"""

from __future__ import annotations

from typing import Any

from games.engines.base import Engine, IllegalMove, Move, State, View, copy_state, next_rng


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _target(seat: int) -> int:
    """The seat whose number ``seat`` is guessing."""
    return 1 - seat


def _candidates(state: State, seat: int) -> range:
    """The numbers still possible for the other seat's secret, from the hints ``seat`` got."""
    low, high = state["bounds"][seat]
    return range(low, high + 1)


def _guessable(state: State, seat: int) -> list[int]:
    """Any number from 1 to top that ``seat`` has not guessed yet (hints are advice, not a rule)."""
    guessed = set(state["guessed"][seat])
    return [n for n in range(1, state["options"]["top"] + 1) if n not in guessed]


class HiddenNumber(Engine):
    slug = "hidden-number"
    name = "Hidden number"
    min_players = 2
    max_players = 2
    options = {"top": [100, 20, 1]}  # 1: the first guess is the only one (a forced move at the start)

    def setup(self, players: int, seed: int, options: dict[str, Any] | None = None) -> State:
        self.check_players(players)
        options = self.check_options(options)
        deal = options.pop("deal", None)
        state: State = {"seed": seed, "rng": 0, "options": options, "turn": 0, "winner": None, "log": []}
        if deal is not None:
            if not (isinstance(deal, list) and len(deal) == 2 and all(_is_int(n) for n in deal)):
                raise ValueError("deal: two secret numbers")
            if not all(1 <= n <= options["top"] for n in deal):
                raise ValueError("deal: numbers within 1 and top")
            secrets = list(deal)
        else:
            rng = next_rng(state)
            secrets = [rng.randint(1, options["top"]) for _ in range(players)]
        state["secrets"] = secrets
        state["bounds"] = [[1, options["top"]] for _ in range(players)]
        state["guessed"] = [[] for _ in range(players)]
        state["log"].append({"type": "start", "top": options["top"]})
        return state

    def waiting_for(self, state: State) -> list[int]:
        return [] if self.is_over(state) else [state["turn"]]

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        if not _is_int(seat) or seat not in self.waiting_for(state):
            return []
        return [{"type": "guess", "number": n} for n in _guessable(state, seat)]

    def play(self, state: State, seat: int, move: Move) -> State:
        check_guess(self, state, seat, move)
        state = copy_state(state)
        number, secret = move["number"], state["secrets"][_target(seat)]
        state["guessed"][seat].append(number)
        if number == secret:
            state["winner"] = seat
            state["log"].append({"type": "hit", "seat": seat, "number": number})
            state["log"].append({"type": "reveal", "numbers": list(state["secrets"])})
            return state
        hint = "higher" if secret > number else "lower"
        bounds = state["bounds"][seat]
        if hint == "higher":
            bounds[0] = max(bounds[0], number + 1)
        else:
            bounds[1] = min(bounds[1], number - 1)
        state["log"].append({"type": "guess", "seat": seat, "number": number, "hint": hint})
        state["turn"] = _target(seat)
        return state

    def view(self, state: State, seat: int | None) -> View:
        over = self.is_over(state)
        return {
            "seat": seat,
            "round": 1,
            "waiting_for": self.waiting_for(state),
            "scores": [int(state["winner"] == s) for s in range(2)],
            "top": state["options"]["top"],
            "my_number": state["secrets"][seat] if seat is not None else None,
            "bounds": [list(bounds) for bounds in state["bounds"]],
            "numbers": list(state["secrets"]) if over else None,
            "winner": state["winner"],
            "log": [dict(event) for event in state["log"]],
        }

    def is_over(self, state: State) -> bool:
        return state["winner"] is not None

    def outcome(self, state: State) -> list[dict[str, int]]:
        if not self.is_over(state):
            raise ValueError("the game is not over")
        winner = state["winner"]
        return [{"seat": s, "rank": 1 if s == winner else 2, "score": int(s == winner)} for s in range(2)]

    def bot_move(self, state: State, seat: int) -> Move:
        """Halve the candidates: the middle one."""
        candidates = _candidates(state, seat)
        return {"type": "guess", "number": candidates[len(candidates) // 2]}


def check_guess(engine: HiddenNumber, state: State, seat: Any, move: Any) -> None:
    """A guess is a number still possible for the other's secret, by the seat whose turn it is."""
    if engine.is_over(state):
        raise IllegalMove("The game is over.", code="game_over")
    if not _is_int(seat) or seat not in engine.waiting_for(state):
        raise IllegalMove("It is not your move now.", code="not_your_turn")
    if not isinstance(move, dict) or move.get("type") != "guess" or set(move) != {"type", "number"}:
        raise IllegalMove("That is not a move.", code="not_a_move")
    number = move["number"]
    if not _is_int(number) or number not in _guessable(state, seat):
        top = state["options"]["top"]
        raise IllegalMove(f"Guess a number from 1 to {top} you have not guessed yet.", code="not_guessable", top=top)


engine = HiddenNumber()
