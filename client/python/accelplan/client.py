"""Python client for accelplan.v1.TrainingPlanner.

    from accelplan import Client
    with Client("localhost:50051") as client:
        response = client.plan({"workload": {"framework": "JAX",
                                             "parameterCount": 7e9}})
        print(response.recommendation.hardware.machine_type)

Requests may be generated messages or dicts in the protobuf JSON mapping
(lowerCamelCase or proto field names). Every call carries a deadline
(30 s by default) and retries UNAVAILABLE through the channel's service
config; "dns:///name:port" targets balance round_robin over every address
(a headless Kubernetes Service).
"""

import json

import grpc
from google.protobuf import json_format

from accelplan.v1 import accelplan_pb2
from accelplan.v1 import accelplan_pb2_grpc

SERVICE = "accelplan.v1.TrainingPlanner"
DEFAULT_TIMEOUT_SECONDS = 30.0
DEFAULT_MAX_ATTEMPTS = 4


def service_config(timeout=DEFAULT_TIMEOUT_SECONDS,
                   max_attempts=DEFAULT_MAX_ATTEMPTS,
                   lb_policy="round_robin"):
    """The gRPC service config JSON the channel is created with."""
    method = {"name": [{"service": SERVICE}], "timeout": "%.3fs" % timeout}
    # gRPC rejects the whole config when maxAttempts < 2.
    if max_attempts >= 2:
        method["retryPolicy"] = {
            "maxAttempts": int(max_attempts),
            "initialBackoff": "0.1s",
            "maxBackoff": "2s",
            "backoffMultiplier": 2,
            "retryableStatusCodes": ["UNAVAILABLE"],
        }
    return json.dumps({
        "loadBalancingConfig": [{lb_policy: {}}],
        "methodConfig": [method],
    })


class InvalidRequestError(ValueError):
    """The server answered INVALID_ARGUMENT.

    `violations` lists (field, description) pairs from the
    google.rpc.BadRequest the server attached.
    """

    def __init__(self, message, violations, rpc_error=None):
        super().__init__(message)
        self.violations = violations
        self.rpc_error = rpc_error


def _rpc_status_modules():
    """google.rpc Status and BadRequest modules, imported on first error.

    Ours live inside the package; if googleapis-common-protos already
    registered google/rpc/*.proto in this process, the descriptor pool
    refuses a second definition, so fall back to its modules.
    """
    try:
        from accelplan.google.rpc import error_details_pb2, status_pb2
    except TypeError:
        from google.rpc import error_details_pb2, status_pb2
    return status_pb2, error_details_pb2


def _bad_request_violations(rpc_error):
    """(field, description) pairs from grpc-status-details-bin, if any."""
    violations = []
    try:
        metadata = rpc_error.trailing_metadata() or ()
    except Exception:  # not every RpcError carries call metadata
        return violations
    for key, value in metadata:
        if key != "grpc-status-details-bin":
            continue
        status_pb2, error_details_pb2 = _rpc_status_modules()
        status = status_pb2.Status()
        status.ParseFromString(value)
        for detail in status.details:
            bad_request = error_details_pb2.BadRequest()
            if detail.Unpack(bad_request):
                violations.extend((v.field, v.description)
                                  for v in bad_request.field_violations)
    return violations


def _as_message(request, message_type):
    if request is None:
        return message_type()
    if isinstance(request, message_type):
        return request
    if isinstance(request, dict):
        return json_format.ParseDict(request, message_type())
    if isinstance(request, (str, bytes)):
        return json_format.Parse(request, message_type())
    raise TypeError("expected %s, a dict or a JSON string, got %s" %
                    (message_type.DESCRIPTOR.full_name,
                     type(request).__name__))


class Client:
    """A channel to accelplan-server plus the three RPCs."""

    def __init__(self, target, timeout=DEFAULT_TIMEOUT_SECONDS,
                 max_attempts=DEFAULT_MAX_ATTEMPTS, credentials=None,
                 options=()):
        self.timeout = timeout
        channel_options = [
            ("grpc.service_config", service_config(timeout, max_attempts)),
            ("grpc.enable_retries", 1),
            # The server accepts client pings at least 10 s apart.
            ("grpc.keepalive_time_ms", 30000),
        ] + list(options)
        if credentials is None:
            self._channel = grpc.insecure_channel(target, options=channel_options)
        else:
            self._channel = grpc.secure_channel(target, credentials,
                                                options=channel_options)
        self._stub = accelplan_pb2_grpc.TrainingPlannerStub(self._channel)

    def _call(self, method, request, timeout):
        try:
            return method(request,
                          timeout=self.timeout if timeout is None else timeout)
        except grpc.RpcError as error:
            if error.code() == grpc.StatusCode.INVALID_ARGUMENT:
                raise InvalidRequestError(error.details(),
                                          _bad_request_violations(error),
                                          error) from error
            raise

    def plan(self, request, timeout=None):
        """PlanTraining. Returns accelplan_pb2.PlanTrainingResponse."""
        return self._call(self._stub.PlanTraining,
                          _as_message(request, accelplan_pb2.PlanTrainingRequest),
                          timeout)

    def review(self, request, timeout=None):
        """ReviewPlan. Returns accelplan_pb2.ReviewPlanResponse."""
        return self._call(self._stub.ReviewPlan,
                          _as_message(request, accelplan_pb2.ReviewPlanRequest),
                          timeout)

    def list_accelerators(self, request=None, timeout=None):
        """ListAccelerators; no request lists the whole catalog."""
        return self._call(
            self._stub.ListAccelerators,
            _as_message(request, accelplan_pb2.ListAcceleratorsRequest),
            timeout)

    def close(self):
        self._channel.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        self.close()
        return False


# ------------------------------------------------------------ accessors
# Small helpers for orchestration code that wants plain Python values out of
# the generated messages.

def to_dict(message):
    """The message as a dict in the protobuf JSON mapping (lowerCamelCase)."""
    return json_format.MessageToDict(message)


def vertex_config(plan_response):
    """The recommended plan's Vertex AI CustomJob spec as a dict (the JSON
    `gcloud ai custom-jobs create --config` accepts), or None when the plan
    has none (no recommendation, edge hardware, Multislice on GKE)."""
    if not plan_response.HasField("recommendation"):
        return None
    text = plan_response.recommendation.job_spec.vertex.config_json
    return json.loads(text) if text else None


def gke_manifest(plan_response):
    """The recommended plan's GKE JobSet YAML, or None."""
    if not plan_response.HasField("recommendation"):
        return None
    return plan_response.recommendation.job_spec.gke.manifest_yaml or None


def rejections(plan_response):
    """{hardware label: [reason code names]} for every rejected option."""
    out = {}
    for rejection in plan_response.rejected:
        h = rejection.hardware
        label = h.series + (" / " + h.accelerator if h.accelerator else "")
        out.setdefault(label, []).extend(
            accelplan_pb2.ReasonCode.Name(c) for c in rejection.codes)
    return out


def verdicts(review_response):
    """{proposal label: (verdict name, [reason code names])}."""
    return {v.label or str(v.index): (
        accelplan_pb2.Verdict.Name(v.verdict),
        [accelplan_pb2.ReasonCode.Name(c) for c in v.codes])
        for v in review_response.verdicts}
