from django.contrib.auth import views as auth_views
from django.urls import include, path, re_path

from campaign import (
    dice_views,
    email_views,
    guard_views,
    nextyear_views,
    press_views,
    season_views,
    views,
    war_views,
)
from campaign.forms import GuardedAuthenticationForm, QueuedPasswordResetForm

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path(
        "accounts/password_reset/",
        auth_views.PasswordResetView.as_view(form_class=QueuedPasswordResetForm),
        name="password_reset",
    ),
    path(
        "accounts/login/",
        auth_views.LoginView.as_view(authentication_form=GuardedAuthenticationForm),
        name="login",
    ),
    path("accounts/", include("django.contrib.auth.urls")),
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
    path("campaigns/<uuid:code>/dice/", dice_views.campaign_dice, name="campaign_dice"),
    path("campaigns/<uuid:code>/war/", war_views.war_page, name="war"),
    path("campaigns/<uuid:code>/war/history.json", war_views.war_history, name="war_history"),
    path("campaigns/<uuid:code>/organiser/war-link/", war_views.war_link, name="war_link"),
    path("campaigns/<uuid:code>/war/book-<slug:paper>.pdf", war_views.war_book, name="war_book"),
    # The public link of The war (docs/season-end.md): secrets.token_urlsafe(32) tokens.
    re_path(r"^war/(?P<token>[A-Za-z0-9_-]{20,64})/$", war_views.war_public, name="war_public"),
    re_path(
        r"^war/(?P<token>[A-Za-z0-9_-]{20,64})/history\.json$",
        war_views.war_public_history,
        name="war_public_history",
    ),
    re_path(
        r"^war/(?P<token>[A-Za-z0-9_-]{20,64})/book-(?P<paper>a4|letter)\.pdf$",
        war_views.war_public_book,
        name="war_public_book",
    ),
    re_path(
        r"^emails/(?P<token>[A-Za-z0-9_:.\-]{1,200})/$",
        email_views.email_preferences,
        name="email_preferences",
    ),
    path("campaigns/<uuid:code>/organiser/reseed/", dice_views.reseed, name="reseed"),
    path(
        "campaigns/<uuid:code>/organiser/reopen/",
        guard_views.reopen_campaign,
        name="reopen_campaign",
    ),
    path(
        "campaigns/<uuid:code>/organiser/unlock/<uuid:seat_code>/",
        guard_views.unlock,
        name="unlock_signin",
    ),
    path("campaigns/<uuid:code>/organiser/", views.organiser_board, name="organiser_board"),
    path(
        "campaigns/<uuid:code>/organiser/outbox/",
        email_views.campaign_outbox,
        name="campaign_outbox",
    ),
    path(
        "campaigns/<uuid:code>/organiser/season-file/",
        season_views.download,
        name="season_file",
    ),
    path("campaigns/<uuid:code>/organiser/options/", views.campaign_options, name="options"),
    path("campaigns/<uuid:code>/organiser/pause/", views.pause, name="pause"),
    path("campaigns/<uuid:code>/organiser/resume/", views.resume, name="resume"),
    path("campaigns/<uuid:code>/organiser/extend/", views.extend, name="extend"),
    path("campaigns/<uuid:code>/organiser/resolve/", views.resolve_now, name="resolve_now"),
    path("campaigns/<uuid:code>/organiser/rollback/", views.roll_back, name="roll_back"),
    path("campaigns/<uuid:code>/organiser/end/", views.end, name="end_campaign"),
    path("campaigns/<uuid:code>/organiser/next-year/", nextyear_views.next_year, name="next_year"),
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
    path("play/<uuid:code>/letters/", press_views.letters, name="letters"),
    path("campaigns/<uuid:code>/organiser/letters/", press_views.all_letters, name="all_letters"),
    path("seats/<uuid:code>/settings/", views.seat_settings, name="seat_settings"),
    path("seats/<uuid:code>/leaders/", views.pick_leaders, name="pick_leaders"),
    # Tokens are secrets.token_urlsafe(32): anything else (a NUL byte, say, which PostgreSQL
    # refuses in a query) is not found before it reaches the database.
    re_path(
        r"^invite/(?P<token>[A-Za-z0-9_-]{1,64})/$",
        views.accept_invitation,
        name="accept_invitation",
    ),
    # Battles on the tabletop (issue 7): battle pages, briefings, results, chronicle, gazette.
    path("", include("campaign.battle_views")),
]
