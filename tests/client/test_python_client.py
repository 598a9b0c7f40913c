"""The Python package and the CLI against a real accelplan-server started on
free loopback ports with the built catalog."""

import json
import os
import signal
import socket
import subprocess
import time

import grpc
import pytest

import accelplan
from accelplan import Client, InvalidRequestError
from accelplan.pipeline_step import plan_and_emit_job_spec
from accelplan.v1 import accelplan_pb2

BUILD = os.environ["ACCELPLAN_BUILD_DIR"]
SERVER = os.path.join(BUILD, "accelplan-server")
CLI = os.path.join(BUILD, "accelplan")
CATALOG = os.path.join(BUILD, "catalog.db")
READINESS_SERVICE = "accelplan.v1.TrainingPlanner"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def health_status(channel, service):
    """grpc.health.v1.Health/Check by hand (no grpcio-health-checking in
    Debian): request field 1 = service; response field 1 = status enum."""
    check = channel.unary_unary(
        "/grpc.health.v1.Health/Check",
        request_serializer=lambda s: b"\x0a" + bytes([len(s)]) + s.encode(),
        response_deserializer=lambda b: b[1] if len(b) >= 2 else 0)
    return check(service, timeout=2)


@pytest.fixture(scope="module")
def server():
    port, metrics_port = free_port(), free_port()
    target = "127.0.0.1:%d" % port
    log = open(os.path.join(BUILD, "test_python_client.server.log"), "wb")
    process = subprocess.Popen(
        [SERVER, "--listen", target,
         "--metrics_listen", "127.0.0.1:%d" % metrics_port,
         "--catalog", CATALOG, "--drain_delay_seconds", "0"],
        stdout=log, stderr=subprocess.STDOUT)
    channel = grpc.insecure_channel(target)
    deadline = time.monotonic() + 60
    serving = False
    while time.monotonic() < deadline and process.poll() is None:
        try:
            serving = health_status(channel, READINESS_SERVICE) == 1  # SERVING
        except grpc.RpcError:
            serving = False
        if serving:
            break
        time.sleep(0.1)
    channel.close()
    if not serving:
        process.kill()
        process.wait()
        log.close()
        with open(log.name, "rb") as f:
            pytest.fail("accelplan-server never became SERVING:\n" +
                        f.read().decode(errors="replace")[-2000:])
    yield target
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
    log.close()


@pytest.fixture
def client(server):
    with Client(server) as c:
        yield c


def test_list_accelerators_returns_the_whole_catalog(client):
    response = client.list_accelerators()
    assert response.catalog_version
    machine_types = [a.machine_type for a in response.accelerators]
    assert machine_types
    assert len(machine_types) == len(set(machine_types))
    platforms = {a.platform for a in response.accelerators}
    assert {accelplan_pb2.GPU, accelplan_pb2.TPU, accelplan_pb2.CPU} <= platforms


def test_plan_from_a_dict(client):
    response = client.plan({"workload": {"framework": "JAX",
                                         "parameterCount": 7e9}})
    assert response.catalog_version
    if response.HasField("recommendation"):
        hardware = response.recommendation.hardware
        assert hardware.machine_type or hardware.series
    else:
        assert response.no_plan_reason


def test_plan_from_a_message_matches_the_dict_form(client):
    request = accelplan_pb2.PlanTrainingRequest()
    request.workload.framework = accelplan_pb2.JAX
    request.workload.parameter_count = 7e9
    from_message = client.plan(request)
    from_dict = client.plan({"workload": {"framework": "JAX",
                                         "parameter_count": 7e9}})
    assert from_message == from_dict  # deterministic for a request + catalog


