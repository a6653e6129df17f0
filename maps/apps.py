from django.apps import AppConfig


class MapsConfig(AppConfig):
    name = "maps"
    verbose_name = "Maps"

    def ready(self) -> None:
        # Register the map tasks with the Celery app in every process: the picture queue asks
        # for them by name (campaign.services.queue); and draw each new version's pictures
        # (campaign.signals). In a function, as Django wants: the tasks and the picture queue
        # import the models, which are not ready before this.
        from campaign import signals
        from maps import picture_queue, tasks  # noqa: F401

        signals.version_stored.connect(picture_queue.on_version_stored, dispatch_uid="maps")
