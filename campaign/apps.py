from django.apps import AppConfig
from django.db.models.signals import post_save


class CampaignConfig(AppConfig):
    name = "campaign"
    verbose_name = "Campaigns"

    def ready(self) -> None:
        # Register the tasks with the Celery app in every process (web, worker, commands):
        # services queue them by name (campaign.services.queue). An import in a function, as
        # Django wants: the tasks import the models, which are not ready before this.
        from campaign import tasks  # noqa: F401
        from campaign.models import OrganiserAction
        from campaign.services import news

        post_save.connect(news.on_saved, sender=OrganiserAction, dispatch_uid="news-action")
