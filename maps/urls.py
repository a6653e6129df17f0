from django.urls import path

from maps import views

app_name = "maps"

urlpatterns = [
    path("", views.map_page, name="page"),
    path("map.png", views.map_png, name="png"),
]
