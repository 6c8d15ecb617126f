#!/usr/bin/env bash
# Builds the real Dockerfile with podman and runs the image the two ways the README documents:
#   1. one container on the embedded database, DATA_DIR on a host folder;
#   2. an `api` and a `worker` container against PostgreSQL (the machine's, on 127.0.0.1:5432, a scratch
#      database this script creates and drops), after a one-shot `migrate` container;
# each time registering a Business and seeing a sandbox payout reach `disbursed` through the published port,
# then stopping with SIGTERM and requiring exit code 0. It also checks compose.yaml.
# No registry is reachable here, so `node:20-bookworm-slim` is the stand-in built by ../shared/container-base
# (CONTAINER_BASE_DIR overrides where that folder is). Runs as root (podman, chown of the mounted folders).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
BASE_DIR=${CONTAINER_BASE_DIR:-}
if [ -z "$BASE_DIR" ]; then
  # ../shared from the main checkout; a worktree sits one level deeper (wt/<name>).
  for candidate in "$ROOT/../shared/container-base" "$ROOT/../../shared/container-base"; do
    if [ -f "$candidate/containers.conf" ]; then BASE_DIR=$(cd "$candidate" && pwd); break; fi
  done
fi
[ -n "$BASE_DIR" ] || { echo "FAILED: ../shared/container-base not found (set CONTAINER_BASE_DIR)" >&2; exit 1; }
# runc and a nofile limit under the hard limit: the podman settings these machines need.
export CONTAINERS_CONF=$BASE_DIR/containers.conf
PG_ADMIN_URL=${CONTAINER_CI_POSTGRES:-postgres://postgres@127.0.0.1:5432/postgres}
IMAGE=localhost/payout-orchestration:ci
RUN_ID=$$
now() { date +%s; }
T_START=$(now)

if ! command -v podman >/dev/null || ! command -v runc >/dev/null; then
  apt-get update
  apt-get install -y podman runc
fi

echo "== container: compose.yaml"
# Any python3 with PyYAML: the one on PATH, else Debian's (python3-yaml) installed for it.
PYTHON=python3
if ! "$PYTHON" -c "import yaml" 2>/dev/null; then
  PYTHON=/usr/bin/python3
  "$PYTHON" -c "import yaml" 2>/dev/null || { apt-get update && apt-get install -y python3-yaml; }
fi
"$PYTHON" scripts/check-compose.py compose.yaml

echo "== container: base image node:20-bookworm-slim (stand-in)"
if ! podman image exists docker.io/library/node:20-bookworm-slim; then
  podman image exists localhost/debian:bookworm-slim || "$BASE_DIR/build-debian-slim.sh"
  ctx=$(mktemp -d)
  cp "$BASE_DIR/Containerfile" "$ctx/"
  STAGE="$ctx/stage" DL="$ctx/dl" "$BASE_DIR/stage-node.sh"
  podman build --pull=never -t docker.io/library/node:20-bookworm-slim "$ctx"
  rm -rf "$ctx"
fi
T_BASE=$(now)

echo "== container: build the Dockerfile"
# Docker image format: the OCI format has no HEALTHCHECK, and podman would drop it.
podman build --pull=never --format docker -t "$IMAGE" .
T_BUILD=$(now)
IMAGE_SIZE=$(podman image inspect -f '{{.Size}}' "$IMAGE")

# Everything this script starts is removed on exit, whatever happened.
CONTAINERS=()
TEMP_DIRS=()
SCRATCH_DB=""
cleanup() {
  for name in "${CONTAINERS[@]}"; do podman rm -f -v "$name" >/dev/null 2>&1 || true; done
  for dir in "${TEMP_DIRS[@]}"; do rm -rf "$dir"; done
  if [ -n "$SCRATCH_DB" ]; then psql "$PG_ADMIN_URL" -qc "DROP DATABASE IF EXISTS \"$SCRATCH_DB\" WITH (FORCE)" >/dev/null || true; fi
}
trap cleanup EXIT

free_port() { node -e "const s=require('node:net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"; }
# The container runs as `node` (uid 1000): a bind-mounted DATA_DIR must be its own. Root here reads it anyway.
data_dir() { local dir; dir=$(mktemp -d); chown 1000:1000 "$dir"; TEMP_DIRS+=("$dir"); echo "$dir"; }
wait_healthy() {
  local name=$1 url=$2
  for _ in $(seq 1 120); do
    if node -e "fetch('$url').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"; then return 0; fi
    if [ "$(podman inspect -f '{{.State.Running}}' "$name")" != true ]; then break; fi
    sleep 0.5
  done
  echo "FAILED: $name did not answer $url" >&2
  podman logs "$name" >&2 || true
  return 1
}
# SIGTERM (podman stop), up to 20 s to finish in-flight work, then the exit code must be 0.
stop_cleanly() {
  local name=$1 code
  podman stop -t 20 "$name" >/dev/null
  code=$(podman inspect -f '{{.State.ExitCode}}' "$name")
  if [ "$code" != 0 ]; then
    echo "FAILED: $name exited $code after SIGTERM" >&2
    podman logs "$name" >&2 || true
    return 1
  fi
  echo "$name stopped on SIGTERM with exit code 0"
}
# podman schedules HEALTHCHECKs with systemd timers, which these machines lack (hence its harmless "unable to
# get systemd connection" lines): the script runs the image's check itself with `podman healthcheck run`.
smoke() {
  node scripts/container-smoke.mjs "$@" || {
    for name in "${CONTAINERS[@]}"; do echo "--- logs of $name" >&2; podman logs "$name" >&2 || true; done
    return 1
  }
}

echo "== container: the image's runtime layer"
user=$(podman run --rm --no-healthcheck --entrypoint id "$IMAGE" -u)
[ "$user" = 1000 ] || { echo "FAILED: the image runs as uid $user, not node (1000)" >&2; exit 1; }
# Nothing of the toolchain, tests, docs or benches: only dist/, drizzle/, package*.json and production modules.
podman run --rm --no-healthcheck --entrypoint sh "$IMAGE" -c '
  set -e; cd /app
  for gone in src test bench docs tsconfig.json node_modules/typescript node_modules/vitest node_modules/drizzle-kit node_modules/@biomejs/biome; do
    if [ -e "$gone" ]; then echo "FAILED: /app/$gone is in the image" >&2; exit 1; fi
  done
  test -f dist/main.js && test -d drizzle && test -d node_modules/fastify'

echo "== container: all-in-one on the embedded database"
EMBEDDED_DIR=$(data_dir)
PORT_EMBEDDED=$(free_port)
NAME=payouts-embedded-$RUN_ID
CONTAINERS+=("$NAME")
podman run -d --name "$NAME" -p "127.0.0.1:$PORT_EMBEDDED:3000" -v "$EMBEDDED_DIR:/data" "$IMAGE" >/dev/null
wait_healthy "$NAME" "http://127.0.0.1:$PORT_EMBEDDED/healthz"
podman healthcheck run "$NAME" || { echo "FAILED: the image's HEALTHCHECK reports unhealthy" >&2; exit 1; }
smoke "http://127.0.0.1:$PORT_EMBEDDED" "$EMBEDDED_DIR"
[ -s "$EMBEDDED_DIR/encryption.key" ] || { echo "FAILED: no generated encryption key in DATA_DIR" >&2; exit 1; }
stop_cleanly "$NAME"
T_EMBEDDED=$(now)

echo "== container: migrate, api and worker on PostgreSQL"
SCRATCH_DB=container_ci_${RUN_ID}_$(date +%s)
psql "$PG_ADMIN_URL" -qc "CREATE DATABASE \"$SCRATCH_DB\""
DATABASE_URL=${PG_ADMIN_URL%/*}/$SCRATCH_DB
KEY=$(openssl rand -base64 32)
PORT_API=$(free_port)
WORKER_DIR=$(data_dir)
common=(--network host -e "DATABASE_URL=$DATABASE_URL" -e "ENCRYPTION_KEY=$KEY")
podman run --rm --no-healthcheck --name "payouts-migrate-$RUN_ID" "${common[@]}" "$IMAGE" migrate
API=payouts-api-$RUN_ID
WORKER=payouts-worker-$RUN_ID
CONTAINERS+=("$API" "$WORKER")
# On the host network the API listens on loopback only.
podman run -d --name "$API" "${common[@]}" -e HOST=127.0.0.1 -e "PORT=$PORT_API" "$IMAGE" api >/dev/null
podman run -d --name "$WORKER" "${common[@]}" -v "$WORKER_DIR:/data" --no-healthcheck "$IMAGE" worker >/dev/null
wait_healthy "$API" "http://127.0.0.1:$PORT_API/readyz"
smoke "http://127.0.0.1:$PORT_API" "$WORKER_DIR"
stop_cleanly "$API"
stop_cleanly "$WORKER"
T_POSTGRES=$(now)

echo "== container: timings"
echo "base image: $((T_BASE - T_START)) s; image build: $((T_BUILD - T_BASE)) s; embedded run: $((T_EMBEDDED - T_BUILD)) s;" \
  "api + worker on PostgreSQL: $((T_POSTGRES - T_EMBEDDED)) s; after the base: $((T_POSTGRES - T_BASE)) s"
echo "image $IMAGE: $((IMAGE_SIZE / 1000000)) MB ($IMAGE_SIZE bytes)"
podman image ls --format '{{.Repository}}:{{.Tag}} {{.Size}}' | grep -E 'node:20-bookworm-slim|payout-orchestration' || true
