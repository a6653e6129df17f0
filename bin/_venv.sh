# shellcheck shell=bash
# Sourced by bin/run and bin/test: make .venv with Python 3.11+ and install the requirements.
# Needs nothing but bash and Python 3.11 (with its venv module, Debian's python3-venv).
# Installs again only when a requirements file has changed since the last install.

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="${VENV:-$ROOT/.venv}"

find_python() {
    local candidate
    for candidate in "${PYTHON:-}" python3.11 python3.12 python3.13 python3 python; do
        [ -n "$candidate" ] || continue
        if command -v "$candidate" >/dev/null 2>&1 &&
            "$candidate" -c 'import sys, venv; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
            command -v "$candidate"
            return 0
        fi
    done
    echo "Python 3.11 or newer (with its venv module) is needed; none found on PATH." >&2
    echo "On Debian: apt-get install python3 python3-venv" >&2
    return 1
}

# ensure_venv FILE...: create the venv if need be, then install FILEs unless already installed.
ensure_venv() {
    if [ ! -x "$VENV/bin/python" ] ||
        ! "$VENV/bin/python" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
        local python
        python="$(find_python)" || return 1
        echo "==> creating $VENV with $python"
        rm -rf "$VENV"
        "$python" -m venv "$VENV" || return 1
    fi
    local stamp="$VENV/.dgk-installed" wanted
    wanted="$(cd "$ROOT" && cat "$@" | "$VENV/bin/python" -c \
        'import hashlib, sys; print(hashlib.sha256(sys.stdin.buffer.read()).hexdigest())')"
    if [ -f "$stamp" ] && grep -qx "$wanted" "$stamp"; then
        return 0
    fi
    echo "==> installing $*"
    local args=() file
    for file in "$@"; do args+=(-r "$ROOT/$file"); done
    "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check "${args[@]}" || return 1
    echo "$wanted" >>"$stamp"
}
