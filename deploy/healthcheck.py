#!/opt/venv/bin/python
"""The image's HEALTHCHECK: GET /healthz on the web server inside the container; 0 when it says
ok (the database, the broker and the worker's heartbeat are well), 1 otherwise. The request
names the site's own host, as ALLOWED_HOSTS wants."""

import os
import sys
import urllib.request

host = (os.getenv("ALLOWED_HOSTS", "") or "localhost").split(",")[0].strip()
request = urllib.request.Request("http://127.0.0.1:8000/healthz", headers={"Host": host})
try:
    with urllib.request.urlopen(request, timeout=8) as response:
        sys.exit(0 if response.status == 200 else 1)
except OSError as exc:
    print(f"/healthz: {exc}")
    sys.exit(1)
