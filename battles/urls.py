"""The battles' addresses (issue 7): battle pages, briefings, results, chronicle, gazette."""

from django.urls import path

from battles import views

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
]
