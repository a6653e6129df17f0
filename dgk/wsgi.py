"""WSGI entry point, for gunicorn (``gunicorn dgk.wsgi``) or any other WSGI server."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dgk.settings")

application = get_wsgi_application()
