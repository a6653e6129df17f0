"""The battles' addresses (issue 7): battle pages, briefings, results, chronicle, gazette; the
photos of the table and the sides' accounts (issue 45)."""

from django.urls import path

from battles import gazette_views, photo_views, views

app_name = "battles"
urlpatterns = [
    path("campaigns/<uuid:code>/battles/", views.chronicle, name="chronicle"),
    path("campaigns/<uuid:code>/battles/settings/", views.tabletop_settings, name="settings"),
    path("campaigns/<uuid:code>/battles/<uuid:battle_code>/", views.battle_page, name="battle"),
    path(
        "campaigns/<uuid:code>/battles/<uuid:battle_code>/table.png",
        views.table_png,
        name="table_png",
    ),
    path(
        "campaigns/<uuid:code>/battles/<uuid:battle_code>/briefing/<str:audience>/",
        views.briefing,
        name="briefing",
    ),
    path(
        "campaigns/<uuid:code>/battles/<uuid:battle_code>/briefing/<str:audience>/pdf/",
        views.briefing_pdf,
        name="briefing_pdf",
    ),
    path(
        "campaigns/<uuid:code>/battles/<uuid:battle_code>/result/", views.enter_result, name="enter"
    ),
    path(
        "campaigns/<uuid:code>/battles/<uuid:battle_code>/confirm/",
        views.confirm_result,
        name="confirm",
    ),
    path(
        "campaigns/<uuid:code>/battles/<uuid:battle_code>/dispute/",
        views.dispute_result,
        name="dispute",
    ),
    path(
        "campaigns/<uuid:code>/battles/<uuid:battle_code>/settle/",
        views.settle_result,
        name="settle",
    ),
    path(
        "campaigns/<uuid:code>/battles/<uuid:battle_code>/quick/", views.quick_resolve, name="quick"
    ),
    path("campaigns/<uuid:code>/battles/<uuid:battle_code>/date/", views.set_date, name="date"),
    path(
        "campaigns/<uuid:code>/battles/<uuid:battle_code>/collection/",
        views.record_collection,
        name="collection",
    ),
    path("gazette/<uuid:code>/", views.gazette, name="gazette"),
    path(
        "gazette/<uuid:code>/photos/<uuid:photo_code>/<str:kind>.jpg",
        gazette_views.gazette_photo,
        name="gazette_photo",
    ),
    path(
        "campaigns/<uuid:code>/battles/<uuid:battle_code>/photos/",
        photo_views.upload,
        name="photo_upload",
    ),
    path(
        "campaigns/<uuid:code>/battles/<uuid:battle_code>/photos/<uuid:photo_code>/<str:kind>.jpg",
        photo_views.image,
        name="photo_image",
    ),
    path(
        "campaigns/<uuid:code>/battles/<uuid:battle_code>/photos/<uuid:photo_code>/caption/",
        photo_views.caption,
        name="photo_caption",
    ),
    path(
        "campaigns/<uuid:code>/battles/<uuid:battle_code>/photos/<uuid:photo_code>/move/",
        photo_views.move,
        name="photo_move",
    ),
    path(
        "campaigns/<uuid:code>/battles/<uuid:battle_code>/photos/<uuid:photo_code>/remove/",
        photo_views.remove,
        name="photo_remove",
    ),
    path(
        "campaigns/<uuid:code>/battles/<uuid:battle_code>/account/<str:side>/",
        photo_views.account,
        name="account",
    ),
    path(
        "campaigns/<uuid:code>/battles/<uuid:battle_code>/gazette-consent/<str:side>/",
        photo_views.consent,
        name="gazette_consent",
    ),
]
