"""Checks made when a web process starts (``dgk/wsgi.py``), before it answers any request.

A site started with ``DEBUG=0`` serves its static files from the manifest ``collectstatic``
writes (``CompressedManifestStaticFilesStorage``): without it every page, the styled error
page too, fails. So the process refuses to start, with one line saying what to run, instead of
answering 500 to every request (issue 27).
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.staticfiles.storage import ManifestFilesMixin, staticfiles_storage
from django.core.exceptions import ImproperlyConfigured


def check_static_files() -> None:
    """Raise ImproperlyConfigured when the static files' manifest is missing or empty."""
    if not isinstance(staticfiles_storage, ManifestFilesMixin):
        return  # DEBUG: served from the source folders
    manifest = staticfiles_storage.manifest_name
    if not staticfiles_storage.exists(manifest) or not staticfiles_storage.hashed_files:
        raise ImproperlyConfigured(
            f"the static files are not collected ({settings.STATIC_ROOT / manifest} is missing): "
            "run `python manage.py collectstatic --noinput` before starting the site"
        )
