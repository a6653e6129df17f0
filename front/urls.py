from django.urls import path

from front import views

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("readyz", views.readyz, name="readyz"),
    path("favicon.ico", views.favicon, name="favicon"),
]
