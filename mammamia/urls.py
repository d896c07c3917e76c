from django.conf import settings
from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView

from mammamia import views

urlpatterns = [
    path("", views.home, name="home"),
    path("rules/<slug:slug>/", views.rules, name="rules"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("accounts/", include("allauth.urls")),
    path("", include("accounts.urls")),
    path("", include("games.urls")),
    path("", include("notifications.urls")),
    path("", include("reach.urls")),
    path("api/", include("games.api_urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("admin/", admin.site.urls),
]

if settings.DEBUG:
    urlpatterns += [
        path("dev/mail/", views.dev_mail_list, name="dev-mail"),
        path("dev/mail/<str:name>/", views.dev_mail_detail, name="dev-mail-detail"),
    ]
