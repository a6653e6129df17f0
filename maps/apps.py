from django.apps import AppConfig


class MapsConfig(AppConfig):
    name = "maps"
    verbose_name = "Maps"

    def ready(self) -> None:
        # Register the map tasks with the Celery app in every process: the picture queue asks
        # for them by name (campaign.services.queue). In a function, as Django wants: the tasks
        # import the models, which are not ready before this.
        from maps import tasks  # noqa: F401
