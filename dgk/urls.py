from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("play/", include("orders.urls")),
    path("map/", include("maps.urls")),
    path("", include("campaign.urls")),
]
