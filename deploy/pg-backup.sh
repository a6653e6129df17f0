#!/bin/sh
# The nightly database dump (compose.yaml, service "backup", in the postgres image): a pg_dump
# in custom format into /var/lib/dgk/backups/database, named dgk-YYYYMMDD-HHMMSS.dump (UTC),
# every night at PG_BACKUP_AT (03:30, UTC); the newest PG_BACKUP_KEEP (14) are kept. A dump is
# written under a temporary name and renamed when complete, so a half-written one never counts.
#
# The first dump is taken soon after the first start, once the migrations have made the site's
# tables (never a dump of an empty database); then one each night at the fixed time. The night
# last dumped is kept in .nightly beside the dumps: a restart neither skips a night nor dumps
# twice, a server that was off at that time dumps when it is back, and a dump by hand does not
# move the schedule.
#
#   dgk-pg-backup          the loop (the service's command)
#   dgk-pg-backup now      one dump at once; prints its path (docs/operations.md)
#   dgk-pg-backup next     when the loop dumps next (UTC); `next SECONDS` for a given time
#                          (seconds since 1970, UTC), as the tests ask
set -eu

DIR="${PG_BACKUP_DIR:-/var/lib/dgk/backups/database}"
KEEP="${PG_BACKUP_KEEP:-14}"
AT="${PG_BACKUP_AT:-03:30}"
STATE="$DIR/.nightly"
DAY=86400

# The time of day, in seconds after midnight UTC, from HH:MM.
case "$AT" in
[0-1][0-9]:[0-5][0-9] | 2[0-3]:[0-5][0-9]) ;;
*)
    echo "backup: PG_BACKUP_AT=$AT is not a time of day (HH:MM, UTC)" >&2
    exit 2
    ;;
esac
hours="${AT%%:*}"
minutes="${AT#*:}"
AT_SECONDS=$(((${hours#0} + 0) * 3600 + (${minutes#0} + 0) * 60))

# last_night NOW: the latest scheduled time at or before NOW (seconds, UTC).
last_night() {
    slot=$(($1 - $1 % DAY + AT_SECONDS))
    if [ "$slot" -gt "$1" ]; then
        slot=$((slot - DAY))
    fi
    echo "$slot"
}

# next_dump NOW DONE: when the loop dumps next, given the night last dumped (DONE, empty when
# none was yet): NOW itself when a dump is due.
next_dump() {
    if [ -z "$2" ] || [ "$2" -lt "$(last_night "$1")" ]; then
        echo "$1"
    else
        echo $(($(last_night "$1") + DAY))
    fi
}

done_night() { cat "$STATE" 2>/dev/null || true; }

# The site's tables are there (the migrations have run): never dump an empty database.
schema_ready() {
    [ "$(psql --no-psqlrc -Atqc 'SELECT count(*) FROM django_migrations' 2>/dev/null)" -gt 0 ] \
        2>/dev/null
}

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

case "${1:-}" in
now)
    dump
    exit 0
    ;;
next)
    when="$(next_dump "${2:-$(date -u +%s)}" "$(done_night)")"
    echo "$when $(date -u -d "@$when" +%Y-%m-%dT%H:%M:%SZ)"
    exit 0
    ;;
esac

trap 'exit 0' TERM INT
echo "backup: a dump each night at $AT UTC into $DIR, the newest $KEEP kept"
told=""
while :; do
    now="$(date -u +%s)"
    wait_for=600
    if [ "$(next_dump "$now" "$(done_night)")" -le "$now" ]; then
        if ! schema_ready; then
            [ -n "$told" ] || echo "backup: waiting for the site's tables (the migrations)"
            told=1
            wait_for=10
        elif name="$(dump)"; then
            echo "backup: $name"
            last_night "$now" >"$STATE.new" && mv "$STATE.new" "$STATE"
            told=""
        else
            echo "backup: pg_dump failed; trying again in 10 minutes" >&2
        fi
    fi
    if [ "$wait_for" -eq 600 ]; then
        # Until the next night's time, looking again every 10 minutes at most.
        left=$(($(next_dump "$(date -u +%s)" "$(done_night)") - $(date -u +%s)))
        if [ "$left" -gt 0 ] && [ "$left" -lt 600 ]; then
            wait_for="$left"
        fi
    fi
    sleep "$wait_for" &
    wait $! || true
done
