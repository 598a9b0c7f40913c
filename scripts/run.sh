#!/usr/bin/env bash
# Starts accelplan-server from a build tree on its catalog.db, waits until it
# answers, prints a sample plan through the CLI, then serves in the
# foreground until interrupted (SIGINT/SIGTERM are forwarded to the server,
# which drains and exits).
#
#   scripts/run.sh [BUILD_DIR]        (default: build)
#
# The server reads ACCELPLAN_LISTEN, ACCELPLAN_METRICS_LISTEN, ... from the
# environment (see README.md); the client side follows ACCELPLAN_LISTEN's port.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-build}"
server_bin="${build}/accelplan-server"
cli_bin="${build}/accelplan"
catalog="${build}/catalog.db"
for f in "${server_bin}" "${cli_bin}" "${catalog}"; do
  if [[ ! -e "${f}" ]]; then
    echo "run.sh: ${f} not found; build first: cmake -S . -B ${build} && cmake --build ${build}" >&2
    exit 2
  fi
done

listen="${ACCELPLAN_LISTEN:-0.0.0.0:50051}"
port="${listen##*:}"
target="127.0.0.1:${port}"

"${server_bin}" --catalog "${catalog}" &
server_pid=$!

forward() {
  echo "run.sh: stopping accelplan-server (pid ${server_pid})" >&2
  kill -TERM "${server_pid}" 2>/dev/null || true
}
trap forward INT TERM

echo "run.sh: waiting for accelplan-server on ${target} ..." >&2
ready=0
for _ in $(seq 1 300); do
  if ! kill -0 "${server_pid}" 2>/dev/null; then
    status=0
    wait "${server_pid}" || status=$?
    echo "run.sh: accelplan-server exited with status ${status} before it was ready" >&2
    exit "${status:-1}"
  fi
  if "${cli_bin}" catalog --server "${target}" --timeout_seconds=2 \
      >/dev/null 2>&1; then
    ready=1
    break
  fi
  sleep 0.2
done
if [[ "${ready}" -ne 1 ]]; then
  echo "run.sh: accelplan-server not ready after 60 s" >&2
  forward
  wait "${server_pid}" || true
  exit 1
fi

# A sample plan: LoRA fine-tuning of a mid-sized model on one GPU host.
example="${repo}/examples/s4_lora_single_host_gpu_plan.json"
echo
if [[ -f "${example}" ]]; then
  echo "\$ ${cli_bin} plan --server ${target} --request examples/$(basename "${example}") --output=table"
  "${cli_bin}" plan --server "${target}" --request "${example}" \
    --output=table || true
else
  echo "\$ ${cli_bin} plan --server ${target} --framework=jax --params=7e9 --output=table"
  "${cli_bin}" plan --server "${target}" --framework=jax --params=7e9 \
    --output=table || true
fi
echo
echo "run.sh: accelplan-server is serving on ${listen} (gRPC) and" \
  "${ACCELPLAN_METRICS_LISTEN:-0.0.0.0:9464} (metrics); Ctrl-C stops it." >&2

# `wait` returns early when a trapped signal arrives; keep waiting until the
# server itself has exited, then exit with its status.
while kill -0 "${server_pid}" 2>/dev/null; do
  wait "${server_pid}" || true
done
status=0
wait "${server_pid}" || status=$?  # bash keeps the reaped child's status
exit "${status}"
