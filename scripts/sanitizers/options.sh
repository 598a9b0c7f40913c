# Sanitizer runtime options for the clang ASan+UBSan build; sourced by
# scripts/ci-sanitizers.sh and scripts/ci-fuzz.sh. See README.md here for why.
SAN_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1:check_initialization_order=1:halt_on_error=1:abort_on_error=1:print_stacktrace=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1:report_error_type=1}"
export LSAN_OPTIONS="${LSAN_OPTIONS:-suppressions=${SAN_DIR}/lsan.supp:print_suppressions=0}"
# llvm-14 keeps llvm-symbolizer outside PATH on some installs.
if [[ -z "${ASAN_SYMBOLIZER_PATH:-}" && -x /usr/lib/llvm-14/bin/llvm-symbolizer ]]; then
  export ASAN_SYMBOLIZER_PATH=/usr/lib/llvm-14/bin/llvm-symbolizer
fi
