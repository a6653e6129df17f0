from django.apps import AppConfig


class BattlesConfig(AppConfig):
    name = "battles"
    label = "battles"
    verbose_name = "Battles on the tabletop"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Register the tasks with the Celery app in every process (they are queued by name,
        # campaign.services.queue). In a function, as Django wants: they import the models.
        from battles import tasks  # noqa: F401
