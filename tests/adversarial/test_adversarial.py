"""Adversarial suite (issue 20 item 7): hostile inputs replayed against a
real accelplan-server on free loopback ports.

Each case asserts the status code, that the offending field is named in the
google.rpc.BadRequest details, that the error trailers stay bounded (so every
client can read them), and that a health Check answers within
ACCELPLAN_HEALTH_BUDGET_MS (default 100 ms) right afterwards.

Undecodable bodies (invalid UTF-8, garbage, truncation) must get
INVALID_ARGUMENT naming the request type, counted in /metrics. Calls
abandoned at ~50 ms (deadline or client cancel) behind expensive valid
requests must be counted CANCELLED or DEADLINE_EXCEEDED, never OK. The
overload load test lives in test_overload.py.

Run with tests/adversarial/run.sh BUILD_DIR (not part of the default ctest).
"""

import math
import os
import signal
import socket
import subprocess
import tempfile
import time

import grpc
import pytest

import worst_cases

from accelplan.v1 import accelplan_pb2
from accelplan.google.rpc import error_details_pb2, status_pb2

BUILD = os.environ["ACCELPLAN_BUILD_DIR"]
SERVER = os.path.join(BUILD, "accelplan-server")
CATALOG = os.path.join(BUILD, "catalog.db")
READINESS_SERVICE = "accelplan.v1.TrainingPlanner"
HEALTH_BUDGET_S = float(os.environ.get("ACCELPLAN_HEALTH_BUDGET_MS", "100")) / 1000
CALL_TIMEOUT_S = 20

# server/status.h caps, far under gRPC's 8 KiB default metadata limit.
MAX_MESSAGE_BYTES = 1024
MAX_DETAILS_BYTES = 3072
MAX_LISTED_VIOLATIONS = 21  # 20 + "and N more"

PLAN = "/accelplan.v1.TrainingPlanner/PlanTraining"
REVIEW = "/accelplan.v1.TrainingPlanner/ReviewPlan"
LIST = "/accelplan.v1.TrainingPlanner/ListAccelerators"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def health_check(channel, service, timeout):
    """grpc.health.v1.Health/Check by hand; returns the status enum."""
    check = channel.unary_unary(
        "/grpc.health.v1.Health/Check",
        request_serializer=lambda s: (b"\x0a" + bytes([len(s)]) + s.encode()
                                      if s else b""),
        response_deserializer=lambda b: b[1] if len(b) >= 2 else 0)
    return check(service, timeout=timeout)


class Server:
    def __init__(self, *extra_args):
        self.port = free_port()
        self.metrics_port = free_port()
        self.target = "127.0.0.1:%d" % self.port
        self.log = tempfile.NamedTemporaryFile(
            prefix="accelplan-adversarial-", suffix=".log", delete=False)
        self.process = subprocess.Popen(
            [SERVER, "--listen", self.target,
             "--metrics_listen", "127.0.0.1:%d" % self.metrics_port,
             "--catalog", CATALOG, "--drain_delay_seconds", "0"]
            + list(extra_args),
            stdout=self.log, stderr=subprocess.STDOUT)

    def log_tail(self):
        self.log.flush()
        with open(self.log.name, "rb") as f:
            return f.read().decode(errors="replace")[-3000:]

    def wait_ready(self, seconds=60):
        # Connect only once the port accepts: a channel whose first attempt
        # is refused waits out gRPC's reconnect backoff (seconds).
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline and self.process.poll() is None:
            try:
                socket.create_connection(("127.0.0.1", self.port), 1).close()
                break
            except OSError:
                time.sleep(0.02)
        channel = grpc.insecure_channel(self.target)
        try:
            while time.monotonic() < deadline and self.process.poll() is None:
                try:
                    if health_check(channel, READINESS_SERVICE, 1) == 1:
                        return True
                except grpc.RpcError:
                    pass
                time.sleep(0.05)
            return False
        finally:
            channel.close()

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()
        os.unlink(self.log.name)


def start_server(*extra_args):
    s = Server(*extra_args)
    if not s.wait_ready():
        tail = s.log_tail()
        s.process.kill()
        s.process.wait()
        pytest.fail("accelplan-server never became SERVING:\n" + tail)
    return s


@pytest.fixture(scope="module")
def server():
    s = start_server()
    yield s
    assert s.process.poll() is None, "server died:\n" + s.log_tail()
    s.stop()


