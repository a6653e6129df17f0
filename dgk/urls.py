from django.contrib import admin
from django.urls import include, path

# One include per app (docs/architecture.md, "The apps"); every name is global but the
# battles', the orders', the maps' and the pushes' (their namespaces).
urlpatterns = [
    path("admin/", admin.site.urls),
    path("play/", include("orders.urls")),
    path("map/", include("maps.urls")),
    path("", include("front.urls")),
    path("", include("accounts.urls")),
    path("", include("organiser.urls")),
    path("", include("campaign.urls")),
    path("", include("seasons.urls")),
    path("", include("mail.urls")),
    path("", include("letters.urls")),
    path("", include("battles.urls")),
    path("", include("club.urls")),
    path("", include("push.urls")),
    path("", include("feeds.urls")),
]
