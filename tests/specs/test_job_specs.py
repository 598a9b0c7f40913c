"""Job specs that submit (issue 19, items 1 and 2), checked offline.

Plans every examples/*_plan.json request, plus a few requests below that
reach the paths the examples do not (Reduction Server, GPUDirect, Spot TPU,
PyTorch on GKE), through the built `accelplan` CLI in-process over the built
catalog.db, and checks each recommendation:

* its run_platform and its specs agree: a Vertex config only on
  VERTEX_TRAINING (with the GKE JobSet as the equivalent), only the JobSet
  on GKE, neither on COMPUTE_ENGINE; a plan that does not run on Vertex
  says why in its reasons;
* every Vertex config passes the JSON Schema transcribed from the
  CustomJobSpec documentation, and every JobSet the JobSet v0.12.0 CRD
  schema (unknown fields are errors); both validators reject broken specs;
* the Reduction Server is pool 2 whenever the plan has one; Spot restarts
  (Vertex SPOT + restartJobOnWorkerRestart; JobSet maxRestarts > 0); the
  JobSet has a command placeholder, peer-discovery env from the headless
  service, resource requests, and GPUDirect networking on multi-node
  A3 Mega / A3 Ultra / A4.

Environment (set by ctest): ACCELPLAN_BUILD_DIR, ACCELPLAN_SOURCE_DIR.
"""

import copy
import glob
import json
import os
import subprocess
import sys

import pytest
import yaml

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import spec_validators  # noqa: E402

