from django.urls import path

from push import views

app_name = "push"

urlpatterns = [
    path("sw.js", views.service_worker, name="service_worker"),
    path("play/<uuid:code>/notifications/", views.push_settings, name="settings"),
    path("play/<uuid:code>/notifications/subscribe/", views.subscribe, name="subscribe"),
    path("play/<uuid:code>/notifications/unsubscribe/", views.unsubscribe, name="unsubscribe"),
    path(
        "play/<uuid:code>/notifications/devices/<uuid:device_code>/remove/",
        views.remove_device,
        name="remove_device",
    ),
]
