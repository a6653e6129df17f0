from django.contrib import admin

from accounts.forms import GuardedAdminAuthenticationForm

# The admin's sign-in is slowed as the site's is (accounts.services.signin).
admin.site.login_form = GuardedAdminAuthenticationForm