@pytest.fixture(scope="module")
def channel(server):
    ch = grpc.insecure_channel(
        server.target, options=[("grpc.max_send_message_length", -1)])
    health_check(ch, "", 5)  # connected before anything is timed
    yield ch
    ch.close()


def call_raw(channel, method, body):
    """Sends `body` (bytes) as-is; returns (code, details, trailing dict)."""
    stub = channel.unary_unary(method, request_serializer=None,
                               response_deserializer=None)
    try:
        stub(body, timeout=CALL_TIMEOUT_S)
        return grpc.StatusCode.OK, "", {}
    except grpc.RpcError as e:
        return e.code(), e.details() or "", dict(e.trailing_metadata() or ())


def scrape(metrics_port):
    """The /metrics text of the server."""
    with socket.create_connection(("127.0.0.1", metrics_port),
                                  timeout=5) as sock:
        sock.sendall(b"GET /metrics HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n")
        data = b""
        while True:
            chunk = sock.recv(65536)
            if not chunk:
                break
            data += chunk
    return data.decode(errors="replace")


def sample(text, name, *labels):
    """Sum of the samples of `name` whose labels include every `labels`."""
    total = 0.0
    for line in text.splitlines():
        if not line.startswith(name + "{"):
            continue
        head, _, value = line.rpartition(" ")
        if all(l in head for l in labels):
            total += float(value)
    return total


def handled(text, method, code):
    return sample(text, "grpc_server_handled_total",
                  'grpc_method="%s"' % method, 'grpc_code="%s"' % code)


def violations(trailers):
    raw = trailers.get("grpc-status-details-bin")
    if raw is None:
        return None, []
    status = status_pb2.Status()
    status.ParseFromString(raw)
    out = []
    for detail in status.details:
        bad = error_details_pb2.BadRequest()
        if detail.Unpack(bad):
            out.extend((v.field, v.description) for v in bad.field_violations)
    return raw, out


def assert_health_fast(channel, server):
    start = time.monotonic()
    status = health_check(channel, READINESS_SERVICE, 2)
    elapsed = time.monotonic() - start
    assert server.process.poll() is None, "server died:\n" + server.log_tail()
    assert status == 1, "readiness not SERVING after the case"
    assert elapsed < HEALTH_BUDGET_S, (
        "health Check took %.1f ms after the case (budget %.0f ms)"
        % (elapsed * 1000, HEALTH_BUDGET_S * 1000))


# ------------------------------------------------------------------ cases

def plan(**kw):
    r = accelplan_pb2.PlanTrainingRequest()
    r.workload.framework = accelplan_pb2.JAX
    r.workload.parameter_count = 7e9
    for key, fn in kw.items():
        fn(r)
    return r


def review(fn=None):
    r = accelplan_pb2.ReviewPlanRequest()
    r.workload.framework = accelplan_pb2.JAX
    r.workload.parameter_count = 8e9
    p = r.proposals.add()
    p.label = "v5e"
    p.hardware.accelerator = "tpu-v5e"
    p.hardware.tpu_topology = "8x8"
    if fn:
        fn(r)
    return r


def setattr_path(path, value):
    def apply(r):
        obj = r
        parts = path.split(".")
        for p in parts[:-1]:
            obj = getattr(obj, p)
        setattr(obj, parts[-1], value)
    return apply


def extend_path(path, values):
    def apply(r):
        obj = r
        for p in path.split("."):
            obj = getattr(obj, p)
        obj.extend(values)
    return apply


def hardware_proposals(n):
    def apply(r):
        for i in range(n):
            p = r.proposals.add()
            p.label = "p%d" % i
            p.hardware.accelerator = "nvidia-h100-80gb"
            p.hardware.count = 8
    return apply


def remedy_widths(n):
    def apply(r):
        p = r.proposals.add()
        p.remedy.kind = accelplan_pb2.FIX_TENSOR_SHAPES
        p.remedy.layer_widths.extend([-1] * n)
    return apply


def field_bytes(number, payload):
    """A length-delimited field `number` holding raw `payload` bytes."""
    key = bytes([(number << 3) | 2])
    n, varint = len(payload), b""
    while True:
        b = n & 0x7F
        n >>= 7
        varint += bytes([b | 0x80 if n else b])
        if not n:
            return key + varint + payload


S3000 = "9" * 3000
VALID_PLAN = plan().SerializeToString()

