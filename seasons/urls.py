from django.urls import path, re_path

from seasons import file_views, nextyear_views, war_views

urlpatterns = [
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
    path(
        "campaigns/<uuid:code>/organiser/season-file/",
        file_views.download,
        name="season_file",
    ),
    path("campaigns/<uuid:code>/organiser/next-year/", nextyear_views.next_year, name="next_year"),
    path("campaigns/<uuid:code>/organiser/end-war/", war_views.end_war, name="end_war"),
]
