#!/bin/sh
# The nightly database dump (compose.yaml, service "backup", in the postgres image):
# every PG_BACKUP_HOURS (24) a pg_dump in custom format into /var/lib/dgk/backups/database,
# named dgk-YYYYMMDD-HHMMSS.dump; the newest PG_BACKUP_KEEP (14) are kept. A dump is written
# under a temporary name and renamed when complete, so a half-written one never counts.
#
#   dgk-pg-backup          the loop (the service's command)
#   dgk-pg-backup now      one dump at once; prints its path (docs/operations.md)
set -eu

DIR=/var/lib/dgk/backups/database
KEEP="${PG_BACKUP_KEEP:-14}"
HOURS="${PG_BACKUP_HOURS:-24}"

dump() {
    mkdir -p "$DIR" || return 1
    name="$DIR/dgk-$(date -u +%Y%m%d-%H%M%S).dump"
    if ! pg_dump --format=custom --no-owner --file="$name.partial"; then
        rm -f "$name.partial"
        return 1
    fi
    mv "$name.partial" "$name" || return 1
    # Keep the newest $KEEP (the names sort by time).
    ls -1 "$DIR"/dgk-*.dump | sort -r | tail -n "+$((KEEP + 1))" | while read -r old; do
        rm -f "$old"
    done
    echo "$name"
}

if [ "${1:-}" = now ]; then
    dump
    exit 0
fi

trap 'exit 0' TERM INT
echo "backup: a dump every $HOURS hours into $DIR, the newest $KEEP kept"
while :; do
    # A dump is due when the newest is older than $HOURS (or there is none): a restart of the
    # service neither skips a night nor dumps twice.
    newest="$(find "$DIR" -maxdepth 1 -name 'dgk-*.dump' -mmin "-$((HOURS * 60))" 2>/dev/null | head -1)"
    if [ -z "$newest" ]; then
        if name="$(dump)"; then
            echo "backup: $name"
        else
            echo "backup: pg_dump failed; trying again in 10 minutes" >&2
        fi
    fi
    sleep 600 &
    wait $! || true
done
