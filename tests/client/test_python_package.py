"""The assembled Python package: layout, service config, request coercion,
retries and error details, against an in-process scripted gRPC server."""

import json
import os
import threading
from concurrent import futures

import grpc
import pytest
from google.protobuf import json_format

import accelplan
from accelplan import Client, InvalidRequestError
from accelplan.google.rpc import error_details_pb2, status_pb2
from accelplan.v1 import accelplan_pb2, accelplan_pb2_grpc

PY_ROOT = os.path.join(os.environ["ACCELPLAN_BUILD_DIR"], "python")


def test_package_holds_generated_modules_and_no_top_level_google():
    assert os.path.isfile(os.path.join(PY_ROOT, "accelplan", "v1",
                                       "accelplan_pb2.py"))
    assert os.path.isfile(os.path.join(PY_ROOT, "accelplan", "v1",
                                       "accelplan_pb2_grpc.py"))
    assert not os.path.exists(os.path.join(PY_ROOT, "google"))
    import google.protobuf
    assert not google.protobuf.__file__.startswith(PY_ROOT)
    assert accelplan.Client is Client


def test_service_config_retries_unavailable_and_balances_round_robin():
    config = json.loads(accelplan.service_config())
    assert config["loadBalancingConfig"] == [{"round_robin": {}}]
    method = config["methodConfig"][0]
    assert method["name"] == [{"service": "accelplan.v1.TrainingPlanner"}]
    assert method["timeout"] == "30.000s"
    assert method["retryPolicy"]["retryableStatusCodes"] == ["UNAVAILABLE"]
    assert method["retryPolicy"]["maxAttempts"] >= 2
    assert "retryPolicy" not in json.loads(
        accelplan.service_config(max_attempts=1))["methodConfig"][0]


class ScriptedPlanner(accelplan_pb2_grpc.TrainingPlannerServicer):
    def __init__(self):
        self.failures = 0
        self.failure_code = grpc.StatusCode.UNAVAILABLE
        self.details_bin = None
        self.calls = 0
        self.last_request = None
        self.lock = threading.Lock()

    def _maybe_fail(self, context):
        with self.lock:
            self.calls += 1
            fail = self.calls <= self.failures
        if fail:
            if self.details_bin is not None:
                context.set_trailing_metadata(
                    (("grpc-status-details-bin", self.details_bin),))
            # abort() answers trailers-only, as real servers do for errors;
            # a call that already received headers is never retried.
            context.abort(self.failure_code, "scripted failure")
        return fail

    def PlanTraining(self, request, context):
        self.last_request = request
        if self._maybe_fail(context):
            return accelplan_pb2.PlanTrainingResponse()
        return accelplan_pb2.PlanTrainingResponse(catalog_version="scripted")

    def ReviewPlan(self, request, context):
        self.last_request = request
        self._maybe_fail(context)
        return accelplan_pb2.ReviewPlanResponse(catalog_version="scripted")

    def ListAccelerators(self, request, context):
        self.last_request = request
        self._maybe_fail(context)
        response = accelplan_pb2.ListAcceleratorsResponse()
        response.accelerators.add(machine_type="ct5p-hightpu-4t")
        return response


@pytest.fixture
def scripted():
    servicer = ScriptedPlanner()
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
    accelplan_pb2_grpc.add_TrainingPlannerServicer_to_server(servicer, server)
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    yield servicer, "127.0.0.1:%d" % port
    server.stop(None)


def test_plan_accepts_dicts_with_either_field_naming(scripted):
    servicer, target = scripted
    with Client(target) as client:
        response = client.plan({"workload": {"framework": "JAX",
                                             "parameter_count": 7e9},
                                "goal": {"deadlineHours": 48}})
    assert response.catalog_version == "scripted"
    assert servicer.last_request.workload.framework == accelplan_pb2.JAX
    assert servicer.last_request.workload.parameter_count == 7e9
    assert servicer.last_request.goal.deadline_hours == 48


def test_plan_accepts_generated_messages(scripted):
    servicer, target = scripted
    request = accelplan_pb2.PlanTrainingRequest(view=accelplan_pb2.BASIC)
    with Client(target) as client:
        client.plan(request)
    assert servicer.last_request == request


