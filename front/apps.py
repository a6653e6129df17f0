from django.apps import AppConfig


class FrontConfig(AppConfig):
    name = "front"
    verbose_name = "The site's front door: the home page, /healthz, the error pages"
