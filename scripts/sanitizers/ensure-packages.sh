#!/usr/bin/env bash
# ensure-packages.sh PACKAGE...: installs the Debian packages that are not
# installed yet (as root, or through sudo). Shared by ci-sanitizers.sh and
# ci-fuzz.sh, which need clang's toolchain beyond scripts/install-deps.sh.
set -euo pipefail
missing=()
for package in "$@"; do
  dpkg-query -W -f='${Status}' "${package}" 2>/dev/null |
    grep -q "install ok installed" || missing+=("${package}")
done
if [[ ${#missing[@]} -gt 0 ]]; then
  SUDO=()
  [[ "$(id -u)" -ne 0 ]] && SUDO=(sudo)
  "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
  "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
    "${missing[@]}"
fi