def test_review_judges_every_proposal(client):
    response = client.review({
        "workload": {"framework": "JAX", "parameterCount": 7e9},
        "proposals": [
            {"label": "tpu", "hardware": {"platform": "TPU"}},
            {"label": "gpu", "hardware": {"platform": "GPU"}},
        ]})
    assert [v.label for v in response.verdicts] == ["tpu", "gpu"]
    assert all(v.verdict != accelplan_pb2.VERDICT_UNSPECIFIED
               for v in response.verdicts)
    assert sum(v.verdict == accelplan_pb2.RECOMMENDED
               for v in response.verdicts) <= 1


def test_invalid_request_raises_with_field_violations(client):
    with pytest.raises(InvalidRequestError) as error:
        client.plan({"workload": {"framework": "JAX", "parameterCount": -1}})
    fields = [field for field, _ in error.value.violations]
    assert any("parameter_count" in f or "parameterCount" in f
               for f in fields) or "parameter" in str(error.value)


def test_pipeline_step_emits_a_vertex_job_spec(server, client):
    request = {"workload": {"framework": "JAX", "parameterCount": 7e9},
               "constraints": {"runPlatform": "VERTEX_TRAINING"}}
    if not client.plan(request).HasField("recommendation"):
        with pytest.raises(RuntimeError):
            plan_and_emit_job_spec(server, json.dumps(request))
        return
    spec = json.loads(plan_and_emit_job_spec(
        server, json.dumps(request), image_uri="us-docker.pkg.dev/p/r/train:1"))
    pools = spec["workerPoolSpecs"]
    assert pools and pools[0]["machineSpec"]["machineType"]
    assert pools[0]["containerSpec"]["imageUri"] == "us-docker.pkg.dev/p/r/train:1"
    assert all(p["containerSpec"]["imageUri"] for p in pools if p)


def test_pipeline_step_follows_where_the_plan_runs(server, client):
    # TPU v5p is not offered by serverless training: the plan runs on GKE.
    request = {"workload": {"framework": "JAX", "modelKind": "RECOMMENDER",
                            "embeddingLookupsDominate": True,
                            "perDeviceMemoryGib": 60}}
    response = client.plan(request)
    assert accelplan.run_platform(response) == "GKE"
    assert accelplan.vertex_config(response) is None
    with pytest.raises(RuntimeError, match="GKE"):
        plan_and_emit_job_spec(server, json.dumps(request))
    manifest = plan_and_emit_job_spec(server, json.dumps(request), target="any")
    assert "kind: JobSet" in manifest


def cli(*args):
    return subprocess.run([CLI, *args], capture_output=True, text=True,
                          timeout=120, check=False)


def test_cli_remote_and_in_process_print_the_same_plan(server):
    flags = ["--framework=jax", "--params=7e9"]
    remote = cli("plan", "--server", server, *flags)
    local = cli("plan", "--catalog", CATALOG, *flags)
    assert remote.returncode in (0, 1), remote.stderr
    assert remote.returncode == local.returncode
    assert json.loads(remote.stdout) == json.loads(local.stdout)


def test_cli_remote_catalog_and_bad_input(server):
    result = cli("catalog", "--server", server)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["accelerators"]
    bad = cli("plan", "--server", server, "--framework=jax", "--params=-1")
    assert bad.returncode == 2, bad.stderr


def test_accessors_give_plain_values(client):
    plan = client.plan({"workload": {"framework": "JAX", "parameterCount": 7e9,
                                     "datasetTokens": 1e11}})
    config = accelplan.vertex_config(plan)
    assert config is None or config["workerPoolSpecs"]
    assert accelplan.to_dict(plan)["catalogVersion"] == plan.catalog_version
    rejected = accelplan.rejections(plan)
    assert rejected and all(codes for codes in rejected.values())
    review = client.review({
        "workload": {"framework": "PYTORCH", "parameterCount": 1e9},
        "proposals": [{"label": "tpu", "hardware": {"platform": "TPU"}}]})
    verdict, codes = accelplan.verdicts(review)["tpu"]
    assert verdict == "REJECTED" and "FRAMEWORK_UNSUPPORTED" in codes
