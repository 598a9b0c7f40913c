#!/usr/bin/env bash
# Runs every libFuzzer target for SECONDS each, from the seed corpus, in a
# temporary directory. Needs the build of scripts/ci-sanitizers.sh (ASan+UBSan,
# -DACCELPLAN_FUZZ=ON).
#
#   scripts/ci-fuzz.sh [BUILD_DIR] [SECONDS]   (defaults: build-asan 60)
#
# Exits non-zero when a target crashes, leaks, times out on one input or runs
# out of memory; the work directory (with the crashing input) is kept and its
# path printed. Set FUZZ_KEEP=1 to keep it on success too.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT="$(pwd)"
BUILD_DIR="$(cd "${1:-build-asan}" && pwd)"
SECONDS_PER_TARGET="${2:-60}"

scripts/sanitizers/ensure-packages.sh clang-14 libclang-rt-14-dev llvm-14 protobuf-compiler python3-protobuf

for target in accelplan_fuzz_plan_request accelplan_fuzz_catalog_loader; do
  if [[ ! -x "${BUILD_DIR}/fuzz/${target}" ]]; then
    echo "ci-fuzz.sh: ${BUILD_DIR}/fuzz/${target} missing;" \
         "run scripts/ci-sanitizers.sh ${BUILD_DIR} first" >&2
    exit 1
  fi
done
CATALOG_DB="${BUILD_DIR}/catalog.db"
[[ -f "${CATALOG_DB}" ]] || { echo "ci-fuzz.sh: ${CATALOG_DB} missing" >&2; exit 1; }

source "${ROOT}/scripts/sanitizers/options.sh"

WORK="$(mktemp -d "${TMPDIR:-/tmp}/accelplan-fuzz.XXXXXX")"
export TMPDIR="${WORK}"  # the catalog fuzzer's scratch file goes here too
export ACCELPLAN_CATALOG="${CATALOG_DB}"

# Seeds: examples/ as JSON and binary requests; the built catalog for the
# loader.
protoc --include_imports -I "${ROOT}/proto" \
  -o "${WORK}/accelplan.desc" accelplan/v1/accelplan.proto
/usr/bin/python3 "${ROOT}/fuzz/make_seed_corpus.py" "${WORK}/accelplan.desc" \
  "${ROOT}/examples" "${WORK}/seeds/plan_request"
# Inputs that once crashed a target stay in its seeds (fuzz/regressions/).
cp "${ROOT}/fuzz/regressions/plan_request/"* "${WORK}/seeds/plan_request/"
mkdir -p "${WORK}/seeds/catalog_loader"
cp "${CATALOG_DB}" "${WORK}/seeds/catalog_loader/catalog.db"
catalog_bytes="$(stat -c %s "${CATALOG_DB}")"

# target:seed-dir:max_len. The catalog loader needs room for a whole catalog.
TARGETS=(
  "accelplan_fuzz_plan_request:plan_request:65536"
  "accelplan_fuzz_catalog_loader:catalog_loader:$((catalog_bytes * 2))"
)

failed=()
for spec in "${TARGETS[@]}"; do
  IFS=: read -r target seeds max_len <<<"${spec}"
  corpus="${WORK}/corpus/${target}"
  artifacts="${WORK}/artifacts/${target}/"
  mkdir -p "${corpus}" "${artifacts}"
  echo "=== ${target}: ${SECONDS_PER_TARGET}s, max_len ${max_len}"
  # -timeout: one input taking 30 s is a hang, which is a finding too.
  # The full log goes to a file; the console skips the per-input progress.
  set +e
  "${BUILD_DIR}/fuzz/${target}" \
    -max_total_time="${SECONDS_PER_TARGET}" -max_len="${max_len}" \
    -timeout=30 -rss_limit_mb=4096 -print_final_stats=1 \
    -artifact_prefix="${artifacts}" \
    "${corpus}" "${WORK}/seeds/${seeds}" 2>&1 | tee "${WORK}/${target}.log" |
    grep -v -E '^#[0-9]+[[:space:]]+(NEW|REDUCE|pulse)'
  status="${PIPESTATUS[0]}"
  set -e
  if [[ "${status}" -ne 0 ]] || compgen -G "${artifacts}*" >/dev/null; then
    echo "ci-fuzz.sh: ${target} FAILED (exit ${status})" >&2
    for artifact in "${artifacts}"*; do
      [[ -e "${artifact}" ]] && echo "ci-fuzz.sh: crash input: ${artifact}" >&2
    done
    echo "ci-fuzz.sh: log: ${WORK}/${target}.log" >&2
    failed+=("${target}")
  else
    echo "=== ${target}: ok ($(ls "${corpus}" | wc -l) new corpus inputs)"
  fi
done

if [[ ${#failed[@]} -gt 0 ]]; then
  echo "ci-fuzz.sh: FAILED: ${failed[*]}; work directory kept: ${WORK}" >&2
  exit 1
fi
if [[ "${FUZZ_KEEP:-0}" == 1 ]]; then
  echo "ci-fuzz.sh: work directory kept: ${WORK}"
else
  rm -rf "${WORK}"
fi
echo "ci-fuzz.sh: all fuzz targets passed (${SECONDS_PER_TARGET}s each)"
