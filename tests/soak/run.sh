#!/usr/bin/env bash
# Bounded soak of accelplan-server on loopback (issue 7 item 6; not in ctest:
# SPEC §2 keeps the default suite light, .ci/run calls this script).
#
# Usage: tests/soak/run.sh BUILD_DIR [SECONDS]   (default 180)
#
# For SECONDS: three concurrent accelplan_loadgen clients, each with its own
# mix of valid and invalid requests (INVALID_ARGUMENT expected) over
# PlanTraining (BASIC and FULL), ReviewPlan, ListAccelerators and the health
# Check; connections recycled by a short --max_connection_age (GOAWAY);
# a catalog reload (SIGHUP) every RELOAD_EVERY seconds; once, half-way, a
# reload of a corrupt catalog copy, which must be rejected while serving
# continues. Then SIGTERM: the server must drain and exit 0.
#
# Passes when: every call returned its expected code (zero unexpected codes,
# counted by the clients), the corrupt reload was counted as the only failed
# reload and every other reload succeeded, the server exited 0, and RSS did
# not grow after warm-up: the median RSS of the last quarter of the run is
# at most 5% above the median of the second quarter (the first quarter is
# warm-up: allocator arenas, connection buffers, first snapshots).
set -euo pipefail

die() { echo "soak: $*" >&2; exit 2; }
[[ $# -ge 1 && $# -le 2 ]] || die "usage: $0 BUILD_DIR [SECONDS]"
BUILD=$(cd "$1" 2>/dev/null && pwd) || die "no build directory $1"
DURATION=${2:-180}
[[ $DURATION =~ ^[0-9]+$ && $DURATION -ge 20 ]] || die "SECONDS must be an integer >= 20"
SRC=$(cd "$(dirname "$0")/../.." && pwd)
RELOAD_EVERY=5
SAMPLE_EVERY=2

SERVER=$BUILD/accelplan-server
LOADGEN=$BUILD/bench/load/accelplan_loadgen
[[ -x $SERVER ]] || die "$SERVER missing (target accelplan-server)"
[[ -x $LOADGEN ]] || die "$LOADGEN missing (target accelplan_loadgen)"
[[ -f $BUILD/catalog.db ]] || die "$BUILD/catalog.db missing (target accelplan_catalog_db)"
[[ -x /usr/bin/python3 ]] || die "/usr/bin/python3 missing"

WORK=$(mktemp -d "${TMPDIR:-/tmp}/accelplan-soak.XXXXXX")
SERVER_PID=
CLIENT_PIDS=()
cleanup() {
  for pid in "${CLIENT_PIDS[@]}" $SERVER_PID; do kill "$pid" 2>/dev/null || true; done
  for pid in "${CLIENT_PIDS[@]}" $SERVER_PID; do wait "$pid" 2>/dev/null || true; done
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

PORTS=()
port=$((22000 + RANDOM % 900))
while [[ ${#PORTS[@]} -lt 2 && $port -lt 23000 ]]; do
  # Free when nothing accepts a connection there (bash's /dev/tcp, no ss).
  if ! (: >"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then PORTS+=("$port"); fi
  port=$((port + 1))
done
[[ ${#PORTS[@]} -eq 2 ]] || die "no free ports in 22000-22999"
ADDR=127.0.0.1:${PORTS[0]}
METRICS=127.0.0.1:${PORTS[1]}

# The server reads its own copy, so the corrupt one can be swapped in.
CATALOG=$WORK/catalog.db
cp "$BUILD/catalog.db" "$WORK/good.db"
cp "$WORK/good.db" "$CATALOG"
# Corrupt: the first 8 KiB of a real catalog (valid header, pages missing).
head -c 8192 "$WORK/good.db" >"$WORK/corrupt.db"
install_catalog() { cp "$1" "$CATALOG.tmp" && mv -f "$CATALOG.tmp" "$CATALOG"; }

"$SERVER" --listen="$ADDR" --metrics_listen="$METRICS" --catalog="$CATALOG" \
  --log_level=info --max_connection_age_seconds=20 \
  --max_connection_age_grace_seconds=5 --drain_delay_seconds=1 \
  --shutdown_grace_seconds=5 2>"$WORK/server.log" &
SERVER_PID=$!
for _ in $(seq 1 300); do
  grep -q '"msg":"ready"' "$WORK/server.log" && break
  kill -0 "$SERVER_PID" 2>/dev/null || { cat "$WORK/server.log" >&2; die "server exited during start-up"; }
  sleep 0.1
done
grep -q '"msg":"ready"' "$WORK/server.log" || die "server not ready after 30 s"

metric() {  # name{labels} as printed
  /usr/bin/python3 -c 'import sys, urllib.request
sys.stdout.write(urllib.request.urlopen(sys.argv[1], timeout=10).read().decode())' \
    "http://$METRICS/metrics" | awk -v m="$1" 'index($0, m " ") == 1 {print $NF}'
}
rss_kb() { awk '/^VmRSS:/ {print $2}' "/proc/$SERVER_PID/status"; }

# Each client: its own seed; ~15% invalid plan requests, ~20% other RPCs;
# every plan request twice, as FULL and as BASIC.
for c in 1 2 3; do
  "$LOADGEN" --examples_dir="$SRC/examples" --seed=$((100 + c)) --mix_size=600 \
    --invalid_fraction=0.15 --other_fraction=0.2 --write_mix="$WORK/mix$c.tsv" >/dev/null
  /usr/bin/python3 - "$WORK/mix$c.tsv" <<'EOF'
import sys
path = sys.argv[1]
lines = [l for l in open(path) if l.strip() and not l.startswith("#")]
with open(path, "w") as out:
    for l in lines:
        out.write(l)
        if l.startswith("plan\t"):
            out.write(l.replace('"view":"FULL"', '"view":"BASIC"'))
EOF
done
echo "soak: ${DURATION}s on $ADDR: 3 clients x 8 calls in flight, SIGHUP reload every ${RELOAD_EVERY}s, one corrupt reload, GOAWAY every 20s"
for c in 1 2 3; do
  "$LOADGEN" --target="$ADDR" --mix="$WORK/mix$c.tsv" --concurrency=8 --channels=2 \
    --duration_seconds="$DURATION" --deadline_ms=10000 --fail_on_unexpected \
    --json_out="$WORK/client$c.json" >"$WORK/client$c.txt" 2>&1 &
  CLIENT_PIDS+=($!)
done

START=$(date +%s)
: >"$WORK/rss.tsv"
GOOD_RELOADS=0
CORRUPT_DONE=0
next_reload=$((START + RELOAD_EVERY))
while :; do
  now=$(date +%s)
  elapsed=$((now - START))
  ((elapsed < DURATION)) || break
  kill -0 "$SERVER_PID" 2>/dev/null || { tail -20 "$WORK/server.log" >&2; die "server died at ${elapsed}s"; }
  printf '%s\t%s\n' "$elapsed" "$(rss_kb)" >>"$WORK/rss.tsv"
  if ((now >= next_reload)); then
    if ((CORRUPT_DONE == 0 && elapsed >= DURATION / 2)); then
      failures_before=$(metric 'accelplan_catalog_reloads_total{result="failure"}')
      install_catalog "$WORK/corrupt.db"
      kill -HUP "$SERVER_PID"
      for _ in $(seq 1 50); do
        [[ $(metric 'accelplan_catalog_reloads_total{result="failure"}') != "$failures_before" ]] && break
        sleep 0.1
      done
      install_catalog "$WORK/good.db"
      CORRUPT_DONE=1
    else
      kill -HUP "$SERVER_PID"
      GOOD_RELOADS=$((GOOD_RELOADS + 1))
    fi
    next_reload=$((now + RELOAD_EVERY))
  fi
  sleep "$SAMPLE_EVERY"
done

FAIL=0
for i in "${!CLIENT_PIDS[@]}"; do
  if ! wait "${CLIENT_PIDS[$i]}"; then
    echo "soak: client $((i + 1)) saw unexpected status codes:" >&2
    cat "$WORK/client$((i + 1)).txt" >&2
    FAIL=1
  fi
done
CLIENT_PIDS=()
sleep 1  # the last reload finishes
successes=$(metric 'accelplan_catalog_reloads_total{result="success"}')
failures=$(metric 'accelplan_catalog_reloads_total{result="failure"}')
printf '%s\t%s\n' "$(( $(date +%s) - START ))" "$(rss_kb)" >>"$WORK/rss.tsv"

kill -TERM "$SERVER_PID"
set +e
wait "$SERVER_PID"
server_rc=$?
set -e
SERVER_PID=

for c in 1 2 3; do sed -n '2,3p' "$WORK/client$c.txt" | sed "s/^/soak: client $c: /"; done
echo "soak: reloads ok=$successes failed=$failures (expected ok=$GOOD_RELOADS failed=1); server exit $server_rc"
if [[ $CORRUPT_DONE != 1 || ${failures%.*} != 1 || ${successes%.*} != "$GOOD_RELOADS" ]]; then
  echo "soak: FAIL: reload counts" >&2
  FAIL=1
fi
grep -q 'catalog reload failed' "$WORK/server.log" || { echo "soak: FAIL: no reload failure logged" >&2; FAIL=1; }
[[ $server_rc == 0 ]] || { echo "soak: FAIL: server exit $server_rc after SIGTERM" >&2; FAIL=1; }

if ! /usr/bin/python3 - "$WORK/rss.tsv" "$DURATION" <<'EOF'
import statistics, sys
rows = [tuple(map(int, l.split())) for l in open(sys.argv[1]) if l.strip()]
d = int(sys.argv[2])
q2 = [r for t, r in rows if d / 4 <= t < d / 2]
q4 = [r for t, r in rows if t >= 3 * d / 4]
base, last = statistics.median(q2), statistics.median(q4)
growth = (last - base) / base * 100
print(f"soak: RSS MiB: first {rows[0][1]/1024:.1f}, 2nd-quarter median {base/1024:.1f}, "
      f"last-quarter median {last/1024:.1f}, max {max(r for _, r in rows)/1024:.1f}: "
      f"{growth:+.1f}% (limit +5%), {len(rows)} samples")
step = max(1, len(rows) // 16)
print("soak: RSS trace (s:MiB) " + " ".join(f"{t}:{r/1024:.1f}" for t, r in rows[::step]))
sys.exit(0 if growth <= 5 else 1)
EOF
then
  echo "soak: FAIL: RSS grew after warm-up" >&2
  FAIL=1
fi
if [[ $FAIL != 0 ]]; then echo "soak: FAILED" >&2; exit 1; fi
echo "soak: PASS"
