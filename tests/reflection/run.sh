#!/usr/bin/env bash
# Independent reflection-client check (what a grpcurl user does): starts
# BUILD_DIR/accelplan-server on free loopback ports, then runs check.js, which
# takes every descriptor from server reflection and replays examples/*.json.
#
# Usage: tests/reflection/run.sh [BUILD_DIR] [--grpcurl_examples README.md]
# (BUILD_DIR default: build, relative to the current directory). With
# --grpcurl_examples it replays that README's `sh grpcurl` examples
# (tests/docs/grpcurl_examples.js) instead of check.js. Needs node + npm
# (installed from Debian if absent) and the npm registry for `npm ci`. Exits
# non-zero on any failure.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "${HERE}/../.." && pwd)"
BUILD_ARG="build"
README_ARG=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --grpcurl_examples) README_ARG="${2:?--grpcurl_examples needs a file}"; shift 2 ;;
    --grpcurl_examples=*) README_ARG="${1#*=}"; shift ;;
    *) BUILD_ARG="$1"; shift ;;
  esac
done
BUILD_DIR="$(cd "${BUILD_ARG}" && pwd)"
if [[ -n "${README_ARG}" ]]; then
  README_ARG="$(cd "$(dirname "${README_ARG}")" && pwd)/$(basename "${README_ARG}")"
  [[ -f "${README_ARG}" ]] || { echo "reflection/run.sh: no ${README_ARG}" >&2; exit 1; }
fi
SERVER="${BUILD_DIR}/accelplan-server"
CATALOG="${BUILD_DIR}/catalog.db"

log() { echo "reflection/run.sh: $*" >&2; }

for f in "${SERVER}" "${CATALOG}"; do
  if [[ ! -e "${f}" ]]; then
    log "missing ${f}; build first (cmake --build ${BUILD_DIR})"
    exit 1
  fi
done

# node/npm: preinstalled on CI machines; otherwise Debian's packages.
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  log "node/npm not found; installing Debian's nodejs and npm"
  SUDO=()
  [[ "$(id -u)" -ne 0 ]] && SUDO=(sudo)
  "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
  "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y -q --no-install-recommends nodejs npm
fi
log "node $(node --version), npm $(npm --version)"

# Exact versions from package-lock.json. Install scripts are skipped: none of
# the locked packages needs one to work (protobufjs's only checks its CLI).
(cd "${HERE}" && timeout 300 npm ci --ignore-scripts --no-audit --no-fund \
  --loglevel=error)

free_port() {
  node -e 'const s = require("net").createServer();
    s.listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); });'
}

WORK="$(mktemp -d)"
SERVER_PID=""
cleanup() {
  if [[ -n "${SERVER_PID}" ]] && kill -0 "${SERVER_PID}" 2>/dev/null; then
    kill -TERM "${SERVER_PID}" 2>/dev/null || true
    for _ in $(seq 50); do
      kill -0 "${SERVER_PID}" 2>/dev/null || break
      sleep 0.1
    done
    kill -KILL "${SERVER_PID}" 2>/dev/null || true
    wait "${SERVER_PID}" 2>/dev/null || true
  fi
  rm -rf "${WORK}"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Start the server; a port grabbed by someone else between picking and
# binding makes it exit, so try a few times with fresh ports.
PORT=""
for attempt in 1 2 3; do
  PORT="$(free_port)"
  METRICS_PORT="$(free_port)"
  "${SERVER}" --listen "127.0.0.1:${PORT}" \
    --metrics_listen "127.0.0.1:${METRICS_PORT}" \
    --catalog "${CATALOG}" --drain_delay_seconds=0 \
    >"${WORK}/server.log" 2>&1 &
  SERVER_PID=$!
  # Wait (at most 30 s) until the gRPC port accepts connections; check.js
  # then waits for health SERVING, the real readiness signal.
  for _ in $(seq 300); do
    if ! kill -0 "${SERVER_PID}" 2>/dev/null; then break; fi
    if (exec 3<>"/dev/tcp/127.0.0.1/${PORT}") 2>/dev/null; then break; fi
    sleep 0.1
  done
  if kill -0 "${SERVER_PID}" 2>/dev/null &&
     (exec 3<>"/dev/tcp/127.0.0.1/${PORT}") 2>/dev/null; then
    break
  fi
  log "server did not come up (attempt ${attempt}); its log:"
  tail -n 20 "${WORK}/server.log" >&2 || true
  cleanup_pid="${SERVER_PID}"; SERVER_PID=""
  kill -KILL "${cleanup_pid}" 2>/dev/null || true
  wait "${cleanup_pid}" 2>/dev/null || true
  if [[ "${attempt}" -eq 3 ]]; then
    log "giving up"
    exit 1
  fi
done
log "server pid ${SERVER_PID} on 127.0.0.1:${PORT} (metrics ${METRICS_PORT})"

status=0
if [[ -n "${README_ARG}" ]]; then
  timeout 110 node "${REPO}/tests/docs/grpcurl_examples.js" \
    --target "127.0.0.1:${PORT}" --readme "${README_ARG}" || status=$?
else
  timeout 110 node "${HERE}/check.js" --target "127.0.0.1:${PORT}" \
    --examples "${REPO}/examples" || status=$?
fi
if [[ "${status}" -ne 0 ]]; then
  log "FAILED (exit ${status}); server log tail:"
  tail -n 30 "${WORK}/server.log" >&2 || true
  exit 1
fi
if ! kill -0 "${SERVER_PID}" 2>/dev/null; then
  log "server exited during the check; its log:"
  tail -n 30 "${WORK}/server.log" >&2 || true
  exit 1
fi
log "OK"
