#!/usr/bin/env bash
# Installs the Debian 12 packages accelplan builds, tests and runs with.
# Non-interactive and idempotent; runs as root, or through sudo otherwise.
set -euo pipefail

PACKAGES=(
  # toolchain
  cmake g++ make pkg-config ca-certificates
  # C++ libraries and code generators
  libgrpc++-dev protobuf-compiler-grpc libprotobuf-dev protobuf-compiler
  libabsl-dev prometheus-cpp-dev libsqlitecpp-dev libsqlite3-dev
  # tests and benchmarks
  libgtest-dev libgmock-dev libbenchmark-dev nghttp2-client openssl
  # Python client package and its tests (for /usr/bin/python3)
  python3-grpcio python3-protobuf python3-pytest
  # job-spec validators (JobSet CRD + Vertex JSON Schema) and the
  # `pip install ./client/python` test
  python3-yaml python3-jsonschema python3-pip python3-setuptools python3-wheel
)

SUDO=()
if [[ "$(id -u)" -ne 0 ]]; then
  if ! command -v sudo >/dev/null 2>&1; then
    echo "install-deps.sh: run as root or install sudo" >&2
    exit 1
  fi
  SUDO=(sudo)
fi

# Skip apt entirely when everything is already there (fast re-runs, offline).
missing=()
for package in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "${package}" 2>/dev/null |
      grep -q "install ok installed"; then
    missing+=("${package}")
  fi
done
if [[ ${#missing[@]} -eq 0 ]]; then
  echo "install-deps.sh: all ${#PACKAGES[@]} packages already installed"
  exit 0
fi

echo "install-deps.sh: installing ${missing[*]}"
"${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
"${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
  "${missing[@]}"
