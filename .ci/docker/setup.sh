#!/usr/bin/env bash
# Make this machine ready for the container smoke test (tests/docker/, docs/operations.md):
# Debian's docker.io and docker-compose (installed if missing), a running dockerd (started if
# not), a Debian bookworm base image made with debootstrap, and the stand-ins of the official
# images compose.yaml names (Dockerfile.services). Docker Hub is not needed: only Debian's
# packages (and PyPI, in the site's own build). What exists already is kept, so a second run
# takes seconds.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"

# Debian's client: the docker of /usr/local/bin, if any, wants buildx for BuildKit.
DOCKER=/usr/bin/docker
BASE_IMAGE="${DGK_DOCKER_BASE_IMAGE:-dgk-ci/base:bookworm}"
MIRROR="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"

missing=()
[ -x /usr/bin/docker ] && [ -x /usr/sbin/dockerd ] || missing+=(docker.io)
command -v docker-compose >/dev/null 2>&1 || missing+=(docker-compose)
command -v debootstrap >/dev/null 2>&1 || missing+=(debootstrap)
if [ "${#missing[@]}" -gt 0 ]; then
    echo "docker: installing ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi

if ! "$DOCKER" info >/dev/null 2>&1; then
    echo "docker: starting dockerd (log: /var/log/dgk-dockerd.log)"
    nohup /usr/sbin/dockerd >/var/log/dgk-dockerd.log 2>&1 &
    for _ in $(seq 1 60); do
        "$DOCKER" info >/dev/null 2>&1 && break
        sleep 1
    done
    if ! "$DOCKER" info >/dev/null 2>&1; then
        echo "docker: dockerd did not start; the end of its log:" >&2
        tail -20 /var/log/dgk-dockerd.log >&2
        exit 1
    fi
fi

if ! "$DOCKER" image inspect "$BASE_IMAGE" >/dev/null 2>&1; then
    echo "docker: making $BASE_IMAGE with debootstrap (Debian bookworm, python3, python3-venv)"
    rootfs="$(mktemp -d /var/tmp/dgk-rootfs.XXXXXX)"
    trap 'rm -rf "$rootfs"' EXIT
    debootstrap --variant=minbase --include=python3,python3-venv,ca-certificates \
        bookworm "$rootfs" "$MIRROR" >/var/log/dgk-debootstrap.log 2>&1 ||
        { tail -20 /var/log/dgk-debootstrap.log >&2; exit 1; }
    rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/*
    tar -C "$rootfs" -c . | "$DOCKER" import --change 'CMD ["/bin/bash"]' - "$BASE_IMAGE" >/dev/null
    rm -rf "$rootfs"
    trap - EXIT
fi

for target in postgres:15 redis:7 caddy:2; do
    echo "docker: dgk-ci/$target (Debian's package)"
    DOCKER_BUILDKIT=1 "$DOCKER" build --quiet --build-arg BASE_IMAGE="$BASE_IMAGE" \
        --target "${target%%:*}" --tag "dgk-ci/$target" --file Dockerfile.services . >/dev/null
done
# The bucket's server of the several-machines test (Dockerfile.s3: moto from PyPI), built from a
# context of its own with pip's CA bundle in it when PIP_CERT names one; kept once made.
if ! "$DOCKER" image inspect dgk-ci/s3 >/dev/null 2>&1; then
    echo "docker: dgk-ci/s3 (moto's S3 server, from PyPI)"
    s3_context="$(mktemp -d /var/tmp/dgk-s3.XXXXXX)"
    cp Dockerfile.s3 s3-requirements.txt "$s3_context/"
    ca_arg=()
    if [ -n "${PIP_CERT:-}" ] && [ -f "$PIP_CERT" ]; then
        cp "$PIP_CERT" "$s3_context/pip-ca.pem"
        ca_arg=(--build-arg PIP_CA_FILE=pip-ca.pem)
    fi
    DOCKER_BUILDKIT=1 "$DOCKER" build --quiet --build-arg BASE_IMAGE="$BASE_IMAGE" "${ca_arg[@]}" \
        --tag dgk-ci/s3 --file "$s3_context/Dockerfile.s3" "$s3_context" >/dev/null
    rm -rf "$s3_context"
fi
echo "docker: ready ($("$DOCKER" version --format '{{.Server.Version}}'), $(docker-compose version --short))"