# (id, method, body bytes, expected code, field prefix the details must name)
CASES = [
    ("nan_parameter_count", PLAN,
     plan(a=setattr_path("workload.parameter_count", math.nan)),
     "INVALID_ARGUMENT", "workload.parameter_count"),
    ("inf_budget", PLAN, plan(a=setattr_path("goal.budget_usd", math.inf)),
     "INVALID_ARGUMENT", "goal.budget_usd"),
    ("minus_inf_deadline", PLAN,
     plan(a=setattr_path("goal.deadline_hours", -math.inf)),
     "INVALID_ARGUMENT", "goal.deadline_hours"),
    ("1e308_parameter_count", PLAN,
     plan(a=setattr_path("workload.parameter_count", 1e308)),
     "INVALID_ARGUMENT", "workload.parameter_count"),
    ("1e308_dataset_tokens", PLAN,
     plan(a=setattr_path("workload.dataset_tokens", 1e308)),
     "INVALID_ARGUMENT", "workload.dataset_tokens"),
    ("unknown_framework_enum", PLAN,
     plan(a=setattr_path("workload.framework", 99)),
     "INVALID_ARGUMENT", "workload.framework"),
    ("unknown_view_enum", PLAN, plan(a=setattr_path("view", 12345)),
     "INVALID_ARGUMENT", "view"),
    ("10000_unknown_symptoms", PLAN,
     plan(a=extend_path("current_setup.symptoms", range(1000, 11000))),
     "INVALID_ARGUMENT", "current_setup.symptoms"),
    ("17_symptoms", PLAN,
     plan(a=extend_path("current_setup.symptoms",
                        [accelplan_pb2.INPUT_BOUND] * 17)),
     "INVALID_ARGUMENT", "current_setup.symptoms"),
    ("65_allowed_series", PLAN,
     plan(a=extend_path("constraints.allowed_series", ["TPU v5e"] * 65)),
     "INVALID_ARGUMENT", "constraints.allowed_series"),
    ("100000_empty_allowed_series", PLAN,
     plan(a=extend_path("constraints.allowed_series", [""] * 100000)),
     "INVALID_ARGUMENT", "constraints.allowed_series"),
    ("65_char_series_name", PLAN,
     plan(a=extend_path("constraints.allowed_series", ["x" * 65])),
     "INVALID_ARGUMENT", "constraints.allowed_series[0]"),
    ("17_allowed_platforms", PLAN,
     plan(a=extend_path("constraints.allowed_platforms",
                        [accelplan_pb2.TPU] * 17)),
     "INVALID_ARGUMENT", "constraints.allowed_platforms"),
    ("10000_negative_layer_widths", PLAN,
     plan(a=extend_path("current_setup.layer_widths", [-1] * 10000)),
     "INVALID_ARGUMENT", "current_setup.layer_widths"),
    ("60_negative_layer_widths", PLAN,
     plan(a=extend_path("current_setup.layer_widths", [-1] * 60)),
     "INVALID_ARGUMENT", "current_setup.layer_widths["),
    ("3000_char_as_of", PLAN, plan(a=setattr_path("as_of", S3000)),
     "INVALID_ARGUMENT", "as_of"),
    ("3000_char_region", PLAN,
     plan(a=setattr_path("constraints.region", S3000)),
     "INVALID_ARGUMENT", "constraints.region"),
    ("3000_multibyte_char_region", PLAN,
     plan(a=setattr_path("constraints.region", "\u20ac" * 3000)),
     "INVALID_ARGUMENT", "constraints.region"),
    ("3000_char_framework_version", PLAN,
     plan(a=setattr_path("workload.framework_version", S3000)),
     "INVALID_ARGUMENT", "workload.framework_version"),
    ("3000_char_current_hardware", PLAN,
     plan(a=setattr_path("current_setup.hardware", S3000)),
     "INVALID_ARGUMENT", "current_setup.hardware"),
    ("bad_topology_zero", PLAN,
     plan(a=setattr_path("current_setup.tpu_topology", "4x0")),
     "INVALID_ARGUMENT", "current_setup.tpu_topology"),
    ("bad_topology_words", PLAN,
     plan(a=setattr_path("current_setup.tpu_topology", "big")),
     "INVALID_ARGUMENT", "current_setup.tpu_topology"),
    ("3000_char_topology", PLAN,
     plan(a=setattr_path("current_setup.tpu_topology", "2x" * 1500)),
     "INVALID_ARGUMENT", "current_setup.tpu_topology"),
    ("bad_date_feb_30", PLAN, plan(a=setattr_path("as_of", "2026-02-30")),
     "INVALID_ARGUMENT", "as_of"),
    ("bad_date_words", PLAN, plan(a=setattr_path("as_of", "yesterday")),
     "INVALID_ARGUMENT", "as_of"),
    ("1e6_slices", PLAN,
     plan(a=setattr_path("current_setup.slice_count", 1000000)),
     "INVALID_ARGUMENT", "current_setup.slice_count"),
    ("1e6_nodes", PLAN,
     plan(a=setattr_path("current_setup.node_count", 1000000)),
     "INVALID_ARGUMENT", "current_setup.node_count"),
    ("negative_max_accelerators", PLAN,
     plan(a=setattr_path("constraints.max_accelerators", -8)),
     "INVALID_ARGUMENT", "constraints.max_accelerators"),
    ("65_proposals", REVIEW, review(hardware_proposals(64)),
     "INVALID_ARGUMENT", "proposals"),
    ("10000_proposal_layer_widths", REVIEW, review(remedy_widths(10000)),
     "INVALID_ARGUMENT", "proposals[1].remedy.layer_widths"),
    ("bad_proposal_topology", REVIEW,
     review(lambda r: setattr(r.proposals[0].hardware, "tpu_topology",
                              "8by8")),
     "INVALID_ARGUMENT", "proposals[0].hardware.tpu_topology"),
    ("1e6_proposal_slices", REVIEW,
     review(lambda r: setattr(r.proposals[0].hardware, "slices", 1000000)),
     "INVALID_ARGUMENT", "proposals[0].hardware.slices"),
    ("17_list_platforms", LIST,
     accelplan_pb2.ListAcceleratorsRequest(platforms=[accelplan_pb2.GPU] * 17),
     "INVALID_ARGUMENT", "platforms"),
    ("nan_min_memory", LIST,
     accelplan_pb2.ListAcceleratorsRequest(min_memory_gib=math.nan),
     "INVALID_ARGUMENT", "min_memory_gib"),
    # Over --max_receive_message_bytes (1 MiB): gRPC refuses it before the
    # handler; nothing to name.
    ("10_mb_body", PLAN, plan(a=setattr_path("as_of", "x" * (10 << 20))),
     "RESOURCE_EXHAUSTED", None),
]


