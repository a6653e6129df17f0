"""The player's push notifications: the service worker, a browser's subscription (posted by
``push/push.js``), the seat's choices and the list of the player's devices."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from campaign.models import Seat
from push.forms import PushChoiceForm, SubscriptionForm
from push.models import PushDevice, PushKind, PushSetting
from push.services import delivery, keys


def _own_seat(request: HttpRequest, code) -> Seat:
    """The signed-in player's own seat (anyone else's: 404, as if it did not exist)."""
    return get_object_or_404(Seat.objects.select_related("campaign"), code=code, user=request.user)


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker, served from the site's root so its scope is the whole site."""
    response = HttpResponse(
        render_to_string("push/sw.js"), content_type="text/javascript; charset=utf-8"
    )
    response["Cache-Control"] = "no-cache"  # a new version is picked up at the next visit
    return response


@login_required
def push_settings(request: HttpRequest, code) -> HttpResponse:
    """The seat's push choices and the player's devices, each removable."""
    seat = _own_seat(request, code)
    setting = PushSetting.objects.filter(seat=seat).first()
    form = PushChoiceForm(
        request.POST or None, initial={"kinds": setting.kinds if setting else PushKind.values}
    )
    if request.method == "POST" and form.is_valid():
        PushSetting.objects.update_or_create(
            seat=seat, defaults={"kinds": form.cleaned_data["kinds"]}
        )
        messages.success(request, "Saved.")
        return redirect("push:settings", seat.code)
    return render(
        request,
        "push/settings.html",
        {
            "seat": seat,
            "campaign": seat.campaign,
            "form": form,
            "devices": PushDevice.objects.filter(user=request.user),
            "public_key": keys.public_key(),
        },
    )


@login_required
@require_POST
def subscribe(request: HttpRequest, code) -> JsonResponse:
    """Keep this browser's subscription (``PushSubscription.toJSON()``) for the player."""
    _own_seat(request, code)
    form = SubscriptionForm(request.POST)
    if not form.is_valid():
        return JsonResponse({"errors": form.errors}, status=400)
    try:
        device = delivery.remember(request.user, **form.cleaned_data, now=timezone.now())
    except delivery.TooManyDevices as exc:
        return JsonResponse({"errors": {"endpoint": [str(exc)]}}, status=400)
    return JsonResponse({"device": str(device.code)}, status=201)


@login_required
@require_POST
def unsubscribe(request: HttpRequest, code) -> JsonResponse:
    """This browser unsubscribed: forget its subscription (if it is the player's)."""
    _own_seat(request, code)
    gone, _ = PushDevice.objects.filter(
        user=request.user, endpoint=request.POST.get("endpoint", "")
    ).delete()
    return JsonResponse({"forgotten": gone})


@login_required
@require_http_methods(["POST"])
def remove_device(request: HttpRequest, code, device_code) -> HttpResponse:
    """Remove one of the player's devices from the list."""
    seat = _own_seat(request, code)
    device = get_object_or_404(PushDevice, code=device_code, user=request.user)
    device.delete()
    messages.success(
        request, f"{device.name or 'The device'} removed: it gets no more notifications."
    )
    return redirect("push:settings", seat.code)