def test_bad_dict_fails_before_the_call_naming_the_field(scripted):
    servicer, target = scripted
    with Client(target) as client:
        with pytest.raises(InvalidRequestError) as error:
            client.plan({"workload": {"framwork": "JAX"}})
        assert error.value.violations == [
            ("workload.framwork", "no such field in accelplan.v1.Workload")]
        assert error.value.rpc_error is None
        # Still a protobuf ParseError for code that caught that before.
        assert isinstance(error.value, json_format.ParseError)
        with pytest.raises(InvalidRequestError) as error:
            client.plan({"workload": {"framework": "PyTorc"}})
        field, why = error.value.violations[0]
        assert field == "workload.framework" and "PYTORCH" in why
        with pytest.raises(InvalidRequestError) as error:
            client.plan({"goal": {"deadlineHours": "soon"}})
        assert error.value.violations[0][0] == "goal.deadlineHours"
        with pytest.raises(InvalidRequestError) as error:
            client.plan({"constraints": {"allowedPlatforms": ["tpu", "gpus"]}})
        assert error.value.violations[0][0] == "constraints.allowedPlatforms[1]"
        with pytest.raises(InvalidRequestError) as error:
            client.plan('{"workload": ')
        assert error.value.violations[0][0] == "<request>"
        with pytest.raises(InvalidRequestError):
            client.plan({"workload": ["JAX"]})
    assert servicer.calls == 0


def test_enums_in_dicts_are_case_insensitive(scripted):
    servicer, target = scripted
    with Client(target) as client:
        client.plan({"workload": {"framework": "pytorch",
                                  "model_kind": "Dense_Transformer"},
                     "goal": {"objective": "min-cost"},
                     "constraints": {"allowedPlatforms": ["gpu", "Tpu"],
                                     "runPlatform": "vertex_training"},
                     "currentSetup": {"symptoms": ["gradient_sync_bound"]},
                     "view": "basic"})
        sent = servicer.last_request
        assert sent.workload.framework == accelplan_pb2.PYTORCH
        assert sent.workload.model_kind == accelplan_pb2.DENSE_TRANSFORMER
        assert sent.goal.objective == accelplan_pb2.MIN_COST
        assert list(sent.constraints.allowed_platforms) == [accelplan_pb2.GPU,
                                                            accelplan_pb2.TPU]
        assert sent.constraints.run_platform == accelplan_pb2.VERTEX_TRAINING
        assert sent.view == accelplan_pb2.BASIC
        # Numbers still work, as in the protobuf JSON mapping.
        client.plan({"workload": {"framework": accelplan_pb2.JAX}})
        assert servicer.last_request.workload.framework == accelplan_pb2.JAX
        client.plan('{"workload": {"framework": "jax"}}')
        assert servicer.last_request.workload.framework == accelplan_pb2.JAX


def test_version_and_typed_marker():
    assert accelplan.__version__ == "0.1.0"
    assert os.path.isfile(os.path.join(PY_ROOT, "accelplan", "py.typed"))
    assert os.path.isfile(os.path.join(PY_ROOT, "accelplan", "v1",
                                       "accelplan_pb2.pyi"))


def plan_response(run_platform, vertex_json="", manifest="", note=""):
    response = accelplan_pb2.PlanTrainingResponse()
    rec = response.recommendation
    rec.hardware.platform = accelplan_pb2.GPU
    rec.hardware.machine_type = "a3-highgpu-8g"
    rec.hardware.run_platform = run_platform
    rec.hardware.provisioning = accelplan_pb2.SPOT
    rec.job_spec.vertex.config_json = vertex_json
    rec.job_spec.gke.manifest_yaml = manifest
    rec.job_spec.note = note
    rec.reasons.add(code=accelplan_pb2.NOT_OFFERED_ON_PLATFORM,
                    message="Not Vertex AI serverless training: because")
    return response


def test_job_spec_follows_the_run_platform():
    config = '{"workerPoolSpecs": [{}]}'
    yaml_text = "kind: JobSet\n"
    spec = accelplan.job_spec(plan_response(accelplan_pb2.VERTEX_TRAINING,
                                            config, yaml_text))
    assert (spec.run_platform, spec.kind) == ("VERTEX_TRAINING",
                                              "vertex_custom_job_spec")
    assert spec.spec == {"workerPoolSpecs": [{}]}
    spec = accelplan.job_spec(plan_response(accelplan_pb2.GKE, "", yaml_text))
    assert (spec.run_platform, spec.kind, spec.spec) == ("GKE", "gke_jobset",
                                                         yaml_text)
    assert spec.reasons == ("Not Vertex AI serverless training: because",)
    spec = accelplan.job_spec(plan_response(accelplan_pb2.COMPUTE_ENGINE,
                                            note="Compute Engine: create VMs"))
    assert (spec.kind, spec.spec, spec.note) == (None, None,
                                                 "Compute Engine: create VMs")
    assert accelplan.job_spec(accelplan_pb2.PlanTrainingResponse()) is None


