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


def test_bad_dict_fails_before_the_call(scripted):
    servicer, target = scripted
    with Client(target) as client:
        with pytest.raises(json_format.ParseError):
            client.plan({"workload": {"framwork": "JAX"}})
    assert servicer.calls == 0


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
