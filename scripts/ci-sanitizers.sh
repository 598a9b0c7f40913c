#!/usr/bin/env bash
# ASan+UBSan build of the whole tree with clang, plus the libFuzzer targets
# (one build shared with scripts/ci-fuzz.sh), then the full ctest suite in it.
#
#   scripts/ci-sanitizers.sh [BUILD_DIR]     (default: build-asan)
#
# Exits non-zero on a build failure or any test failure; a sanitizer finding
# fails its test (halt_on_error / -fno-sanitize-recover). Runtime options and
# why each differs from the default: scripts/sanitizers/README.md.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT="$(pwd)"
BUILD_DIR="${1:-build-asan}"

# clang-14 and its compiler-rt (ASan, UBSan, libFuzzer runtimes). The rest of
# the toolchain comes from scripts/install-deps.sh.
scripts/sanitizers/ensure-packages.sh clang-14 libclang-rt-14-dev llvm-14

# The whole build is instrumented (simplest, and our static libraries must be
# for the fuzzers anyway); Debian's gRPC/protobuf/abseil/SQLite are not.
# fuzzer-no-link adds the coverage the fuzzers need to our libraries; the
# tests link the sanitizer runtime, which provides the coverage callbacks.
# -Wno-error (appended by the compiler wrapper, see its comment): clang warns
# where GCC does not; the GCC build keeps -Werror, this one only reports.
SAN_FLAGS="-fsanitize=address,undefined -fno-sanitize-recover=undefined"
SAN_FLAGS+=" -fno-omit-frame-pointer -fsanitize=fuzzer-no-link"
CC=clang-14 CXX="${ROOT}/scripts/sanitizers/clang++-wno-error" cmake -S "${ROOT}" -B "${BUILD_DIR}" \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS="${SAN_FLAGS}" \
  -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" \
  -DCMAKE_SHARED_LINKER_FLAGS="-fsanitize=address,undefined" \
  -DACCELPLAN_FUZZ=ON
cmake --build "${BUILD_DIR}" -j"${JOBS:-2}"

source "${ROOT}/scripts/sanitizers/options.sh"
# Serial like .ci/run's ctest: several tests pick a free port and bind it
# later, which races with a parallel test (CTEST_JOBS=2 to try anyway).
ctest --test-dir "${BUILD_DIR}" --output-on-failure -j"${CTEST_JOBS:-1}" \
  ${CTEST_ARGS:-}