def test_result_helpers_give_names_and_none_for_unknowns():
    response = plan_response(accelplan_pb2.GKE)
    hw = accelplan.recommended_hardware(response)
    assert hw["platform"] == "GPU" and hw["provisioning"] == "SPOT"
    assert hw["run_platform"] == "GKE" and hw["tpu_topology"] is None
    assert accelplan.run_platform(response) == "GKE"
    response.recommendation.hardware.run_platform = 99  # a newer server
    assert accelplan.run_platform(response) is None
    assert accelplan.enum_name(accelplan_pb2.Platform, 0) is None
    assert accelplan.enum_name(accelplan_pb2.Platform, 3) == "TPU"
    empty = accelplan_pb2.PlanTrainingResponse()
    for helper in (accelplan.run_platform, accelplan.recommended_hardware,
                   accelplan.vertex_config, accelplan.gke_manifest):
        assert helper(empty) is None
    rejected = accelplan_pb2.PlanTrainingResponse()
    r = rejected.rejected.add()
    r.hardware.series = "TPU v5e"
    r.codes.extend([accelplan_pb2.HBM_TOO_SMALL, 999])
    assert accelplan.rejections(rejected) == {"TPU v5e": ["HBM_TOO_SMALL", None]}
    review = accelplan_pb2.ReviewPlanResponse()
    v = review.verdicts.add(label="a", verdict=77)
    v.codes.append(accelplan_pb2.SLOWER)
    assert accelplan.verdicts(review) == {"a": (None, ["SLOWER"])}


def test_list_accelerators_without_arguments_sends_an_empty_request(scripted):
    servicer, target = scripted
    with Client(target) as client:
        response = client.list_accelerators()
    assert [a.machine_type for a in response.accelerators] == ["ct5p-hightpu-4t"]
    assert servicer.last_request == accelplan_pb2.ListAcceleratorsRequest()


def test_review_reaches_review_plan(scripted):
    _, target = scripted
    with Client(target) as client:
        response = client.review({"proposals": [{"label": "A",
                                                 "hardware": {"series": "G4"}}]})
    assert response.catalog_version == "scripted"


def test_unavailable_is_retried_until_the_server_answers(scripted):
    servicer, target = scripted
    servicer.failures = 2
    with Client(target) as client:
        response = client.plan({})
    assert response.catalog_version == "scripted"
    assert servicer.calls == 3


def test_retries_stop_after_max_attempts(scripted):
    servicer, target = scripted
    servicer.failures = 100
    with Client(target, max_attempts=2) as client:
        with pytest.raises(grpc.RpcError) as error:
            client.plan({})
    assert error.value.code() == grpc.StatusCode.UNAVAILABLE
    assert servicer.calls == 2


def test_invalid_argument_carries_field_violations_and_is_not_retried(scripted):
    servicer, target = scripted
    bad_request = error_details_pb2.BadRequest()
    bad_request.field_violations.add(field="workload.parameter_count",
                                     description="must be positive")
    status = status_pb2.Status(code=grpc.StatusCode.INVALID_ARGUMENT.value[0],
                               message="scripted failure")
    status.details.add().Pack(bad_request)
    servicer.failures = 1
    servicer.failure_code = grpc.StatusCode.INVALID_ARGUMENT
    servicer.details_bin = status.SerializeToString()
    with Client(target) as client:
        with pytest.raises(InvalidRequestError) as error:
            client.plan({"workload": {"parameterCount": -1}})
    assert error.value.violations == [("workload.parameter_count",
                                       "must be positive")]
    assert isinstance(error.value, ValueError)
    assert servicer.calls == 1


def test_unreachable_server_raises_unavailable():
    with Client("127.0.0.1:1", timeout=10) as client:
        with pytest.raises(grpc.RpcError) as error:
            client.list_accelerators()
    assert error.value.code() == grpc.StatusCode.UNAVAILABLE


def test_dns_targets_balance_round_robin_over_every_address(scripted):
    servicer, target = scripted
    port = target.rsplit(":", 1)[1]
    # localhost may also resolve to ::1, where nothing listens: round_robin
    # sends every call to the address that is READY.
    with Client("dns:///localhost:%s" % port) as client:
        for _ in range(3):
            assert client.list_accelerators().accelerators
    assert servicer.calls == 3
