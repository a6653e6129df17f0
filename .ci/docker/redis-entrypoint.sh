#!/bin/sh
# As the official redis image: redis-server runs as the user redis in /data and, as there, its
# protected mode is off (it is reached over the compose network, which only the site joins).
set -eu
if [ "${1:-}" = redis-server ]; then
    chown -R redis:redis /data
    exec setpriv --reuid=redis --regid=redis --init-groups "$@" --protected-mode no
fi
exec "$@"
