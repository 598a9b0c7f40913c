"""`pip install ./client/python` works for Debian's /usr/bin/python3, and a
pipeline-style script using only the installed package drives a real
accelplan-server (issue 19, item 3).

Debian's Python is externally managed (PEP 668) and no PyPI is reachable, so
the package is installed with `--no-deps --no-build-isolation` into a
temporary `--target`, with Debian's python3-pip/-setuptools/-wheel and its
python3-grpcio/-protobuf as the dependencies. The package build generates the
stubs itself (client/python/setup.py runs protoc + grpc_python_plugin over
proto/); a copy of client/python is installed so the source tree stays
clean. The script then runs with PYTHONPATH set to the install folder only,
never build/python: plan, take the job spec for where the plan runs, handle
no plan, bad input (client-side and server-side) and an unavailable server.
"""

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import textwrap
import time

import grpc
import pytest

BUILD = os.environ["ACCELPLAN_BUILD_DIR"]
SOURCE = os.environ.get(
    "ACCELPLAN_SOURCE_DIR",
    os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
SERVER = os.path.join(BUILD, "accelplan-server")
CATALOG = os.path.join(BUILD, "catalog.db")
PYTHON = "/usr/bin/python3"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serving(target):
    """grpc.health.v1.Health/Check on the readiness service, by hand."""
    service = "accelplan.v1.TrainingPlanner"
    with grpc.insecure_channel(target) as channel:
        check = channel.unary_unary(
            "/grpc.health.v1.Health/Check",
            request_serializer=lambda s: b"\x0a" + bytes([len(s)]) + s.encode(),
            response_deserializer=lambda b: b[1] if len(b) >= 2 else 0)
        try:
            return check(service, timeout=2) == 1
        except grpc.RpcError:
            return False


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """The package installed from a copy of client/python; returns the
    --target folder."""
    work = tmp_path_factory.mktemp("install")
    src = work / "python"
    shutil.copytree(os.path.join(SOURCE, "client", "python"), src,
                    ignore=shutil.ignore_patterns("build", "*.egg-info",
                                                  "__pycache__"))
    target = work / "site"
    env = dict(os.environ, ACCELPLAN_PROTO_DIR=os.path.join(SOURCE, "proto"),
               PIP_DISABLE_PIP_VERSION_CHECK="1", PIP_NO_INDEX="1",
               PIP_ROOT_USER_ACTION="ignore")
    env.pop("PYTHONPATH", None)
    result = subprocess.run(
        [PYTHON, "-m", "pip", "install", "--no-deps", "--no-build-isolation",
         "--no-cache-dir", "--target", str(target), str(src)],
        capture_output=True, text=True, timeout=240, env=env, check=False)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    return str(target)


@pytest.fixture(scope="module")
def server():
    port, metrics_port = free_port(), free_port()
    target = "127.0.0.1:%d" % port
    log = open(os.path.join(BUILD, "test_python_install.server.log"), "wb")
    process = subprocess.Popen(
        [SERVER, "--listen", target,
         "--metrics_listen", "127.0.0.1:%d" % metrics_port,
         "--catalog", CATALOG, "--drain_delay_seconds", "0"],
        stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and process.poll() is None:
        if serving(target):
            break
        time.sleep(0.1)
    else:
        process.kill()
        process.wait()
        log.close()
        pytest.fail("accelplan-server never became SERVING")
    yield target
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
    log.close()


def run_installed(site, code, *args):
    """Runs `code` under /usr/bin/python3 seeing only the installed package."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = site
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    result = subprocess.run([PYTHON, "-c", textwrap.dedent(code), *args],
                            capture_output=True, text=True, timeout=180,
                            env=env, cwd=site, check=False)
    return result


def test_install_has_the_stubs_types_and_version(installed):
    for rel in ("accelplan/__init__.py", "accelplan/py.typed",
                "accelplan/v1/accelplan_pb2.py",
                "accelplan/v1/accelplan_pb2.pyi",
                "accelplan/v1/accelplan_pb2_grpc.py",
                "accelplan/google/rpc/status_pb2.py",
                "accelplan/google/rpc/error_details_pb2.py"):
        assert os.path.isfile(os.path.join(installed, rel)), rel
    assert not os.path.exists(os.path.join(installed, "google")), \
        "a top-level google package would shadow google.protobuf"
    result = run_installed(installed, """
        import json, accelplan, google.protobuf, grpc
        print(json.dumps({"file": accelplan.__file__,
                          "version": accelplan.__version__,
                          "protobuf": google.protobuf.__file__,
                          "grpc": grpc.__file__}))
    """)
    assert result.returncode == 0, result.stderr
    info = json.loads(result.stdout)
    assert info["file"].startswith(installed), info
    assert info["protobuf"].startswith("/usr/lib/python3/dist-packages"), info
    assert info["grpc"].startswith("/usr/lib/python3/dist-packages"), info
    with open(os.path.join(SOURCE, "CMakeLists.txt"), encoding="utf-8") as f:
        cmake = f.read()
    assert "project(accelplan VERSION %s " % info["version"] in cmake, \
        "__version__ differs from the CMake project version"


PIPELINE = """
import json, sys
import grpc
import accelplan
from accelplan import Client, InvalidRequestError, job_spec
from accelplan.pipeline_step import plan_and_emit_job_spec

server, dead = sys.argv[1], sys.argv[2]
out = {"package": accelplan.__file__}

with Client(server) as client:
    # Plan (lower-case enums are fine) and take the spec for where it runs.
    vertex = client.plan({"workload": {"framework": "tensorflow",
                                       "frameworkVersion": "2.15"},
                          "constraints": {"runPlatform": "vertex_training",
                                          "allowedPlatforms": ["tpu"]},
                          "view": "basic"})
    spec = job_spec(vertex)
    out["vertex"] = {"run_platform": spec.run_platform, "kind": spec.kind,
                     "pools": len(spec.spec["workerPoolSpecs"]),
                     "hardware": accelplan.recommended_hardware(vertex)}
    gke = client.plan({"workload": {"framework": "JAX", "modelKind": "Recommender",
                                    "embeddingLookupsDominate": True,
                                    "perDeviceMemoryGib": 60}})
    spec = job_spec(gke)
    out["gke"] = {"run_platform": spec.run_platform, "kind": spec.kind,
                  "has_jobset": "kind: JobSet" in spec.spec,
                  "reasons": list(spec.reasons),
                  "vertex_config": accelplan.vertex_config(gke)}

    # No viable plan: a normal answer, not an error.
    none = client.plan({"workload": {"framework": "JAX", "parameterCount": 7e12},
                        "constraints": {"singleHostOnly": True}})
    out["no_plan"] = {"has": none.HasField("recommendation"),
                      "reason": none.no_plan_reason,
                      "job_spec": job_spec(none),
                      "run_platform": accelplan.run_platform(none),
                      "rejected": sum(len(v) for v in accelplan.rejections(none).values())}

    # Bad input: a typo is caught before the call, naming the field; the
    # server's violations come back as InvalidRequestError too.
    bad = {}
    for name, request in (("typo", {"workload": {"framwork": "JAX"}}),
                          ("enum", {"workload": {"framework": "torch"}}),
                          ("type", {"workload": {"parameterCount": "many"}}),
                          ("server", {"workload": {"framework": "pytorch",
                                                   "parameterCount": -1}})):
        try:
            client.plan(request)
            bad[name] = None
        except InvalidRequestError as e:
            bad[name] = {"violations": e.violations, "from_server": e.rpc_error is not None}
    out["bad"] = bad

# The pipeline step end to end: a spec, and a RuntimeError for no plan.
step = json.loads(plan_and_emit_job_spec(
    server, json.dumps({"workload": {"framework": "TENSORFLOW", "frameworkVersion": "2.15"},
                        "constraints": {"runPlatform": "VERTEX_TRAINING",
                                        "allowedPlatforms": ["TPU"]}}),
    image_uri="us-docker.pkg.dev/p/r/train:1"))
out["step_image"] = step["workerPoolSpecs"][0]["containerSpec"]["imageUri"]
try:
    plan_and_emit_job_spec(server, json.dumps({"workload": {"framework": "JAX",
        "parameterCount": 7e12}, "constraints": {"singleHostOnly": True}}))
    out["step_no_plan"] = None
except RuntimeError as e:
    out["step_no_plan"] = str(e)
try:
    plan_and_emit_job_spec(server, json.dumps({"workload": {"framework": "JAX",
        "modelKind": "RECOMMENDER", "embeddingLookupsDominate": True,
        "perDeviceMemoryGib": 60}}))
    out["step_gke_vertex_only"] = None
except RuntimeError as e:
    out["step_gke_vertex_only"] = str(e)
out["step_gke_any"] = plan_and_emit_job_spec(
    server, json.dumps({"workload": {"framework": "JAX", "modelKind": "RECOMMENDER",
                                     "embeddingLookupsDominate": True,
                                     "perDeviceMemoryGib": 60}}),
    target="any", image_uri="us-docker.pkg.dev/p/r/train:2")

# An unavailable server: UNAVAILABLE after the retries, within the deadline.
with Client(dead, timeout=5, max_attempts=2) as client:
    try:
        client.list_accelerators()
        out["unavailable"] = None
    except grpc.RpcError as e:
        out["unavailable"] = e.code().name
print(json.dumps(out))
"""


def test_pipeline_script_against_a_real_server(installed, server):
    dead = "127.0.0.1:%d" % free_port()  # nothing listens there
    result = run_installed(installed, PIPELINE, server, dead)
    assert result.returncode == 0, result.stderr[-3000:]
    out = json.loads(result.stdout)
    assert out["package"].startswith(installed)

    assert out["vertex"]["run_platform"] == "VERTEX_TRAINING"
    assert out["vertex"]["kind"] == "vertex_custom_job_spec"
    assert out["vertex"]["pools"] == 1
    hw = out["vertex"]["hardware"]
    assert hw["platform"] == "TPU" and hw["run_platform"] == "VERTEX_TRAINING"
    assert hw["provisioning"] == "ON_DEMAND"

    assert out["gke"]["run_platform"] == "GKE"
    assert out["gke"]["kind"] == "gke_jobset" and out["gke"]["has_jobset"]
    assert out["gke"]["vertex_config"] is None
    assert out["gke"]["reasons"] and "Vertex" in out["gke"]["reasons"][0]

    assert out["no_plan"]["has"] is False and out["no_plan"]["reason"]
    assert out["no_plan"]["job_spec"] is None
    assert out["no_plan"]["run_platform"] is None
    assert out["no_plan"]["rejected"] > 0

    bad = out["bad"]
    assert bad["typo"] == {"violations": [["workload.framwork",
                                           "no such field in accelplan.v1.Workload"]],
                           "from_server": False}
    assert bad["enum"]["violations"][0][0] == "workload.framework"
    assert "PYTORCH" in bad["enum"]["violations"][0][1]
    assert bad["type"]["violations"][0][0] == "workload.parameterCount"
    assert bad["server"]["from_server"] is True
    assert any("parameter_count" in f for f, _ in bad["server"]["violations"])

    assert out["step_image"] == "us-docker.pkg.dev/p/r/train:1"
    assert out["step_no_plan"].startswith("accelplan found no viable plan")
    assert "GKE" in out["step_gke_vertex_only"]
    assert "kind: JobSet" in out["step_gke_any"]
    assert "us-docker.pkg.dev/p/r/train:2" in out["step_gke_any"]
    assert out["unavailable"] == "UNAVAILABLE"


def test_pipeline_step_cli_exit_codes(installed, server):
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = installed

    def step(*args):
        return subprocess.run([PYTHON, "-m", "accelplan.pipeline_step", *args],
                              capture_output=True, text=True, timeout=120,
                              env=env, cwd=installed, check=False)

    ok = step("--server", server, "--request",
              os.path.join(SOURCE, "examples", "s5_tensorflow_serverless_tpu_plan.json"))
    assert ok.returncode == 0, ok.stderr
    assert json.loads(ok.stdout)["workerPoolSpecs"]
    dead = step("--server", "127.0.0.1:%d" % free_port())
    assert dead.returncode == 3, dead.stderr
