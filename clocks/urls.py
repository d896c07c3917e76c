from django.urls import path

from clocks import views

app_name = "clocks"

urlpatterns = [
    path("settings/quiet-days/", views.quiet_days, name="quiet-days"),
]
