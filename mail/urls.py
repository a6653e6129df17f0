from django.urls import path, re_path

from mail import views

urlpatterns = [
    re_path(
        r"^emails/(?P<token>[A-Za-z0-9_:.\-]{1,200})/$",
        views.email_preferences,
        name="email_preferences",
    ),
    path(
        "campaigns/<uuid:code>/organiser/outbox/",
        views.campaign_outbox,
        name="campaign_outbox",
    ),
]
