from django.apps import AppConfig


class MailConfig(AppConfig):
    name = "mail"
    verbose_name = "Emails: composing and sending every email the site sends"

    def ready(self) -> None:
        # Register the tasks with the Celery app in every process (they are queued by name,
        # campaign.services.queue). In a function, as Django wants: they import the models.
        from mail import tasks  # noqa: F401
