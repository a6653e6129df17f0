"""The calendar feeds' addresses (docs/calendar.md)."""

from django.urls import path

from feeds import views

urlpatterns = [
    path("calendar/<str:token>.ics", views.feed, name="calendar_feed"),
    path("calendar/seat/<uuid:code>/renew/", views.renew_seat, name="calendar_renew_seat"),
    path(
        "calendar/campaign/<uuid:code>/renew/",
        views.renew_organiser,
        name="calendar_renew_organiser",
    ),
]
