from django.urls import path, re_path

from maps import tile_views, views

app_name = "maps"

urlpatterns = [
    path("", views.map_page, name="page"),
    path("map.png", views.map_png, name="png"),
    re_path(
        r"^tiles/(?P<stamp>[0-9a-f]{12})/(?P<z>-?\d)/(?P<x>\d{1,3})/(?P<y>\d{1,3})\.png$",
        tile_views.tile,
        name="tile",
    ),
]
