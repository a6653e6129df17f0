from django.urls import path

from club import views

app_name = "club"
urlpatterns = [
    path("club/record/", views.my_record, name="record"),
    path("campaigns/<uuid:code>/club/roster/", views.campaign_roster, name="roster"),
]
