from django.apps import AppConfig


class FeedsConfig(AppConfig):
    name = "feeds"
    label = "feeds"
    verbose_name = "Calendar feeds"
    default_auto_field = "django.db.models.BigAutoField"
