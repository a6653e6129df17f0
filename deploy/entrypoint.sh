#!/bin/sh
# The image's entrypoint (compose.yaml gives each service one of these commands):
#
#   init     make the secrets that .env does not give (once; kept in the secrets volume)
#   migrate  apply the database migrations (and create DGK_ORGANISER_USERNAME, if given)
#   web      gunicorn on port 8000 (Caddy in front)
#   worker   the Celery worker
#   beat     Celery beat, the one scheduler of the periodic tasks: run exactly one
#   anything else is run as given, e.g. `python manage.py shell`
set -eu

SECRETS=/var/lib/dgk/secrets

# new_secret FILE: a random secret in FILE, unless FILE holds one already.
new_secret() {
    if [ ! -s "$1" ]; then
        python -c 'import secrets; print(secrets.token_hex(32))' >"$1.new"
        mv "$1.new" "$1"
        echo "init: generated $1"
    fi
}

case "${1:-web}" in
init)
    umask 077
    new_secret "$SECRETS/secret_key"
    new_secret "$SECRETS/db_password"
    # The VAPID key that signs the web pushes (docs/push.md), unless .env gives VAPID_PRIVATE_KEY.
    if [ -z "${VAPID_PRIVATE_KEY:-}" ]; then
        python -m push.services.keys "${VAPID_KEY_FILE:-$SECRETS/vapid-key.pem}"
    fi
    # libpq reads the database password from PGPASSFILE (the image points it here).
    printf '*:*:*:*:%s\n' "$(cat "$SECRETS/db_password")" >"$SECRETS/pgpass.new"
    mv "$SECRETS/pgpass.new" "$SECRETS/pgpass"
    umask 022
    mkdir -p /var/lib/dgk/media/pictures /var/lib/dgk/backups/database \
        /var/lib/dgk/backups/campaigns
    ;;
migrate)
    python manage.py migrate --noinput
    if [ -n "${DGK_ORGANISER_USERNAME:-}" ] && [ -n "${DGK_ORGANISER_PASSWORD:-}" ]; then
        python manage.py createorganiser --noinput
    fi
    ;;
web)
    # deploy/gunicorn.conf.py: threaded workers, one a core (WEB_CONCURRENCY, WEB_THREADS),
    # a long timeout (printing a briefing to PDF with chromium may take a minute).
    exec gunicorn dgk.wsgi -c /app/deploy/gunicorn.conf.py --bind 0.0.0.0:8000
    ;;
worker)
    # Below the web server's priority when both share a machine (WORKER_NICE, default 10):
    # at a deadline the players' requests go first (docs/performance.md, "The deadline hour").
    # Its processes: WORKER_CONCURRENCY, default one a core but one (dgk/settings.py).
    exec nice -n "${WORKER_NICE:-10}" celery -A dgk worker --loglevel INFO
    ;;
beat)
    exec celery -A dgk beat --loglevel INFO --schedule /tmp/celerybeat-schedule
    ;;
*)
    exec "$@"
    ;;
esac
