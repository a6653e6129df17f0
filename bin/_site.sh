# shellcheck shell=bash
# Sourced by bin/run: the site's address for links in emails, when SITE_URL is not given, and its
# record in var/site-url (SITE_URL_FILE), which dgk/settings.py reads when SITE_URL is not set:
# so a command or a worker started in another shell links to the same site.
# HOST and PORT are where gunicorn listens; a wildcard address (0.0.0.0, ::) is no address to
# send in an email, so the machine's own name stands in for it.

derive_site_url() {
    local host="${HOST:-127.0.0.1}" port="${PORT:-8000}"
    case "$host" in
    0.0.0.0 | :: | "[::]") host="$(hostname -f 2>/dev/null || hostname)" ;;
    esac
    case "$host" in
    *:*) host="[$host]" ;; # an IPv6 literal in a URL
    esac
    echo "http://$host:$port"
}

record_site_url() {
    local file="${SITE_URL_FILE:-var/site-url}"
    mkdir -p "$(dirname "$file")"
    printf '%s\n' "$1" >"$file"
}
