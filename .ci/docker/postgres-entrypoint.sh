#!/bin/sh
# What the official postgres image's entrypoint does with the variables compose.yaml sets:
# POSTGRES_USER (the superuser), POSTGRES_PASSWORD or POSTGRES_PASSWORD_FILE, POSTGRES_DB; a
# cluster made in PGDATA at the first start; local connections trusted, others by password.
set -eu
if [ "${1:-}" != postgres ]; then
    exec "$@"
fi
shift
as_postgres() { setpriv --reuid=postgres --regid=postgres --init-groups "$@"; }

if [ -n "${POSTGRES_PASSWORD_FILE:-}" ]; then
    POSTGRES_PASSWORD="$(cat "$POSTGRES_PASSWORD_FILE")"
fi
USER_NAME="${POSTGRES_USER:-postgres}"
DB_NAME="${POSTGRES_DB:-$USER_NAME}"
mkdir -p "$PGDATA" /var/run/postgresql
chown postgres:postgres "$PGDATA" /var/run/postgresql
chmod 0700 "$PGDATA"

if [ ! -s "$PGDATA/PG_VERSION" ]; then
    pwfile="$(mktemp)"
    printf '%s\n' "$POSTGRES_PASSWORD" >"$pwfile"
    chown postgres "$pwfile"
    as_postgres initdb --username="$USER_NAME" --pwfile="$pwfile" --auth-local=trust \
        --auth-host=scram-sha-256 --encoding=UTF8 -D "$PGDATA" >/dev/null
    rm -f "$pwfile"
    echo "listen_addresses = '*'" >>"$PGDATA/postgresql.conf"
    echo "host all all all scram-sha-256" >>"$PGDATA/pg_hba.conf"
    if [ "$DB_NAME" != postgres ]; then
        as_postgres pg_ctl -D "$PGDATA" -o "-c listen_addresses=''" -w start >/dev/null
        as_postgres createdb --username="$USER_NAME" "$DB_NAME"
        as_postgres pg_ctl -D "$PGDATA" -m fast -w stop >/dev/null
    fi
    echo "postgres: initialised $PGDATA (user $USER_NAME, database $DB_NAME)"
fi
exec setpriv --reuid=postgres --regid=postgres --init-groups postgres -D "$PGDATA" "$@"
