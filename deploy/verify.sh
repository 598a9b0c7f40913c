#!/usr/bin/env bash
# shellcheck disable=SC1091  # sources facts.sh files written at run time
# deploy/verify.sh BUILD_DIR
#
# Proves the deployment on this machine, as far as it can run without a
# Kubernetes API server (docs/deploy.md, "Verifying"):
#   1. installs what it needs (Debian packages, pinned npm packages);
#   2. builds accelplan_loadgen and the catalog in BUILD_DIR (host side);
#   3. renders every kustomization under deploy/ with `kubectl kustomize` and
#      validates it offline (schemas, unknown fields, cross-object checks,
#      plus a self-test that broken variants are rejected);
#   4. builds the image with podman from a debootstrapped Debian 12 base
#      tagged debian:bookworm and debian:bookworm-slim;
#   5. runs two containers on loopback ports, each configured from a rendered
#      kustomization (r1: base, r2: the newer-catalog overlay with its catalog
#      mounted from the ConfigMap volume), and checks them directly;
#   6. puts haproxy in front (HTTP/2 both sides, gRPC readiness checks) and
#      drives load through it with accelplan_loadgen: zero failed calls and a
#      balanced split;
#   7. stops r1 with SIGTERM mid-load: every call still succeeds, traffic
#      moves to r2, r1 exits 0 within its grace period (no SIGKILL).
# Prints a report (calls, failures, split, drain) and its own run time.
# Runs as root (or through sudo for the package step); Debian 12.
set -euo pipefail

