"""A mammamia API client in the standard library only: log in, wait for my turn, play a legal move.

    python docs/api_client_example.py http://127.0.0.1:8000 alice 'her password'            # one move
    python docs/api_client_example.py http://127.0.0.1:8000 alice 'her password' --until-end

It picks the first legal move; a real bot would choose better. What it relies on (docs/api.md):
a game answer's version, view and legal moves are of one version, so a move chosen from it and sent
with that version is stale (409) only if the game moved on for my seat in the meantime — then read the
game again and choose again. The idempotency key makes a retry after a lost answer harmless.
"""

from __future__ import annotations

import json
import sys
import time
import urllib.error
import urllib.request
import uuid


class ApiError(Exception):
    def __init__(self, status: int, body: dict) -> None:
        super().__init__(f"{status} {body.get('error')}: {body.get('detail')}")
        self.status, self.code = status, body.get("error")


class Client:
    def __init__(self, base_url: str, token: str | None = None) -> None:
        self.base_url, self.token = base_url.rstrip("/"), token

    def call(self, method: str, path: str, body: dict | None = None) -> dict | None:
        request = urllib.request.Request(self.base_url + path, method=method)  # noqa: S310 - the site's URL
        request.add_header("Accept", "application/json")
        if self.token:
            request.add_header("Authorization", f"Token {self.token}")
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            request.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(request, data=data, timeout=30) as response:  # noqa: S310
                raw = response.read()
        except urllib.error.HTTPError as error:
            # Every error under /api/ is {"error": code, "detail": message}.
            raise ApiError(error.code, json.loads(error.read() or b"{}")) from None
        return json.loads(raw) if raw else None

    def log_in(self, username: str, password: str) -> None:
        self.token = self.call("POST", "/api/token/", {"username": username, "password": password})["token"]

    def games_awaiting_me(self) -> list[dict]:
        """My games in progress that await my move (following `next` through every page)."""
        games, path = [], "/api/games/"
        while path:
            page = self.call("GET", path)
            games += [row["game"] for row in page["results"] if row["my_move"]]
            path = page["next"] and page["next"].removeprefix(self.base_url)
        return games


def play_one_move(client: Client, *, poll_seconds: float = 5.0) -> dict:
    """Wait until a game awaits my move, then play its first legal move; returns the game."""
    while True:
        for summary in client.games_awaiting_me():
            game = client.call("GET", f"/api/games/{summary['id']}/")
            if not game["my_move"]:
                continue  # it moved on since the list was read
            move = game["legal_moves"][0]
            body = {"move": move, "expected_version": game["version"], "idempotency_key": str(uuid.uuid4())}
            try:
                result = client.call("POST", f"/api/games/{summary['id']}/moves/", body)
            except ApiError as error:
                if error.code == "stale":  # the game moved on for me: read it again
                    continue
                raise
            print(f"game {summary['id']} ({summary['name']}): played {json.dumps(move)} -> version {result['version']}")
            return game["game"]
        time.sleep(poll_seconds)


def play_on(client: Client, game_id: int) -> None:
    """Play that game's moves (the first legal one each time) until it ends; print the ranking."""
    while True:
        game = client.call("GET", f"/api/games/{game_id}/")
        if game["game"]["status"] == "finished":
            ranking = sorted(game["game"]["outcome"], key=lambda row: row["rank"])
            print("finished:", ", ".join(f"seat {r['seat']}: rank {r['rank']}, {r['score']}" for r in ranking))
            return
        if not game["my_move"]:
            time.sleep(1.0)
            continue
        move, key = game["legal_moves"][0], str(uuid.uuid4())
        try:
            client.call(
                "POST",
                f"/api/games/{game_id}/moves/",
                {"move": move, "expected_version": game["version"], "idempotency_key": key},
            )
        except ApiError as error:
            if error.code != "stale":
                raise


def main(argv: list[str]) -> int:
    if len(argv) < 4:
        print(__doc__)
        return 2
    client = Client(argv[1])
    client.log_in(argv[2], argv[3])
    game = play_one_move(client)
    if "--until-end" in argv:
        play_on(client, game["id"])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
