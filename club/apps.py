from django.apps import AppConfig
from django.db.models.signals import post_save


class ClubConfig(AppConfig):
    name = "club"
    label = "club"
    verbose_name = "The club: its channel (an outgoing webhook) and its roster of players"

    def ready(self) -> None:
        # The tasks registered in every process (queued by name), and the club's channel told
        # what the campaign tells (campaign.signals). In a function: they import the models.
        from campaign import signals
        from campaign.models import OrganiserAction
        from club import tasks  # noqa: F401
        from club.services import channel
        from seasons import signals as season_signals

        signals.version_stored.connect(channel.on_version_stored, dispatch_uid="club")
        signals.campaign_ended.connect(channel.on_campaign_ended, dispatch_uid="club")
        signals.told.connect(channel.on_told, dispatch_uid="club")
        season_signals.war_made_public.connect(channel.on_war_public, dispatch_uid="club")
        post_save.connect(channel.on_action_saved, sender=OrganiserAction, dispatch_uid="club")
