from django.apps import AppConfig


class PressConfig(AppConfig):
    name = "letters"
    label = "press"
    verbose_name = "Letters between seats"
    default_auto_field = "django.db.models.BigAutoField"