@pytest.mark.parametrize("case_id,method,request_message,want,field",
                         CASES, ids=[c[0] for c in CASES])
def test_hostile_request(server, channel, case_id, method, request_message,
                         want, field):
    body = request_message.SerializeToString()
    code, message, trailers = call_raw(channel, method, body)
    assert_health_fast(channel, server)
    assert code.name == want, "%s: got %s %r" % (case_id, code.name,
                                                 message[:300])
    assert len(message.encode()) <= MAX_MESSAGE_BYTES
    if field is None:
        return
    raw, listed = violations(trailers)
    assert raw is not None, "no google.rpc.Status details"
    assert len(raw) <= MAX_DETAILS_BYTES
    assert 1 <= len(listed) <= MAX_LISTED_VIOLATIONS
    assert any(f.startswith(field) for f, _ in listed), (
        "%s not named; got %r" % (field, [f for f, _ in listed]))
    assert field.rstrip("[") in message


# Undecodable bodies: raw bytes no generated client would send.
UNDECODABLE = [
    ("invalid_utf8_as_of", PLAN, field_bytes(5, b"2026-\xff\xfe-01"),
     "as_of"),
    ("invalid_utf8_region", PLAN,
     field_bytes(3, field_bytes(11, b"\xc3\x28 region")), "constraints"),
    ("garbage", PLAN, b"\xff" * 64, None),
    ("truncated", PLAN, VALID_PLAN[:-3], None),
]


@pytest.mark.parametrize("case_id,method,body,field", UNDECODABLE,
                         ids=[c[0] for c in UNDECODABLE])
def test_undecodable_body(server, channel, case_id, method, body, field):
    short = method.rsplit("/", 1)[1]
    before = handled(scrape(server.metrics_port), short, "InvalidArgument")
    code, message, _ = call_raw(channel, method, body)
    assert_health_fast(channel, server)
    assert code == grpc.StatusCode.INVALID_ARGUMENT, (
        "%s: got %s %r" % (case_id, code.name, message[:300]))
    assert "not a valid accelplan.v1.%sRequest" % short in message, message
    assert len(message.encode()) <= MAX_MESSAGE_BYTES
    # Counted under its method and code (handled before the answer is sent).
    after = handled(scrape(server.metrics_port), short, "InvalidArgument")
    assert after == before + 1, (before, after)