BUILD = os.environ.get("ACCELPLAN_BUILD_DIR", "build")
SOURCE = os.environ.get(
    "ACCELPLAN_SOURCE_DIR",
    os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
CLI = os.path.join(BUILD, "accelplan")
CATALOG = os.path.join(BUILD, "catalog.db")

# Requests for the spec paths no example reaches.
EXTRA = {
    "extra_pytorch_sync_bound_spot_reduction_server": {
        "workload": {"framework": "PYTORCH", "modelKind": "DENSE_TRANSFORMER",
                     "parameterCount": 1.3e9, "precision": "BF16_MIXED",
                     "datasetTokens": 2e11, "checkpoints": True},
        # A team kept on A2, whose one 100 Gbps network the reducers halve
        # the all-reduce over (A3's GPUDirect NICs outpace a CPU reducer).
        "goal": {"objective": "MIN_COST", "deadlineHours": 24},
        "constraints": {"allowedPlatforms": ["GPU"],
                        "allowedSeries": ["A2 Standard"],
                        "runPlatform": "VERTEX_TRAINING", "spotAllowed": True},
        "currentSetup": {"hardware": "a2-highgpu-8g", "nodeCount": 16,
                         "symptoms": ["GRADIENT_SYNC_BOUND"], "usesNccl": True,
                         "strategy": "DATA_PARALLEL"},
    },
    "extra_pytorch_a3_mega_gke": {
        "workload": {"framework": "PYTORCH", "modelKind": "DENSE_TRANSFORMER",
                     "parameterCount": 7e9, "precision": "BF16_MIXED",
                     "datasetTokens": 1e11},
        "goal": {"objective": "MIN_TIME"},
        "constraints": {"allowedSeries": ["A3 Mega"], "runPlatform": "GKE",
                        "reservationAvailable": True},
    },
    "extra_pytorch_a4_spot_vertex": {
        "workload": {"framework": "PYTORCH", "modelKind": "DENSE_TRANSFORMER",
                     "parameterCount": 1.3e9, "precision": "BF16_MIXED",
                     "datasetTokens": 2e11, "checkpoints": True},
        "goal": {"objective": "MIN_COST", "deadlineHours": 24},
        "constraints": {"allowedSeries": ["A4"],
                        "runPlatform": "VERTEX_TRAINING", "spotAllowed": True},
    },
    "extra_jax_a3_ultra_gke": {
        "workload": {"framework": "JAX", "modelKind": "DENSE_TRANSFORMER",
                     "parameterCount": 7e9, "precision": "BF16_MIXED",
                     "datasetTokens": 1e11},
        "goal": {"objective": "MIN_TIME"},
        "constraints": {"allowedSeries": ["A3 Ultra"], "runPlatform": "GKE",
                        "reservationAvailable": True},
    },
    "extra_jax_tpu_spot_multi_host_default_platform": {
        "workload": {"framework": "JAX", "modelKind": "DENSE_TRANSFORMER",
                     "parameterCount": 8e9, "datasetTokens": 2e11,
                     "checkpoints": True},
        "goal": {"objective": "MIN_COST", "deadlineHours": 72},
        "constraints": {"allowedPlatforms": ["TPU"], "spotAllowed": True},
    },
}


def run_plan(request_path):
    result = subprocess.run(
        [CLI, "plan", "--catalog", CATALOG, "--request", request_path,
         "--output=json"], capture_output=True, text=True, timeout=300,
        check=False)
    assert result.returncode in (0, 1), result.stderr[:500]
    return json.loads(result.stdout)


def collect_plans(tmp_dir):
    plans = {}
    for path in sorted(glob.glob(os.path.join(SOURCE, "examples", "*.json"))):
        name = os.path.basename(path)
        if "review" in name or "catalog" in name:
            continue
        with open(path, encoding="utf-8") as f:
            request = json.load(f)
        plans[name] = (request, run_plan(path))
    for name, request in EXTRA.items():
        path = os.path.join(tmp_dir, name + ".json")
        with open(path, "w", encoding="utf-8") as f:
            json.dump(request, f)
        plans[name] = (request, run_plan(path))
    return plans


@pytest.fixture(scope="module")
def plans(tmp_path_factory):
    if not os.path.exists(CLI) or not os.path.exists(CATALOG):
        pytest.fail("build the CLI and catalog first: %s, %s" % (CLI, CATALOG))
    return collect_plans(str(tmp_path_factory.mktemp("requests")))


def recommendations(plans):
    for name, (request, body) in plans.items():
        rec = body.get("recommendation")
        if rec and rec["hardware"].get("platform") != "EDGE":
            yield name, request, rec


def manifest(rec):
    return yaml.safe_load(rec["jobSpec"]["gke"]["manifestYaml"])


def pod_spec(doc):
    return doc["spec"]["replicatedJobs"][0]["template"]["spec"]["template"]


# ------------------------------------------------------------ validators

def test_examples_have_plans_and_extras_reach_their_paths(plans):
    names = [n for n, _, _ in recommendations(plans)]
    assert len(names) >= 20, names
    for extra in EXTRA:
        assert extra in names, "%s has no recommendation" % extra


def test_every_vertex_config_passes_the_custom_job_spec_schema(plans):
    checked = 0
    for name, _, rec in recommendations(plans):
        vertex = rec.get("jobSpec", {}).get("vertex")
        if not vertex:
            continue
        checked += 1
        errors = spec_validators.vertex_errors(vertex["configJson"])
        assert not errors, "%s: %s" % (name, errors)
    assert checked >= 10


def test_every_jobset_passes_the_jobset_crd_schema(plans):
    checked = 0
    for name, _, rec in recommendations(plans):
        gke = rec.get("jobSpec", {}).get("gke")
        if not gke:
            continue
        checked += 1
        errors = spec_validators.jobset_yaml_errors(gke["manifestYaml"])
        assert not errors, "%s: %s" % (name, errors)
    assert checked >= 15


def good_vertex():
    return {
        "workerPoolSpecs": [
            {"machineSpec": {"machineType": "a3-highgpu-8g",
                             "acceleratorType": "NVIDIA_H100_80GB",
                             "acceleratorCount": 8},
             "replicaCount": 1,
             "containerSpec": {"imageUri": "us-docker.pkg.dev/p/r/t:1"}},
            {},
            {"machineSpec": {"machineType": "n1-highcpu-16"},
             "replicaCount": "4",
             "containerSpec": {"imageUri": "us-docker.pkg.dev/p/r/rs:1"}},
        ],
        "scheduling": {"strategy": "SPOT", "restartJobOnWorkerRestart": True},
    }


@pytest.mark.parametrize("breakage", [
    "snake_case_key", "missing_machine_type", "bad_strategy",
    "bad_accelerator", "count_without_type", "no_container", "skipped_chief",
    "two_chiefs", "not_json"])
def test_vertex_validator_rejects_broken_configs(breakage):
    assert spec_validators.vertex_errors(good_vertex()) == []
    config = good_vertex()
    pool = config["workerPoolSpecs"][0]
    if breakage == "snake_case_key":
        pool["replica_count"] = pool.pop("replicaCount")
    elif breakage == "missing_machine_type":
        del pool["machineSpec"]["machineType"]
    elif breakage == "bad_strategy":
        config["scheduling"]["strategy"] = "PREEMPTIBLE"
    elif breakage == "bad_accelerator":
        pool["machineSpec"]["acceleratorType"] = "NVIDIA_H100"
    elif breakage == "count_without_type":
        del pool["machineSpec"]["acceleratorType"]
    elif breakage == "no_container":
        del pool["containerSpec"]
    elif breakage == "skipped_chief":
        config["workerPoolSpecs"][0] = {}
    elif breakage == "two_chiefs":
        pool["replicaCount"] = 2
    elif breakage == "not_json":
        config = '{"workerPoolSpecs": ['
    assert spec_validators.vertex_errors(config), breakage


def good_jobset():
    return {
        "apiVersion": "jobset.x-k8s.io/v1alpha2", "kind": "JobSet",
        "metadata": {"name": "t"},
        "spec": {
            "failurePolicy": {"maxRestarts": 3},
            "replicatedJobs": [{
                "name": "workers", "replicas": 1,
                "template": {"spec": {
                    "parallelism": 2, "completions": 2,
                    "template": {"spec": {
                        "restartPolicy": "Never",
                        "containers": [{
                            "name": "trainer", "image": "i",
                            "resources": {"limits": {"nvidia.com/gpu": 8}},
                        }]}}}},
            }]},
    }


@pytest.mark.parametrize("breakage", [
    "string_max_restarts", "misspelt_field", "container_without_name",
    "unknown_pod_field", "wrong_kind", "replicated_job_without_template",
    "env_without_name", "bad_yaml"])
def test_jobset_validator_rejects_broken_manifests(breakage):
    assert spec_validators.jobset_errors(good_jobset()) == []
    doc = good_jobset()
    rjob = doc["spec"]["replicatedJobs"][0]
    pod = rjob["template"]["spec"]["template"]["spec"]
    if breakage == "string_max_restarts":
        doc["spec"]["failurePolicy"]["maxRestarts"] = "three"
    elif breakage == "misspelt_field":
        rjob["template"]["spec"]["parralelism"] = 2
    elif breakage == "container_without_name":
        del pod["containers"][0]["name"]
    elif breakage == "unknown_pod_field":
        pod["nodeSelectors"] = {"a": "b"}
    elif breakage == "wrong_kind":
        doc["kind"] = "Job"
    elif breakage == "replicated_job_without_template":
        del rjob["template"]
    elif breakage == "env_without_name":
        pod["containers"][0]["env"] = [{"value": "x"}]
    if breakage == "bad_yaml":
        assert spec_validators.jobset_yaml_errors("spec: [unclosed")
        return
    assert spec_validators.jobset_errors(doc), breakage
    text = yaml.safe_dump(doc)
    assert spec_validators.jobset_yaml_errors(text), breakage


def test_jobset_strict_mode_is_what_catches_unknown_fields():
    doc = good_jobset()
    doc["spec"]["replicatedJobs"][0]["template"]["spec"]["parralelism"] = 2
    assert spec_validators.jobset_errors(doc, strict=False) == []
    assert spec_validators.jobset_errors(doc, strict=True)


# ------------------------------------------------------------ agreement

def test_run_platform_and_specs_agree(plans):
    seen = set()
    for name, request, rec in recommendations(plans):
        rp = rec["hardware"].get("runPlatform")
        seen.add(rp)
        spec = rec.get("jobSpec", {})
        vertex, gke = spec.get("vertex"), spec.get("gke")
        if rp == "VERTEX_TRAINING":
            assert vertex, name
            assert gke, "%s: the GKE equivalent" % name
        elif rp == "GKE":
            assert vertex is None, "%s: Vertex spec on a GKE plan" % name
            assert gke, name
        elif rp == "COMPUTE_ENGINE":
            assert vertex is None and gke is None, name
            assert "Compute Engine" in spec.get("note", ""), name
        else:
            pytest.fail("%s: run platform %r" % (name, rp))
        asked = request.get("constraints", {}).get("runPlatform")
        if rp != "VERTEX_TRAINING" and asked != rp:
            why = [r["message"] for r in rec.get("reasons", [])
                   if r.get("code") == "NOT_OFFERED_ON_PLATFORM"]
            assert why and "Vertex" in why[0], "%s: no reason given" % name
    assert {"VERTEX_TRAINING", "GKE"} <= seen, seen


def test_tpu_v5p_and_multislice_never_get_a_vertex_spec(plans):
    for name, _, rec in recommendations(plans):
        hw = rec["hardware"]
        if hw.get("accelerator") in ("tpu-v4", "tpu-v5p") or \
                int(hw.get("slices", 1) or 1) > 1:
            assert "vertex" not in rec.get("jobSpec", {}), name
            assert hw.get("runPlatform") != "VERTEX_TRAINING", name


def test_reduction_server_is_pool_two_whenever_planned(plans):
    found = 0
    for name, _, rec in recommendations(plans):
        rs = rec.get("distribution", {}).get("reductionServer")
        if not rs:
            continue
        found += 1
        config = json.loads(rec["jobSpec"]["vertex"]["configJson"])
        pools = config["workerPoolSpecs"]
        assert len(pools) == 3, name
        pool = pools[2]
        assert pool["machineSpec"]["machineType"] == rs["machineType"], name
        assert int(pool["replicaCount"]) == int(rs["replicaCount"]), name
        assert pool["containerSpec"]["imageUri"] == rs["imageUri"], name
        assert "reductionserver" in rs["imageUri"], name
        assert "acceleratorType" not in pool["machineSpec"], name
    assert found >= 1, "no plan with a Reduction Server was checked"


def test_spot_is_restartable(plans):
    found = 0
    for name, _, rec in recommendations(plans):
        if rec["hardware"].get("provisioning") != "SPOT":
            continue
        found += 1
        spec = rec["jobSpec"]
        if spec.get("vertex"):
            sched = json.loads(spec["vertex"]["configJson"])["scheduling"]
            assert sched["strategy"] == "SPOT", name
            assert sched.get("restartJobOnWorkerRestart") is True, name
            assert sched.get("disableRetries") is not True, name
        if spec.get("gke"):
            doc = manifest(rec)
            assert doc["spec"]["failurePolicy"]["maxRestarts"] > 0, name
            tolerations = pod_spec(doc)["spec"].get("tolerations", [])
            assert any(t.get("key") == "cloud.google.com/gke-spot"
                       for t in tolerations), name
    assert found >= 2


def env_of(container):
    return {e["name"]: e for e in container.get("env", [])}


def test_jobsets_have_command_requests_and_peer_env(plans):
    multi = 0
    for name, request, rec in recommendations(plans):
        if not rec.get("jobSpec", {}).get("gke"):
            continue
        hw = rec["hardware"]
        doc = manifest(rec)
        rjob = doc["spec"]["replicatedJobs"][0]
        job = rjob["template"]["spec"]
        assert job["completionMode"] == "Indexed", name
        assert doc["spec"]["network"]["enableDNSHostnames"] is True, name
        assert doc["spec"]["failurePolicy"]["maxRestarts"] > 0, name
        pod = job["template"]["spec"]
        trainer = next(c for c in pod["containers"] if c["name"] == "trainer")
        assert trainer["command"] and "REPLACE" in trainer["args"][0], name
        resources = trainer.get("resources", {})
        if hw.get("platform") in ("GPU", "TPU"):
            res = "google.com/tpu" if hw["platform"] == "TPU" else "nvidia.com/gpu"
            want = int(hw["acceleratorsPerHost"])
            assert resources["requests"][res] == want, name
            assert resources["limits"][res] == want, name
            if res == "nvidia.com/gpu":
                mounts = {m["mountPath"] for m in trainer.get("volumeMounts", [])}
                assert "/dev/shm" in mounts, name
        else:
            assert resources.get("requests", {}).get("cpu"), name
        pods = rjob["replicas"] * job["parallelism"]
        assert pods == int(hw.get("hosts", 1)), name
        if pods < 2:
            continue
        multi += 1
        env = env_of(trainer)
        host = "%s-%s-0-0.%s" % (doc["metadata"]["name"], rjob["name"],
                                 doc["spec"]["network"]["subdomain"])
        assert env["COORDINATOR_HOST"]["value"] == host, name
        assert env["NUM_PROCESSES"]["value"] == str(pods), name
        framework = request.get("workload", {}).get("framework")
        if framework == "JAX" or hw.get("platform") == "TPU":
            assert env["JAX_COORDINATOR_ADDRESS"]["value"] == host + ":1234"
            assert env["JAX_NUM_PROCESSES"]["value"] == str(pods), name
        if framework == "PYTORCH":
            assert env["PET_RDZV_ENDPOINT"]["value"] == host + ":29500", name
            assert env["PET_NNODES"]["value"] == str(pods), name
            rank = env["PET_NODE_RANK"]["valueFrom"]["fieldRef"]["fieldPath"]
            assert "job-completion-index" in rank, name
        if rjob["replicas"] > 1:
            assert "MEGASCALE_NUM_SLICES" in env, name
        assert doc["spec"]["coordinator"]["replicatedJob"] == rjob["name"]
    assert multi >= 5


GPUDIRECT = {"a3-megagpu-8g": "vpc8", "a3-ultragpu-8g": "rdma-7",
             "a4-highgpu-8g": "rdma-7"}


def test_gpudirect_networking_on_multi_node_a3_mega_ultra_and_a4(plans):
    seen = set()
    for name, _, rec in recommendations(plans):
        if not rec.get("jobSpec", {}).get("gke"):
            continue
        hw = rec["hardware"]
        doc = manifest(rec)
        pod = pod_spec(doc)
        annotations = pod.get("metadata", {}).get("annotations", {})
        multi_node = int(hw.get("hosts", 1)) > 1
        machine = hw.get("machineType")
        if machine not in GPUDIRECT or not multi_node:
            assert "networking.gke.io/interfaces" not in annotations, name
            continue
        seen.add(machine)
        assert annotations["networking.gke.io/default-interface"] == "eth0"
        interfaces = json.loads(annotations["networking.gke.io/interfaces"])
        assert interfaces[0] == {"interfaceName": "eth0", "network": "default"}
        assert interfaces[-1]["network"] == GPUDIRECT[machine], name
        text = rec["jobSpec"]["gke"]["manifestYaml"]
        assert "https://cloud.google.com/" in text, name
        spec = pod["spec"]
        if machine == "a3-megagpu-8g":
            assert len(interfaces) == 9
            assert "devices.gke.io/container.tcpxo-daemon" in annotations
            sidecar = spec["initContainers"][0]
            assert sidecar["name"] == "tcpxo-daemon"
            assert sidecar["restartPolicy"] == "Always"
        else:
            assert len(interfaces) == 10
            assert interfaces[1]["network"] == "gvnic-1"
            mounts = {m["mountPath"] for m in spec["containers"][0]["volumeMounts"]}
            assert "/usr/local/gib" in mounts, name
            assert "set_nccl_env.sh" in spec["containers"][0]["args"][0]
    assert seen >= {"a3-megagpu-8g", "a3-ultragpu-8g", "a4-highgpu-8g"}, seen


def test_validators_catch_a_real_plan_broken_by_hand(plans):
    """The validators reject a broken copy of a real emitted spec."""
    name, _, rec = next((n, q, r) for n, q, r in recommendations(plans)
                        if r["jobSpec"].get("vertex") and r["jobSpec"].get("gke"))
    config = json.loads(rec["jobSpec"]["vertex"]["configJson"])
    broken = copy.deepcopy(config)
    broken["workerPoolSpecs"][0]["machineSpec"]["machine_type"] = "x"
    assert spec_validators.vertex_errors(broken), name
    doc = manifest(rec)
    pod_spec(doc)["spec"]["containers"][0]["resources"] = {"limit": {}}
    assert spec_validators.jobset_errors(doc), name
