#!/usr/bin/env bash
# Prints, as hex for haproxy's `tcp-check send-binary`, one cleartext HTTP/2
# (prior knowledge) gRPC call grpc.health.v1.Health/Check for SERVICE
# (default: accelplan.v1.TrainingPlanner, the server's readiness service).
# haproxy 2.6 cannot put the binary gRPC body into an httpchk, so the check
# speaks HTTP/2 itself; the reply to expect for SERVING is the gRPC message
# 00 00000002 0801 (HealthCheckResponse{status: SERVING}); NOT_SERVING (0802)
# or a refused connection marks the server down.
set -euo pipefail

service=${1:-accelplan.v1.TrainingPlanner}
path=/grpc.health.v1.Health/Check

hex() { printf '%s' "$1" | od -An -tx1 -v | tr -d ' \n'; }
byte() { printf '%02x' "$1"; }
# HPACK string literal without Huffman coding; lengths stay below 127.
str() {
  (( ${#1} < 127 )) || { echo "grpc-health-check-hex.sh: '$1' too long" >&2; exit 2; }
  printf '%s%s' "$(byte ${#1})" "$(hex "$1")"
}
# Frame: 24-bit length, type, flags, stream id 1.
frame() {  # TYPE FLAGS PAYLOAD_HEX
  local len=$(( ${#3} / 2 ))
  printf '%06x%s%s00000001%s' "${len}" "$1" "$2" "$3"
}

headers=""
headers+="83"                                  # :method POST (static 3)
headers+="86"                                  # :scheme http (static 6)
headers+="04$(str "${path}")"                  # :path, literal, name static 4
headers+="01$(str localhost)"                  # :authority, name static 1
headers+="0f10$(str application/grpc)"         # content-type, name static 31
headers+="00$(str te)$(str trailers)"          # te: trailers, literal name
(( ${#service} < 127 )) || { echo "service name too long" >&2; exit 2; }
message="0a$(byte ${#service})$(hex "${service}")"  # field 1 (service)
grpc="00$(printf '%08x' $(( ${#message} / 2 )))${message}"

printf '%s' "$(hex $'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n')"   # client preface
printf '000000040000000000'                                # empty SETTINGS
frame 01 04 "${headers}"                                   # HEADERS, END_HEADERS
frame 00 01 "${grpc}"                                      # DATA, END_STREAM
echo
