#!/usr/bin/env bash
# accelplan-server as PID 1 (as in a container): it must serve, and on
# SIGTERM drain and exit 0 by itself. PID 1 gets no default signal actions,
# so this fails if the server relied on them. Runs the server as PID 1 of a
# new PID namespace; skips (exit 77) where namespaces are not permitted.
set -euo pipefail
server="$1"; cli="$2"; catalog="$3"
command -v unshare >/dev/null || { echo "unshare missing: skip"; exit 77; }
unshare --pid --fork --mount-proc true 2>/dev/null || { echo "no PID namespaces here: skip"; exit 77; }

# Two free ports, held open together so they cannot be the same one.
read -r port mport < <(/usr/bin/python3 -c 'import socket
a = socket.socket(); a.bind(("127.0.0.1", 0))
b = socket.socket(); b.bind(("127.0.0.1", 0))
print(a.getsockname()[1], b.getsockname()[1])')
log=$(mktemp)
wrapper=""
cleanup() {
  # Whatever happened, leave no server behind: killing the namespace's PID 1
  # (through its parent, unshare) ends everything in it.
  if [[ -n "$wrapper" ]] && kill -0 "$wrapper" 2>/dev/null; then
    pkill -KILL -P "$wrapper" 2>/dev/null || true
    kill -KILL "$wrapper" 2>/dev/null || true
  fi
  rm -f "$log"
}
trap cleanup EXIT
unshare --pid --fork --mount-proc "$server" --listen=127.0.0.1:"$port" \
  --metrics_listen=127.0.0.1:"$mport" --catalog="$catalog" \
  --drain_delay_seconds=1 --shutdown_grace_seconds=2 >"$log" 2>&1 &
wrapper=$!
for _ in $(seq 1 300); do
  "$cli" catalog --server 127.0.0.1:"$port" --timeout_seconds=2 >/dev/null 2>&1 && break
  sleep 0.1
done
"$cli" catalog --server 127.0.0.1:"$port" --timeout_seconds=2 >/dev/null ||
  { echo "server never answered"; cat "$log"; exit 1; }
# The server's PID outside the namespace (it is PID 1 inside).
pid=$(pgrep -P "$wrapper" | head -1)
[[ -n "$pid" ]] || { echo "server process not found"; cat "$log"; exit 1; }
grep -q '^1$' <(awk '/^NSpid/{print $NF}' /proc/"$pid"/status) || { echo "server is not PID 1"; exit 1; }
kill -TERM "$pid"
status=0
timeout 10 tail --pid="$pid" -f /dev/null || { echo "no exit within 10 s"; cat "$log"; exit 1; }
wait "$wrapper" || status=$?
grep -q '"exit_code":0' "$log" || { echo "server did not log exit_code 0"; cat "$log"; exit 1; }
[[ $status -eq 0 ]] || { echo "exit status $status"; cat "$log"; exit 1; }
echo "PID 1: served, drained and exited 0 on SIGTERM"
