"""WSGI entry point, for gunicorn (``gunicorn dgk.wsgi``) or any other WSGI server.

A site that cannot serve its pages (``dgk.startup``) stops here with one line on stderr and exit
status 3 (gunicorn's "worker failed to boot": it stops rather than restart the worker for ever).
"""

import os
import sys

from django.core.exceptions import ImproperlyConfigured
from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dgk.settings")

application = get_wsgi_application()

from dgk.startup import check_static_files  # noqa: E402 (needs the settings configured above)

try:
    check_static_files()
except ImproperlyConfigured as problem:
    sys.stderr.write(f"dgk: cannot start: {problem}\n")
    sys.stderr.flush()
    raise SystemExit(3) from None
