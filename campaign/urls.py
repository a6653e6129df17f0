from django.urls import path

from campaign import dice_views

urlpatterns = [
    path("campaigns/<uuid:code>/dice/", dice_views.campaign_dice, name="campaign_dice"),
    path("campaigns/<uuid:code>/organiser/reseed/", dice_views.reseed, name="reseed"),
]
