"""The player's pages, under /play/ (see orders.access for who may open them)."""

from django.urls import path

from orders import deploy_views, picture_views, report_views, umpire_views, views, widget_views

app_name = "orders"

urlpatterns = [
    path("", views.index, name="index"),
    path("<uuid:code>/", views.dashboard, name="dashboard"),
    path("<uuid:code>/orders/", views.orders, name="orders"),
    path("<uuid:code>/orders/march/", views.save_march, name="save_march"),
    path("<uuid:code>/orders/remove/", views.remove_order, name="remove_order"),
    path("<uuid:code>/orders/transfer/", views.save_transfer, name="save_transfer"),
    path("<uuid:code>/orders/decide/", views.decide, name="decide"),
    path("<uuid:code>/orders/ready/", views.ready, name="ready"),
    path("<uuid:code>/orders/no-forced-march/", views.no_forced_march, name="no_forced_march"),
    path("<uuid:code>/caretaker/back/", views.take_seat_back, name="take_seat_back"),
    path("<uuid:code>/orders/unready/", views.unready, name="unready"),
    path("<uuid:code>/map/overlay.json", widget_views.map_overlay, name="map_overlay"),
    path("<uuid:code>/map/history.json", widget_views.map_history, name="map_history"),
    path("<uuid:code>/deploy/", deploy_views.deploy, name="deploy"),
    path("<uuid:code>/report/", report_views.report, name="report"),
    path("<uuid:code>/report/<int:number>/", report_views.report, name="report_version"),
    path("<uuid:code>/history/", report_views.history, name="history"),
    path("<uuid:code>/handover/", report_views.handover, name="handover"),
    path("<uuid:code>/map/<int:number>.png", picture_views.map_image, name="map"),
    path("<uuid:code>/view/<int:number>.json", report_views.view_json, name="view_json"),
    path("umpire/<uuid:code>/", umpire_views.umpire, name="umpire"),
    path("umpire/<uuid:code>/map/<int:number>.png", picture_views.umpire_map, name="umpire_map"),
    path(
        "umpire/<uuid:code>/map/overlay.json",
        widget_views.umpire_overlay,
        name="umpire_overlay",
    ),
]
