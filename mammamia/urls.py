from allauth.account.decorators import secure_admin_login
from django.conf import settings
from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView

from mammamia import views

# The admin signs in through allauth's login: the same rate limits, sign-in codes and verified addresses.
admin.site.login = secure_admin_login(admin.site.login)

urlpatterns = [
    path("", views.home, name="home"),
    path("favicon.ico", views.favicon, name="favicon"),
    path("rules/<slug:slug>/", views.rules, name="rules"),
    path("help/keyboard/", views.keyboard_help, name="keyboard-help"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("accounts/", include("allauth.urls")),
    path("", include("trust.urls")),
    path("", include("profiles.urls")),
    path("", include("games.urls")),
    path("", include("notifications.urls")),
    path("", include("live.urls")),
    path("", include("competition.urls")),
    path("api/", include("competition.api_urls")),
    path("", include("together.urls")),
    path("", include("reach.urls")),
    path("api/", include("games.api_urls")),
    path("api/", include("trust.api_urls")),
    path("api/", include("profiles.api_urls")),
    path("api/", include("together.api_urls")),
    path("api/", include("reach.api_urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("admin/", admin.site.urls),
]

if settings.DEBUG:
    urlpatterns += [
        path("dev/mail/", views.dev_mail_list, name="dev-mail"),
        path("dev/mail/<str:name>/", views.dev_mail_detail, name="dev-mail-detail"),
        path("dev/mail/<str:name>/html/", views.dev_mail_html, name="dev-mail-html"),
    ]