def test_log_is_json_lines(server, channel):
    """Undecodable bodies above left no bare `libprotobuf ERROR` line."""
    server.log.flush()
    with open(server.log.name, "rb") as f:
        text = f.read().decode(errors="replace")
    bad = [l for l in text.splitlines()
           if l.strip() and not l.lstrip().startswith("{")]
    assert not bad, "non-JSON log lines: %r" % bad[:5]
    assert "undecodable request body" in text


def test_valid_request_still_plans(server, channel):
    code, message, _ = call_raw(channel, PLAN, VALID_PLAN)
    assert code == grpc.StatusCode.OK, message
    assert_health_fast(channel, server)


def test_metrics_answer_with_idle_connections_open(server):
    idle = [socket.create_connection(("127.0.0.1", server.metrics_port))
            for _ in range(3)]
    try:
        time.sleep(0.2)
        with socket.create_connection(("127.0.0.1", server.metrics_port),
                                      timeout=3) as s:
            s.sendall(b"GET /metrics HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n")
            data = b""
            while True:
                chunk = s.recv(65536)
                if not chunk:
                    break
                data += chunk
        assert b"200 OK" in data.split(b"\r\n", 1)[0]
        assert b"grpc_server_handled_total" in data
    finally:
        for s in idle:
            s.close()


# ------------------------------------------------- abandoned calls

REVIEW_METHOD = REVIEW.rsplit("/", 1)[1]
# Worst-case reviews queued ahead of the abandoned calls: ~1.6 ms each on
# one planning thread (docs/performance.md), so the abandoned calls reach
# the thread long after their 50 ms.
BACKLOG = 200
ABANDON_AT_S = 0.05


def test_abandoned_calls_are_not_counted_ok():
    """Two expensive valid calls abandoned at ~50 ms (one by its deadline,
    one cancelled by the client) while one planning thread works through a
    backlog of worst-case reviews: the server counts them DEADLINE_EXCEEDED
    or CANCELLED, never OK, and every backlog call is answered OK."""
    # Every call on one connection must reach the server: raise the stream
    # limit (100 by default) over the backlog.
    s = start_server("--planning_threads", "1",
                     "--planning_queue", str(BACKLOG + 8),
                     "--max_concurrent_streams", str(BACKLOG + 8))
    ch = grpc.insecure_channel(s.target)
    try:
        health_check(ch, "", 5)
        body = worst_cases.worst_review(CATALOG).SerializeToString()
        stub = ch.unary_unary(REVIEW, request_serializer=None,
                              response_deserializer=None)
        # The worst review must be valid: a rejection would be cheap.
        code, message, _ = call_raw(ch, REVIEW, body)
        assert code == grpc.StatusCode.OK, message[:300]
        backlog = [stub.future(body, timeout=60) for _ in range(BACKLOG)]
        deadline_call = stub.future(body, timeout=ABANDON_AT_S)
        cancelled_call = stub.future(body, timeout=60)
        time.sleep(ABANDON_AT_S)
        cancelled_call.cancel()
        with pytest.raises(grpc.RpcError) as raised:
            deadline_call.result()
        assert raised.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
        for f in backlog:
            assert f.result() is not None  # raises on any non-OK answer
        assert cancelled_call.cancelled()
        # Wait until the server has handled every call it started.
        want_started = 1 + BACKLOG + 2
        end = time.monotonic() + 30
        while True:
            text = scrape(s.metrics_port)
            started = sample(text, "grpc_server_started_total",
                             'grpc_method="%s"' % REVIEW_METHOD)
            done = sample(text, "grpc_server_handled_total",
                          'grpc_method="%s"' % REVIEW_METHOD)
            if (started >= want_started and done >= started) or \
                    time.monotonic() > end:
                break
            time.sleep(0.05)
        assert started == want_started and done == started, (started, done)
        ok = handled(text, REVIEW_METHOD, "OK")
        abandoned = (handled(text, REVIEW_METHOD, "DeadlineExceeded") +
                     handled(text, REVIEW_METHOD, "Canceled"))
        assert ok == 1 + BACKLOG, "abandoned calls counted OK: %s" % ok
        assert abandoned == 2, abandoned
        assert_health_fast(ch, s)
    finally:
        ch.close()
        s.stop()
