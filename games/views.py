from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def my_games(request: HttpRequest) -> HttpResponse:
    return render(request, "games/my_games.html", {})


def lobby(request: HttpRequest) -> HttpResponse:
    return render(request, "games/lobby.html", {})
