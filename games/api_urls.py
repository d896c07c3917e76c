from django.urls import path
from drf_spectacular.views import SpectacularSwaggerView

urlpatterns = [
    path("docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
]
