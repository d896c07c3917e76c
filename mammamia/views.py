"""Site pages that belong to no single app: home, rules, and the DEBUG mail viewer."""

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from games.engines import ENGINE_MODULES, get_engine


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html", {"engines": [get_engine(slug) for slug in ENGINE_MODULES]})


def rules(request: HttpRequest, slug: str) -> HttpResponse:
    if slug not in ENGINE_MODULES:
        raise Http404
    return render(request, f"rules/{slug}.html", {"slug": slug})


def dev_mail_list(request: HttpRequest) -> HttpResponse:
    raise Http404


def dev_mail_detail(request: HttpRequest, name: str) -> HttpResponse:
    raise Http404