usage() { echo "usage: deploy/verify.sh BUILD_DIR   (e.g. deploy/verify.sh build)" >&2; exit 2; }
[[ $# -eq 1 ]] || usage
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=$(realpath -m "$1")

# Ports below the ephemeral range (32768-60999); override with the env.
R1_GRPC=${ACCELPLAN_VERIFY_R1_PORT:-21051}
R2_GRPC=${ACCELPLAN_VERIFY_R2_PORT:-21052}
R1_METRICS=${ACCELPLAN_VERIFY_R1_METRICS_PORT:-21061}
R2_METRICS=${ACCELPLAN_VERIFY_R2_METRICS_PORT:-21062}
LB_PORT=${ACCELPLAN_VERIFY_LB_PORT:-21080}
LB_STATS_PORT=${ACCELPLAN_VERIFY_LB_STATS_PORT:-21090}
# Load phases (seconds) and load shape.
BALANCE_SECONDS=${ACCELPLAN_VERIFY_BALANCE_SECONDS:-10}
DRAIN_LOAD_SECONDS=${ACCELPLAN_VERIFY_DRAIN_LOAD_SECONDS:-18}
SIGTERM_AFTER=${ACCELPLAN_VERIFY_SIGTERM_AFTER:-4}
CONCURRENCY=${ACCELPLAN_VERIFY_CONCURRENCY:-16}

IMAGE=localhost/accelplan-server:verify
BASE_IMAGE=localhost/accelplan-debian-base:bookworm
CACHE=${ACCELPLAN_DEPLOY_CACHE:-/var/cache/accelplan-deploy}
ROOTFS_TAR=${CACHE}/debian-bookworm-minbase.tar
C1=accelplan-verify-r1
C2=accelplan-verify-r2
LOADGEN=${BUILD}/bench/load/accelplan_loadgen

START=$(date +%s)
WORK=$(mktemp -d /tmp/accelplan-verify.XXXXXX)
HAPROXY_PID=""
LOAD_PID=""
POLL_PID=""
declare -a TIMINGS=()
ROOTFS_NOTE="base image already in podman"

log() { printf '[verify %4ds] %s\n' $(( $(date +%s) - START )) "$*"; }
die() {
  log "FAIL: $*"
  exit 1
}
step_start() { STEP_NAME=$1; STEP_T0=$(date +%s.%N); log "== ${STEP_NAME}"; }
step_end() {
  local s
  s=$(awk -v a="${STEP_T0}" -v b="$(date +%s.%N)" 'BEGIN{printf "%.1f", b-a}')
  TIMINGS+=("${STEP_NAME}: ${s} s")
  log "   ${STEP_NAME}: done in ${s} s"
}
since() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN{printf "%.2f", b-a}'; }

on_exit() {
  local rc=$?
  trap - EXIT INT TERM
  set +e
  for pid in "${POLL_PID}" "${LOAD_PID}" "${HAPROXY_PID}"; do
    if [[ -n "${pid}" ]]; then
      kill "${pid}" 2>/dev/null
      wait "${pid}" 2>/dev/null
    fi
  done
  if [[ ${rc} -ne 0 ]]; then
    for c in "${C1}" "${C2}"; do
      if podman container exists "${c}" 2>/dev/null; then
        echo "---- last log lines of ${c}" >&2
        podman logs --tail 15 "${c}" >&2 2>&1 || true
      fi
    done
    [[ -s "${WORK}/haproxy.log" ]] && { echo "---- haproxy log" >&2; tail -20 "${WORK}/haproxy.log" >&2; }
  fi
  for c in "${C1}" "${C2}"; do
    podman rm -f -t 0 "${c}" >/dev/null 2>&1 || true
  done
  if [[ ${rc} -eq 0 ]]; then rm -rf "${WORK}"; else echo "verify.sh: kept ${WORK} for inspection" >&2; fi
  exit "${rc}"
}
trap on_exit EXIT
trap 'exit 130' INT TERM

# Capture, then grep: `cmd | grep -q` under pipefail fails when grep exits
# early and cmd dies of SIGPIPE.
logs_of() { podman logs "$1" 2>&1; }
metrics_of() { curl -sf "http://127.0.0.1:$1/metrics"; }
port_free() { [[ -z "$(ss -Hltn "sport = :$1")" ]]; }

# ---------------------------------------------------------------- packages
step_start "packages"
PACKAGES=(
  podman runc uidmap fuse-overlayfs slirp4netns netavark aardvark-dns
  containernetworking-plugins catatonit debootstrap haproxy curl iproute2
)
SUDO=()
[[ "$(id -u)" -eq 0 ]] || SUDO=(sudo)
missing=()
for p in "${PACKAGES[@]}"; do
  [[ "$(dpkg-query -W -f='${Status}' "${p}" 2>/dev/null)" == "install ok installed" ]] || missing+=("${p}")
done
if [[ ${#missing[@]} -gt 0 ]]; then
  log "installing ${missing[*]}"
  "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
  "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
"${ROOT}/scripts/install-deps.sh"
# kubectl 1.32 and Node 20 come preinstalled on this machine kind; Debian's
# kubernetes-client (1.20) predates grpc probes and would clash with it.
command -v kubectl >/dev/null || die "kubectl not found (need >= 1.27 with kustomize; not Debian's kubernetes-client 1.20)"
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then die "node and npm (Node >= 20) not found"; fi
node -e 'process.exit(Number(process.versions.node.split(".")[0]) >= 20 ? 0 : 1)' || die "Node >= 20 required, have $(node --version)"
for p in "${R1_GRPC}" "${R2_GRPC}" "${R1_METRICS}" "${R2_METRICS}" "${LB_PORT}" "${LB_STATS_PORT}"; do
  port_free "${p}" || die "port ${p} is in use (set ACCELPLAN_VERIFY_*_PORT)"
done
step_end

# ---------------------------------------------------------------- host build
step_start "host build (accelplan_loadgen, catalog)"
[[ -f "${BUILD}/CMakeCache.txt" ]] || cmake -S "${ROOT}" -B "${BUILD}" >"${WORK}/cmake.log" 2>&1 ||
  { cat "${WORK}/cmake.log" >&2; die "cmake configure of ${BUILD} failed"; }
nice cmake --build "${BUILD}" -j2 --target accelplan_loadgen accelplan_catalog_db >"${WORK}/build.log" 2>&1 ||
  { tail -30 "${WORK}/build.log" >&2; die "building accelplan_loadgen in ${BUILD} failed"; }
[[ -x "${LOADGEN}" ]] || die "${LOADGEN} missing after the build"
[[ -f "${BUILD}/catalog.db" ]] || die "${BUILD}/catalog.db missing after the build"
step_end

# ---------------------------------------------------------------- manifests
step_start "manifests: kustomize + offline validation"
mkdir -p "${WORK}/validate" "${WORK}/rendered"
cp "${ROOT}"/deploy/validate/{package.json,package-lock.json,validate.mjs,podman-args.mjs} "${WORK}/validate/"
(cd "${WORK}/validate" && npm ci --no-audit --no-fund --loglevel=error >"${WORK}/npm.log" 2>&1) ||
  { cat "${WORK}/npm.log" >&2; die "npm ci in deploy/validate failed"; }
# A copy of deploy/, so the overlay can get a catalog.db without touching the
# source tree (the overlay serves whatever catalog.db sits beside it).
cp -r "${ROOT}/deploy" "${WORK}/deploy"
rendered=()
while IFS= read -r k; do
  dir=$(dirname "${k}")
  name=${dir#"${WORK}/deploy/"}
  name=${name//\//-}
  if grep -q 'catalog\.db' "${k}" && [[ ! -f "${dir}/catalog.db" ]]; then
    cp "${BUILD}/catalog.db" "${dir}/catalog.db"
  fi
  kubectl kustomize "${dir}" >"${WORK}/rendered/${name}.yaml" || die "kubectl kustomize ${dir#"${WORK}/"} failed"
  rendered+=("${WORK}/rendered/${name}.yaml")
done < <(find "${WORK}/deploy" -name kustomization.yaml -not -path '*/node_modules/*' | sort)
[[ -f "${WORK}/rendered/base.yaml" && -f "${WORK}/rendered/overlays-newer-catalog.yaml" ]] ||
  die "expected deploy/base and deploy/overlays/newer-catalog kustomizations"
(cd "${WORK}/rendered" && node "${WORK}/validate/validate.mjs" --flags "${ROOT}/server/flags.cc" --self-test \
  "${rendered[@]##*/}") | sed 's/^/   /' || die "manifest validation failed"
node "${WORK}/validate/podman-args.mjs" "${WORK}/rendered/base.yaml" "${WORK}/r1" >/dev/null
node "${WORK}/validate/podman-args.mjs" "${WORK}/rendered/overlays-newer-catalog.yaml" "${WORK}/r2" >/dev/null
step_end

# ---------------------------------------------------------------- image
step_start "image: debootstrapped base + podman build"
# crun rejects this kernel's hybrid cgroup layout and podman's default
# ulimits exceed the hard limits here: runc plus explicit ulimits work.
cat >"${WORK}/containers.conf" <<'EOF'
[containers]
default_ulimits = ["nofile=16384:16384", "nproc=16384:16384"]
[engine]
runtime = "runc"
EOF
export CONTAINERS_CONF="${WORK}/containers.conf"
if ! podman image exists "${BASE_IMAGE}"; then
  if [[ ! -f "${ROOTFS_TAR}" ]]; then
    mirror=$(awk '/^URIs:/{print $2; exit}' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)
    mirror=${mirror:-http://deb.debian.org/debian}
    log "debootstrap bookworm (minbase) from ${mirror}"
    ROOTFS_NOTE="base rootfs debootstrapped"
    rootfs="${WORK}/rootfs"
    debootstrap --variant=minbase bookworm "${rootfs}" "${mirror}" >"${WORK}/debootstrap.log" 2>&1 ||
      { tail -20 "${WORK}/debootstrap.log" >&2; die "debootstrap failed"; }
    # Same apt sources as Docker Hub's debian:bookworm (updates, security).
    rm -f "${rootfs}/etc/apt/sources.list"
    cat >"${rootfs}/etc/apt/sources.list.d/debian.sources" <<EOF
Types: deb
URIs: ${mirror}
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: ${mirror%/debian}/debian-security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
    rm -rf "${rootfs}"/var/cache/apt/archives/*.deb "${rootfs}"/var/lib/apt/lists/*
    mkdir -p "${CACHE}"
    tar --numeric-owner -C "${rootfs}" -cf "${ROOTFS_TAR}.tmp" .
    mv "${ROOTFS_TAR}.tmp" "${ROOTFS_TAR}"
    rm -rf "${rootfs}"
  else
    log "base rootfs from cache ${ROOTFS_TAR}"
    ROOTFS_NOTE="base rootfs from cache"
  fi
  podman import --change 'CMD ["/bin/bash"]' "${ROOTFS_TAR}" "${BASE_IMAGE}" >"${WORK}/import.log" 2>&1 ||
    { cat "${WORK}/import.log" >&2; die "podman import of ${ROOTFS_TAR} failed"; }
fi
# The Dockerfile's FROM names; an existing (e.g. pulled) image keeps its tag.
for name in debian:bookworm debian:bookworm-slim; do
  podman image exists "${name}" || podman tag "${BASE_IMAGE}" "${name}"
done
build_t0=$(date +%s.%N)
nice podman build --pull=never -t "${IMAGE}" -f "${ROOT}/Dockerfile" "${ROOT}" >"${WORK}/podman-build.log" 2>&1 ||
  { tail -40 "${WORK}/podman-build.log" >&2; die "podman build failed"; }
BUILD_SECONDS=$(since "${build_t0}")
user=$(podman image inspect "${IMAGE}" --format '{{.Config.User}}')
[[ "${user%%:*}" == 65532 ]] || die "image USER is '${user}', want 65532"
ldd_out=$(podman run --rm --entrypoint /usr/bin/ldd "${IMAGE}" /usr/local/bin/accelplan-server /usr/local/bin/accelplan)
! grep -q "not found" <<<"${ldd_out}" || die "runtime image lacks libraries: $(grep 'not found' <<<"${ldd_out}" | tr -s ' \t\n' ' ')"
IMAGE_MB=$(( $(podman image inspect "${IMAGE}" --format '{{.Size}}') / 1000000 ))
log "   image ${IMAGE}: ${IMAGE_MB} MB, USER ${user}, all shared libraries present; podman build ${BUILD_SECONDS} s"
step_end

# ---------------------------------------------------------------- containers
step_start "two containers (r1: base, r2: newer-catalog overlay)"
run_replica() {  # NAME CONFIG_DIR GRPC_HOST_PORT METRICS_HOST_PORT
  local name=$1 cfg=$2 grpc=$3 metrics=$4
  source "${cfg}/facts.sh"
  mapfile -t args <"${cfg}/args"
  podman rm -f -t 0 "${name}" >/dev/null 2>&1 || true
  podman run -d --name "${name}" "${args[@]}" \
    -p "127.0.0.1:${grpc}:${GRPC_PORT}" -p "127.0.0.1:${metrics}:${METRICS_PORT}" \
    "${IMAGE}" >/dev/null
}
wait_ready() {  # NAME PORT: catalog loaded ("ready") and gRPC reachable, within 30 s
  for _ in $(seq 1 60); do
    if grep -q '"msg":"ready"' <<<"$(logs_of "$1")" &&
        "${LOADGEN}" --target="127.0.0.1:$2" --rpc=health --requests=1 --concurrency=1 \
        --deadline_ms=1000 --expect_ok --quiet >/dev/null 2>&1; then
      return 0
    fi
    [[ "$(podman inspect "$1" --format '{{.State.Running}}')" == true ]] || die "$1 exited while starting"
    sleep 0.5
  done
  die "$1 not ready on 127.0.0.1:$2 after 30 s"
}
run_replica "${C1}" "${WORK}/r1" "${R1_GRPC}" "${R1_METRICS}"
run_replica "${C2}" "${WORK}/r2" "${R2_GRPC}" "${R2_METRICS}"
wait_ready "${C1}" "${R1_GRPC}"
wait_ready "${C2}" "${R2_GRPC}"
# The process really runs as the manifest's user with a read-only root.
for c in "${C1}" "${C2}"; do
  pid=$(podman inspect "${c}" --format '{{.State.Pid}}')
  uid=$(awk '/^Uid:/{print $2}' "/proc/${pid}/status")
  source "${WORK}/r1/facts.sh"
  [[ "${uid}" == "${RUN_AS_USER}" ]] || die "${c} runs as uid ${uid}, want ${RUN_AS_USER}"
  [[ "$(podman inspect "${c}" --format '{{.HostConfig.ReadonlyRootfs}}')" == true ]] || die "${c} root filesystem is writable"
done
# r2 serves the catalog from the overlay's volume, not the baked-in one.
source "${WORK}/r2/facts.sh"
[[ -n "${CATALOG}" ]] || die "overlay sets no ACCELPLAN_CATALOG"
loaded() { grep '"msg":"catalog loaded"' <<<"$(logs_of "$1")" || true; }
grep -qF "\"catalog\":\"${CATALOG}\"" <<<"$(loaded "${C2}")" ||
  die "${C2} did not load ${CATALOG}"
grep -qF '"catalog":"/usr/local/share/accelplan/catalog.db"' <<<"$(loaded "${C1}")" ||
  die "${C1} did not load the baked-in catalog"
# One planning load straight at each replica, every call OK.
for target in "${R1_GRPC}" "${R2_GRPC}"; do
  "${LOADGEN}" --target="127.0.0.1:${target}" --rpc=plan --view=full --examples_dir="${ROOT}/examples" \
    --requests=300 --concurrency=4 --expect_ok --quiet ||
    die "direct plan calls to 127.0.0.1:${target} failed"
done
for m in "${R1_METRICS}" "${R2_METRICS}"; do
  grep -q '^grpc_server_handled_total{' <<<"$(metrics_of "${m}")" ||
    die "no grpc_server_handled_total on 127.0.0.1:${m}/metrics"
done
# SIGHUP reloads the catalog in place (the rollout path without restarts).
catalog_loads() { grep -c '"msg":"catalog loaded"' <<<"$(logs_of "${C2}")" || true; }
loads=$(catalog_loads)
podman kill --signal HUP "${C2}" >/dev/null
for _ in $(seq 1 40); do
  (( $(catalog_loads) > loads )) && break
  sleep 0.25
done
(( $(catalog_loads) > loads )) || die "${C2}: SIGHUP did not reload the catalog"
grep -q '^accelplan_catalog_reloads_total{result="success"} 1$' <<<"$(metrics_of "${R2_METRICS}")" ||
  die "${C2}: accelplan_catalog_reloads_total{result=\"success\"} is not 1 after SIGHUP"
log "   both replicas ready (uid ${RUN_AS_USER}, read-only root); r2 serves ${CATALOG} and reloaded it on SIGHUP"
step_end

# ---------------------------------------------------------------- haproxy
step_start "haproxy L7 (h2 both sides, gRPC readiness checks)"
# shellcheck disable=SC1091
source "${WORK}/r1/facts.sh"
export ACCELPLAN_LB_BIND="127.0.0.1:${LB_PORT}" ACCELPLAN_LB_STATS="127.0.0.1:${LB_STATS_PORT}"
export ACCELPLAN_R1="127.0.0.1:${R1_GRPC}" ACCELPLAN_R2="127.0.0.1:${R2_GRPC}"
ACCELPLAN_HEALTH_CHECK_HEX=$("${ROOT}/deploy/haproxy/grpc-health-check-hex.sh" "${READINESS_SERVICE}")
export ACCELPLAN_HEALTH_CHECK_HEX
haproxy -c -q -f "${ROOT}/deploy/haproxy/haproxy.cfg" || die "haproxy.cfg does not parse"
haproxy -db -f "${ROOT}/deploy/haproxy/haproxy.cfg" >"${WORK}/haproxy.log" 2>&1 &
HAPROXY_PID=$!

# lb_stat SERVER FIELD: one column of haproxy's CSV stats for backend server.
lb_stat() {
  curl -sf "http://127.0.0.1:${LB_STATS_PORT}/stats;csv" |
    awk -F, -v s="$1" -v f="$2" 'NR==1{for(i=1;i<=NF;i++){n=$i; sub(/^# /,"",n); col[n]=i}; next}
                                  $1=="accelplan" && $2==s {print $col[f]}'
}
for _ in $(seq 1 40); do
  [[ "$(lb_stat r1 status)" == UP && "$(lb_stat r2 status)" == UP ]] && break
  sleep 0.25
done
[[ "$(lb_stat r1 status)" == UP && "$(lb_stat r2 status)" == UP ]] ||
  die "haproxy does not see both replicas UP (r1 $(lb_stat r1 status), r2 $(lb_stat r2 status))"
step_end

# json_field FILE EXPR: a value from the loadgen's --json_out.
json_field() { node -e 'const j=JSON.parse(require("fs").readFileSync(process.argv[1],"utf8")); console.log(eval(process.argv[2]))' "$1" "$2"; }
loadgen_lb() {  # JSON_OUT SECONDS: plan load through haproxy, one client connection
  "${LOADGEN}" --target="127.0.0.1:${LB_PORT}" --rpc=plan --view=basic --examples_dir="${ROOT}/examples" \
    --concurrency="${CONCURRENCY}" --channels=1 --duration_seconds="$2" --deadline_ms=5000 \
    --json_out="$1" --expect_ok --quiet
}
failed_calls() { json_field "$1" '(j.calls - (j.codes.OK ?? 0))'; }

# ---------------------------------------------------------------- balance
step_start "load through haproxy: zero failures, balanced split"
a1=$(lb_stat r1 stot); a2=$(lb_stat r2 stot)
loadgen_lb "${WORK}/balance.json" "${BALANCE_SECONDS}" || die "load through haproxy had failed calls: $(cat "${WORK}/balance.json" 2>/dev/null)"
b1=$(lb_stat r1 stot); b2=$(lb_stat r2 stot)
BAL_CALLS=$(json_field "${WORK}/balance.json" j.calls)
BAL_FAILED=$(failed_calls "${WORK}/balance.json")
BAL_RPS=$(json_field "${WORK}/balance.json" j.rps)
BAL_P99=$(json_field "${WORK}/balance.json" j.latency_ms.p99)
BAL_R1=$(( b1 - a1 )); BAL_R2=$(( b2 - a2 ))
(( BAL_CALLS > 0 && BAL_FAILED == 0 )) || die "balance phase: ${BAL_CALLS} calls, ${BAL_FAILED} failed"
(( BAL_R1 > 0 && BAL_R2 > 0 )) || die "balance phase: r1 got ${BAL_R1}, r2 got ${BAL_R2} calls"
# Round robin per call: each replica within 45-55 % of the calls.
awk -v x="${BAL_R1}" -v y="${BAL_R2}" 'BEGIN{s=x/(x+y); exit !(s>=0.45 && s<=0.55)}' ||
  die "unbalanced split r1 ${BAL_R1} / r2 ${BAL_R2}"
log "   ${BAL_CALLS} calls, ${BAL_FAILED} failed, ${BAL_RPS} req/s, p99 ${BAL_P99} ms; split r1 ${BAL_R1} / r2 ${BAL_R2}"
step_end

# ---------------------------------------------------------------- drain
step_start "SIGTERM r1 under load: no failed call, traffic moves, exit 0"
source "${WORK}/r1/facts.sh"
(( DRAIN_LOAD_SECONDS > SIGTERM_AFTER + ${DRAIN_DELAY%.*} + 3 )) ||
  die "ACCELPLAN_VERIFY_DRAIN_LOAD_SECONDS too short to cover the drain"
s1=$(lb_stat r1 stot); s2=$(lb_stat r2 stot)
loadgen_lb "${WORK}/drain.json" "${DRAIN_LOAD_SECONDS}" &
LOAD_PID=$!
sleep "${SIGTERM_AFTER}"
t1=$(lb_stat r1 stot); t2=$(lb_stat r2 stot)
term_t0=$(date +%s.%N)
# Record when haproxy's readiness check takes r1 out (NOT_SERVING).
(
  while [[ "$(lb_stat r1 status)" != DOWN* ]]; do sleep 0.05; done
  since "${term_t0}" >"${WORK}/r1_down_after"
) &
POLL_PID=$!
# podman stop sends SIGTERM, then SIGKILL after the timeout: use the pod's
# terminationGracePeriodSeconds, as the kubelet would.
podman stop -t "${TERMINATION_GRACE}" "${C1}" >"${WORK}/stop.log" 2>&1 || die "podman stop ${C1} failed: $(cat "${WORK}/stop.log")"
STOP_SECONDS=$(since "${term_t0}")
u1=$(lb_stat r1 stot); u2=$(lb_stat r2 stot)
wait "${POLL_PID}" 2>/dev/null || true
POLL_PID=""
DRAIN_RC=0
wait "${LOAD_PID}" || DRAIN_RC=$?
LOAD_PID=""
v1=$(lb_stat r1 stot); v2=$(lb_stat r2 stot)
EXIT_CODE=$(podman inspect "${C1}" --format '{{.State.ExitCode}}')
DOWN_AFTER=$(cat "${WORK}/r1_down_after" 2>/dev/null || echo "never")
DR_CALLS=$(json_field "${WORK}/drain.json" j.calls)
DR_FAILED=$(failed_calls "${WORK}/drain.json")
DR_CODES=$(json_field "${WORK}/drain.json" 'Object.entries(j.codes).map(([k,v])=>k+"="+v).join(" ")')
PRE_R1=$(( t1 - s1 )); PRE_R2=$(( t2 - s2 ))
MID_R1=$(( u1 - t1 )); MID_R2=$(( u2 - t2 ))
POST_R1=$(( v1 - u1 )); POST_R2=$(( v2 - u2 ))
log "   ${DR_CALLS} calls (${DR_CODES}), ${DR_FAILED} failed, loadgen exit ${DRAIN_RC}"
log "   split before SIGTERM r1 ${PRE_R1} / r2 ${PRE_R2}; during drain r1 ${MID_R1} / r2 ${MID_R2}; after exit r1 ${POST_R1} / r2 ${POST_R2}"
log "   r1 marked DOWN by the readiness check ${DOWN_AFTER} s after SIGTERM; exited with code ${EXIT_CODE} after ${STOP_SECONDS} s (drain ${DRAIN_DELAY} s + grace <= ${SHUTDOWN_GRACE} s; SIGKILL at ${TERMINATION_GRACE} s)"
(( DRAIN_RC == 0 && DR_FAILED == 0 && DR_CALLS > 0 )) || die "calls failed during the drain (${DR_CODES})"
(( PRE_R1 > 0 && PRE_R2 > 0 )) || die "both replicas should serve before SIGTERM (r1 ${PRE_R1}, r2 ${PRE_R2})"
(( POST_R1 == 0 && POST_R2 > 0 )) || die "traffic did not move to r2 after r1 exited (r1 ${POST_R1}, r2 ${POST_R2})"
[[ "${DOWN_AFTER}" != never ]] || die "haproxy never marked r1 DOWN"
awk -v d="${DOWN_AFTER}" -v s="${STOP_SECONDS}" 'BEGIN{exit !(d < s)}' || die "r1 was not taken out before it exited"
[[ "${EXIT_CODE}" == 0 ]] || die "r1 exit code ${EXIT_CODE}, want 0"
! grep -qi "SIGKILL" "${WORK}/stop.log" || die "podman had to SIGKILL r1: $(cat "${WORK}/stop.log")"
awk -v s="${STOP_SECONDS}" -v t="${TERMINATION_GRACE}" 'BEGIN{exit !(s < t)}' || die "r1 took ${STOP_SECONDS} s, grace period ${TERMINATION_GRACE} s"
grep -q '"msg":"draining"' <<<"$(logs_of "${C1}")" || die "r1 did not log its drain"
# The idle replica drains the same way.
r2_t0=$(date +%s.%N)
podman stop -t "${TERMINATION_GRACE}" "${C2}" >"${WORK}/stop2.log" 2>&1 || die "podman stop ${C2} failed"
R2_STOP_SECONDS=$(since "${r2_t0}")
R2_EXIT=$(podman inspect "${C2}" --format '{{.State.ExitCode}}')
if [[ "${R2_EXIT}" != 0 ]] || grep -qi SIGKILL "${WORK}/stop2.log"; then
  die "r2 exit code ${R2_EXIT} after SIGTERM: $(cat "${WORK}/stop2.log")"
fi
log "   r2 (idle) exited with code ${R2_EXIT} after ${R2_STOP_SECONDS} s"
step_end

# ---------------------------------------------------------------- report
TOTAL=$(( $(date +%s) - START ))
cat <<EOF

==================== deploy/verify.sh report ====================
manifests   : $(printf '%s ' "${rendered[@]##*/}")rendered, schema + cross-checks passed (self-test: broken variants rejected)
image       : ${IMAGE} (${IMAGE_MB} MB, USER 65532), podman build ${BUILD_SECONDS} s
balance     : ${BAL_CALLS} calls, ${BAL_FAILED} failed, ${BAL_RPS} req/s over one client connection
              split r1 ${BAL_R1} / r2 ${BAL_R2}
drain       : ${DR_CALLS} calls, ${DR_FAILED} failed while r1 was stopped (SIGTERM at ${SIGTERM_AFTER} s)
              before SIGTERM r1 ${PRE_R1} / r2 ${PRE_R2}; during drain r1 ${MID_R1} / r2 ${MID_R2}; after r1 exited r1 ${POST_R1} / r2 ${POST_R2}
              r1 out of rotation ${DOWN_AFTER} s after SIGTERM (readiness NOT_SERVING)
              r1 exit code ${EXIT_CODE} after ${STOP_SECONDS} s (< terminationGracePeriodSeconds ${TERMINATION_GRACE}, no SIGKILL)
              r2 exit code ${R2_EXIT} after ${R2_STOP_SECONDS} s (idle)
steps       : ${TIMINGS[0]}
$(printf '              %s\n' "${TIMINGS[@]:1}")
total       : ${TOTAL} s (${ROOTFS_NOTE})
PASS
EOF
