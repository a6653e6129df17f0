from django.apps import AppConfig


class SeasonsConfig(AppConfig):
    name = "seasons"
    verbose_name = "The season as a whole: its file, backups, the war, the book, the next year"

    def ready(self) -> None:
        # The tasks registered in every process (queued by name), and the book asked for when
        # a campaign ends (campaign.signals). In a function: they import the models.
        from campaign import signals
        from seasons import tasks  # noqa: F401
        from seasons.services import bookfiles

        signals.campaign_ended.connect(bookfiles.on_campaign_ended, dispatch_uid="seasons")
