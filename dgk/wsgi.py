"""WSGI entry point, for gunicorn (``gunicorn dgk.wsgi``) or any other WSGI server.

A site that cannot serve its pages (``dgk.startup``) stops here with one line on stderr and exit
status 3 (gunicorn's "worker failed to boot": it stops rather than restart the worker for ever).
A process that can loads its URLconf (every view) before its first request, then sets what it
has loaded aside from the garbage collector's rounds (``dgk.memory.settle``), as each worker
process does.
"""

import os
import sys

from django.core.exceptions import ImproperlyConfigured
from django.core.wsgi import get_wsgi_application
from django.urls import get_resolver

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dgk.settings")

application = get_wsgi_application()

from dgk import memory  # noqa: E402
from dgk.startup import check_static_files  # noqa: E402 (needs the settings configured above)

try:
    check_static_files()
except ImproperlyConfigured as problem:
    sys.stderr.write(f"dgk: cannot start: {problem}\n")
    sys.stderr.flush()
    raise SystemExit(3) from None

get_resolver().url_patterns  # noqa: B018 (imports the URLconf, so every view, now)
memory.settle()
