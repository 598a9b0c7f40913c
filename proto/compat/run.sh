#!/usr/bin/env bash
# Proto compatibility stage: the descriptor set of proto/ against the
# committed baseline (proto/compat/baseline.txtpb). No network.
#   proto/compat/run.sh            check, then run the checker's self-test
#   proto/compat/run.sh --update   rewrite the baseline (after an additive
#                                  change has passed the check)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
PY=/usr/bin/python3
command -v protoc >/dev/null || scripts/install-deps.sh
tmp="$(mktemp -d)"
trap 'rm -rf "${tmp}"' EXIT
protoc --proto_path=proto --include_imports \
  --descriptor_set_out="${tmp}/current.binpb" \
  accelplan/v1/accelplan.proto google/rpc/status.proto \
  google/rpc/error_details.proto
if [[ "${1:-}" == "--update" ]]; then
  "${PY}" proto/compat/proto_compat.py check proto/compat/baseline.txtpb \
    "${tmp}/current.binpb"
  "${PY}" proto/compat/proto_compat.py text "${tmp}/current.binpb" \
    proto/compat/baseline.txtpb
  echo "baseline updated"
  exit 0
fi
"${PY}" proto/compat/proto_compat.py check proto/compat/baseline.txtpb \
  "${tmp}/current.binpb"
"${PY}" proto/compat/selftest.py "${tmp}/current.binpb"
