from django.apps import AppConfig


class BattlesConfig(AppConfig):
    name = "campaign.battles"
    label = "battles"
    verbose_name = "Battles on the tabletop"
    default_auto_field = "django.db.models.BigAutoField"
