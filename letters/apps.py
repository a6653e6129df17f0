from django.apps import AppConfig
from django.db.models.signals import post_save


class PressConfig(AppConfig):
    name = "letters"
    label = "press"
    verbose_name = "Letters between seats"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # A letter written is news for the seats' "since you last looked" (campaign.services.news).
        from campaign.services import news
        from letters.models import Letter

        post_save.connect(news.on_saved, sender=Letter, dispatch_uid="news-letter")
