from django.urls import path, re_path

from organiser import clock_views, views

urlpatterns = [
    path("campaigns/", views.my_campaigns, name="campaigns"),
    path("campaigns/new/", views.new_campaign, name="new_campaign"),
    path("campaigns/<uuid:code>/setup/", views.campaign_setup, name="campaign_setup"),
    path("campaigns/<uuid:code>/setup/invite/", views.invite, name="invite"),
    re_path(
        r"^campaigns/(?P<code>[0-9a-f-]{36})/setup/invitation/(?P<token>[A-Za-z0-9_-]{1,64})/$",
        views.invitation,
        name="invitation",
    ),
    path("campaigns/<uuid:code>/start/", views.start, name="start_campaign"),
    path("campaigns/<uuid:code>/log/", views.action_log, name="action_log"),
    path(
        "campaigns/<uuid:code>/organiser/reopen/",
        views.reopen_campaign,
        name="reopen_campaign",
    ),
    path("campaigns/<uuid:code>/organiser/", views.organiser_board, name="organiser_board"),
    path("campaigns/<uuid:code>/organiser/options/", views.campaign_options, name="options"),
    path("campaigns/<uuid:code>/organiser/pause/", clock_views.pause, name="pause"),
    path("campaigns/<uuid:code>/organiser/resume/", clock_views.resume, name="resume"),
    path("campaigns/<uuid:code>/organiser/extend/", clock_views.extend, name="extend"),
    path("campaigns/<uuid:code>/organiser/resolve/", clock_views.resolve_now, name="resolve_now"),
    path("campaigns/<uuid:code>/organiser/rollback/", clock_views.roll_back, name="roll_back"),
    path("campaigns/<uuid:code>/organiser/end/", clock_views.end, name="end_campaign"),
    path(
        "campaigns/<uuid:code>/organiser/orders/<uuid:seat_code>/",
        views.enter_orders,
        name="enter_orders",
    ),
    path(
        "campaigns/<uuid:code>/organiser/orders/<uuid:seat_code>/behalf/",
        views.enter_orders_on_behalf,
        name="enter_orders_on_behalf",
    ),
    path(
        "campaigns/<uuid:code>/organiser/replace/<uuid:seat_code>/",
        views.replace,
        name="replace_player",
    ),
    path("campaigns/<uuid:code>/organiser/club/", views.club_hook, name="club_hook"),
    path("campaigns/<uuid:code>/organiser/missed/", views.missed_policy, name="missed_policy"),
    path(
        "campaigns/<uuid:code>/organiser/caretaker/<uuid:seat_code>/",
        views.caretaker_seat,
        name="caretaker_seat",
    ),
    path("seats/<uuid:code>/settings/", views.seat_settings, name="seat_settings"),
    path("seats/<uuid:code>/leaders/", views.pick_leaders, name="pick_leaders"),
    # Tokens are secrets.token_urlsafe(32): anything else (a NUL byte, say, which PostgreSQL
    # refuses in a query) is not found before it reaches the database.
    re_path(
        r"^invite/(?P<token>[A-Za-z0-9_-]{1,64})/$",
        views.accept_invitation,
        name="accept_invitation",
    ),
]
