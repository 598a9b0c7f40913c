#!/usr/bin/env bash
# Adversarial and overload suites (issue 20 items 3 and 7): start the real
# accelplan-server of BUILD_DIR on free loopback ports.
#
# test_adversarial.py replays hostile inputs (NaN, Inf, 1e308, unknown enum
# numbers, over-limit repeated fields, 3,000-character strings, bad
# topologies and dates, 1e6 slices, a 10 MB body, invalid UTF-8 and other
# undecodable bodies, idle metrics connections, calls abandoned at ~50 ms
# behind expensive valid ones). Each case asserts the status code, the field
# named in the BadRequest details (or the request type for an undecodable
# body), bounded trailers, the /metrics count, and a health Check within
# 100 ms (ACCELPLAN_HEALTH_BUDGET_MS) afterwards.
#
# test_overload.py: three runs of 8 clients sending worst-case valid
# requests at a server with --planning_threads 2 --planning_queue 2 while a
# probe loop times health Checks; asserts health p99 < 100 ms
# (ACCELPLAN_OVERLOAD_HEALTH_P99_MS), every answer OK or RESOURCE_EXHAUSTED
# with RetryInfo, and at least one call shed. Its per-run figures and the
# worst run are printed at the end (pytest -rP).
#
# Usage: tests/adversarial/run.sh BUILD_DIR
# Needs: a built tree (accelplan-server, catalog.db, python/accelplan) and
# Debian's python3-grpcio, python3-protobuf, python3-pytest. Loopback only,
# no network; about 30 s, bounded by a 170 s timeout (the .ci/run stage
# `adversarial` has 3 minutes). Not registered in the default ctest.
set -euo pipefail

if [[ $# -ne 1 ]]; then
  echo "usage: $0 BUILD_DIR" >&2
  exit 2
fi
build=$(cd "$1" && pwd)
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

for f in "$build/accelplan-server" "$build/catalog.db" \
         "$build/python/accelplan/v1/accelplan_pb2.py" \
         "$build/python/accelplan/google/rpc/error_details_pb2.py"; do
  if [[ ! -e "$f" ]]; then
    echo "$0: missing $f (build the tree first: cmake --build $1)" >&2
    exit 2
  fi
done

exec timeout --kill-after=5 170 \
  env PYTHONPATH="$build/python" ACCELPLAN_BUILD_DIR="$build" \
  /usr/bin/python3 -m pytest -q -p no:cacheprovider -rxXsP \
  "$here/test_adversarial.py" "$here/test_overload.py"
