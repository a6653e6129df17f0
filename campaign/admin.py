from django.contrib import admin

from campaign.models import Heartbeat


@admin.register(Heartbeat)
class HeartbeatAdmin(admin.ModelAdmin):
    list_display = ("source", "beat_at", "hostname", "eager")
    readonly_fields = ("source", "beat_at", "hostname", "eager")
