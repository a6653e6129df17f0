# The campaign manager's image (docs/operations.md, "Host it for your club"): one image for the
# web server, the worker, beat and the one-off jobs (compose.yaml names each by its command).
#
#   docker build -t dgk .
#
# Plain Dockerfile syntax, no BuildKit needed: Debian's docker-compose 1.29 builds it as it is,
# and so does `docker compose` (v2). Build arguments (compose.yaml reads them from .env):
#   BASE_IMAGE     any Debian bookworm with python3 (3.11) and its venv module (CI builds on one
#                  made with debootstrap; a site behind a mirror names the mirror's copy)
#   PIP_INDEX_URL  a mirror of PyPI (empty: PyPI)
#   PIP_CA_FILE    a CA bundle for pip, for a machine whose TLS passes a proxy with its own
#                  certificate authority: a file inside the build context (this folder), e.g.
#                  pip-ca.pem. A CA bundle is public: it may end up in the image, it holds no secret.
#   CHROMIUM       yes (default) or no, below
ARG BASE_IMAGE=python:3.11-slim-bookworm

# --- build: the virtualenv, the static files and the map tiles ----------------------------------
FROM ${BASE_IMAGE} AS build
ENV PYTHONDONTWRITEBYTECODE=1 PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_CACHE_DIR=1
# DejaVu letters the map tiles (without it the tiles fall back to Pillow's small bitmap font).
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends fonts-dejavu-core \
    && rm -rf /var/lib/apt/lists/*
RUN python3 -m venv /opt/venv
ARG PIP_INDEX_URL=
ARG PIP_CA_FILE=
# requirements.txt, and the CA bundle when one is named (an empty PIP_CA_FILE copies nothing more).
COPY requirements.txt ${PIP_CA_FILE} /tmp/pip/
RUN if [ -z "$PIP_INDEX_URL" ]; then unset PIP_INDEX_URL; fi; \
    if [ -n "$PIP_CA_FILE" ]; then export PIP_CERT="/tmp/pip/$(basename "$PIP_CA_FILE")"; fi; \
    /opt/venv/bin/pip install --requirement /tmp/pip/requirements.txt
COPY . /app
WORKDIR /app
# Static files with hashed names (WhiteNoise serves them) and the tile pyramid of the bundled map,
# drawn once here instead of at every start. The values below exist only for this step.
RUN export DEBUG=0 SECRET_KEY=image-build-only ALLOWED_HOSTS=localhost \
    && /opt/venv/bin/python manage.py collectstatic --noinput \
    && /opt/venv/bin/python manage.py rendertiles \
    && /opt/venv/bin/python -m compileall -q /app

# --- the image: Python, the fonts, chromium for the printed briefings, and the app -------------
FROM ${BASE_IMAGE}
# CHROMIUM=no leaves out Debian's chromium (about 1 GB with what it needs): the briefings' PDF
# button then says that it is missing, and the printable HTML briefing still works.
ARG CHROMIUM=yes
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
        fonts-dejavu-core $([ "$CHROMIUM" = yes ] && echo chromium) \
    && rm -rf /var/lib/apt/lists/*
# The site runs as dgk (uid 1000), never as root. Its data lives in volumes under /var/lib/dgk:
# secrets/ (generated keys), media/ (map pictures, books of the season), backups/ (dumps and campaign files).
RUN groupadd --gid 1000 dgk \
    && useradd --uid 1000 --gid dgk --home-dir /var/lib/dgk --no-create-home --shell /bin/sh dgk \
    && install -d -o dgk -g dgk -m 0755 /var/lib/dgk /var/lib/dgk/media /var/lib/dgk/backups \
    && install -d -o dgk -g dgk -m 0700 /var/lib/dgk/secrets
COPY --from=build /opt/venv /opt/venv
COPY --from=build /app /app
COPY deploy/entrypoint.sh /usr/local/bin/dgk-entrypoint
COPY deploy/healthcheck.py /usr/local/bin/dgk-healthcheck
ENV PATH=/opt/venv/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    DJANGO_SETTINGS_MODULE=dgk.settings \
    DEBUG=0 \
    MAP_PICTURES_DIR=/var/lib/dgk/media/pictures \
    SEASON_BOOKS_DIR=/var/lib/dgk/media/books \
    SECRET_KEY_FILE=/var/lib/dgk/secrets/secret_key \
    VAPID_KEY_FILE=/var/lib/dgk/secrets/vapid-key.pem \
    PGPASSFILE=/var/lib/dgk/secrets/pgpass
WORKDIR /app
USER dgk
EXPOSE 8000
# /healthz: the database, the broker and the worker's heartbeat (200 when all three are well).
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 CMD ["dgk-healthcheck"]
ENTRYPOINT ["dgk-entrypoint"]
CMD ["web"]
