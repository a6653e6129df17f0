"""The organiser's form of the club's channel (on the board; ``organiser.views.club_hook``)."""

from django import forms

from campaign.services.actionlog import OrganiserError
from club.services import channel


class HookForm(forms.Form):
    hook = forms.CharField(
        label="The club's channel: a webhook address (Discord, Slack, Matrix hookshot)",
        required=False,
        max_length=channel.MAX_URL,
        help_text="Only the campaign's public news is posted to it: phases resolved, battle "
        "dates, the caretaker, the season's end. Leave it empty to switch it off.",
        widget=forms.URLInput(attrs={"placeholder": "https://discord.com/api/webhooks/…"}),
    )

    def clean_hook(self) -> str:
        try:
            return channel.check_hook(self.cleaned_data.get("hook", ""))
        except OrganiserError as exc:
            raise forms.ValidationError(str(exc)) from None
