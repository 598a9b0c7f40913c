#!/usr/bin/env bash
# Browser check of `accelplan plan --output=html` (a heavy test, run by
# .ci/run as the `browser` stage): renders reports in Debian's chromium
# headless, saves screenshots, finds no console message, checks the chart's
# points against the plan's costs and times and the marker on the
# recommended point (tests/html/check_report.py).
#
# Usage: tests/html/run.sh [BUILD_DIR]   (default: build)
# Installs Debian's chromium when absent (apt-get, as root or through sudo);
# never a package that downloads a browser. Screenshots land in
# BUILD_DIR/html-report/. Exits non-zero on any failure.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
BUILD_DIR="$(cd "${1:-build}" && pwd)"
log() { echo "html/run.sh: $*" >&2; }

for f in "${BUILD_DIR}/accelplan" "${BUILD_DIR}/catalog.db"; do
  if [[ ! -e "${f}" ]]; then
    log "missing ${f}; build first (cmake --build ${BUILD_DIR})"
    exit 1
  fi
done

CHROMIUM="$(command -v chromium || true)"
if [[ -z "${CHROMIUM}" ]]; then
  log "chromium not found; installing Debian's chromium"
  SUDO=()
  [[ "$(id -u)" -ne 0 ]] && SUDO=(sudo)
  "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
  "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y -q --no-install-recommends chromium
  CHROMIUM="$(command -v chromium)"
fi
log "$("${CHROMIUM}" --version 2>/dev/null || echo chromium)"

OUT="${BUILD_DIR}/html-report"
rm -rf "${OUT}"
mkdir -p "${OUT}"
/usr/bin/python3 "${HERE}/check_report.py" --build "${BUILD_DIR}" \
  --chromium "${CHROMIUM}" --out "${OUT}"
