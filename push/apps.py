from django.apps import AppConfig


class PushConfig(AppConfig):
    name = "push"
    label = "push"
    verbose_name = "Web push notifications"

    def ready(self) -> None:
        # The task by name in every process (queued by name on commit), and the receivers of
        # what the campaign and the letters tell (campaign.signals, the letters' addressees).
        # In a function, as Django wants: they import the models, not ready before this.
        from django.db.models.signals import m2m_changed

        from campaign import signals
        from letters.models import Letter
        from push import tasks  # noqa: F401
        from push.services import listening

        signals.told.connect(listening.on_told, dispatch_uid="push")
        signals.version_stored.connect(listening.on_version_stored, dispatch_uid="push")
        m2m_changed.connect(
            listening.on_letter_addressed, sender=Letter.recipients.through, dispatch_uid="push"
        )
