"""Log filters named in ``settings.LOGGING``.

Django logs every refused request (403) on ``django.request`` with the whole traceback of the
``PermissionDenied`` behind it: a dozen lines for a player who opened another seat's page, which
is an answer, not a fault. ``OneLineForbidden`` writes such a record as one line (the path and
why it was refused); 500s keep their tracebacks.
"""

from __future__ import annotations

import logging


class OneLineForbidden(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "status_code", None) == 403 and record.exc_info:
            exc = record.exc_info[1]
            why = f" ({type(exc).__name__}: {exc})" if exc is not None and str(exc) else ""
            record.msg = " ".join((record.getMessage() + why).split())
            record.args = ()
            record.exc_info = None
            record.exc_text = None
        return True
