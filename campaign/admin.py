from django.contrib import admin

from campaign.models import (
    BackupRun,
    Campaign,
    Event,
    Heartbeat,
    Invitation,
    OrganiserAction,
    PhaseWindow,
    Seat,
    StateVersion,
)


@admin.register(Heartbeat)
class HeartbeatAdmin(admin.ModelAdmin):
    list_display = ("source", "beat_at", "hostname", "eager")
    readonly_fields = ("source", "beat_at", "hostname", "eager")


@admin.register(BackupRun)
class BackupRunAdmin(admin.ModelAdmin):
    list_display = ("at", "written", "failed", "error")
    readonly_fields = ("at", "written", "failed", "error")


class SeatInline(admin.TabularInline):
    model = Seat
    fields = ("label", "power", "armies", "user", "reserve", "absent_until", "missed_in_a_row")
    extra = 0


@admin.register(Campaign)
class CampaignAdmin(admin.ModelAdmin):
    list_display = ("name", "organiser", "status", "paused", "archived", "created")
    list_filter = ("status", "paused", "archived")
    search_fields = ("name", "code")
    readonly_fields = ("code", "seed", "created", "started", "ended")
    inlines = [SeatInline]


@admin.register(Invitation)
class InvitationAdmin(admin.ModelAdmin):
    list_display = ("email", "seat", "created", "accepted_at")
    readonly_fields = ("token",)


@admin.register(PhaseWindow)
class PhaseWindowAdmin(admin.ModelAdmin):
    list_display = ("campaign", "turn", "phase", "status", "deadline")
    list_filter = ("status", "phase")


@admin.register(StateVersion)
class StateVersionAdmin(admin.ModelAdmin):
    """State versions are immutable: resolution writes them, the organiser's roll back removes
    them. The admin only reads."""

    list_display = ("campaign", "number", "turn", "resolved_phase", "phase", "created")

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_add_permission(self, request) -> bool:
        return False


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ("campaign", "version", "rule", "kind", "public", "text")
    list_filter = ("kind", "public")

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(OrganiserAction)
class OrganiserActionAdmin(admin.ModelAdmin):
    list_display = ("campaign", "created", "kind", "text")
    list_filter = ("kind",)
