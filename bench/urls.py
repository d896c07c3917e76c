"""The site's URLs plus the framework ceiling (bench only, never in production)."""

from django.urls import path

from bench import views
from mammamia.urls import urlpatterns as site_urlpatterns

urlpatterns = [
    path("bench/ceiling/<int:row>/", views.ceiling, name="bench-ceiling"),
    *site_urlpatterns,
]
