from django.urls import path

from letters import views

urlpatterns = [
    path("play/<uuid:code>/letters/", views.letters, name="letters"),
    path("campaigns/<uuid:code>/organiser/letters/", views.all_letters, name="all_letters"),
]
