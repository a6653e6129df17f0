from django.contrib.auth import views as auth_views
from django.urls import include, path

from accounts import views
from accounts.forms import GuardedAuthenticationForm, QueuedPasswordResetForm

urlpatterns = [
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
    path(
        "campaigns/<uuid:code>/organiser/unlock/<uuid:seat_code>/",
        views.unlock,
        name="unlock_signin",
    ),
]
