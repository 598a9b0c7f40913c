"""Python client for accelplan.v1.TrainingPlanner.

    from accelplan import Client
    with Client("localhost:50051") as client:
        response = client.plan({"workload": {"framework": "jax",
                                             "parameterCount": 7e9}})
        print(response.recommendation.hardware.machine_type)

Requests may be generated messages, dicts in the protobuf JSON mapping
(lowerCamelCase or proto field names; enum values by name in any case, or by
number) or JSON strings. A request that does not parse raises
`InvalidRequestError` naming the field before anything is sent. Every call
carries a deadline (30 s by default) and retries UNAVAILABLE through the
channel's service config; "dns:///name:port" targets balance round_robin
over every address (a headless Kubernetes Service).
"""

from __future__ import annotations

import json
from typing import Any, List, Mapping, Optional, Sequence, Tuple, Type, TypeVar, Union

import grpc
from google.protobuf import descriptor as _descriptor
from google.protobuf import json_format
from google.protobuf.message import Message

from accelplan.v1 import accelplan_pb2
from accelplan.v1 import accelplan_pb2_grpc

SERVICE = "accelplan.v1.TrainingPlanner"
DEFAULT_TIMEOUT_SECONDS = 30.0
DEFAULT_MAX_ATTEMPTS = 4

M = TypeVar("M", bound=Message)
Request = Union[Message, Mapping[str, Any], str, bytes, None]
Violation = Tuple[str, str]


def service_config(timeout: float = DEFAULT_TIMEOUT_SECONDS,
                   max_attempts: int = DEFAULT_MAX_ATTEMPTS,
                   lb_policy: str = "round_robin") -> str:
    """The gRPC service config JSON the channel is created with."""
    method: dict = {"name": [{"service": SERVICE}], "timeout": "%.3fs" % timeout}
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
    """The request is invalid: the server answered INVALID_ARGUMENT, or the
    request did not parse on the client (then nothing was sent).

    `violations` lists (field, description) pairs: the server's
    google.rpc.BadRequest field violations, or the client-side parse error
    with the field path in the protobuf JSON mapping (e.g.
    "workload.framework"). `rpc_error` is the grpc.RpcError, None for
    client-side errors.
    """

    def __init__(self, message: str, violations: Sequence[Violation],
                 rpc_error: Optional[grpc.RpcError] = None) -> None:
        super().__init__(message)
        self.violations: List[Violation] = list(violations)
        self.rpc_error = rpc_error


class RequestParseError(InvalidRequestError, json_format.ParseError):
    """A client-side parse error. Also a protobuf `json_format.ParseError`
    for code that caught that before."""


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


def _bad_request_violations(rpc_error: grpc.RpcError) -> List[Violation]:
    """(field, description) pairs from grpc-status-details-bin, if any."""
    violations: List[Violation] = []
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


# ------------------------------------------------------------ request parsing

def _parse_error(path: str, description: str) -> RequestParseError:
    field = path or "<request>"
    return RequestParseError("invalid request: %s: %s" % (field, description),
                             [(field, description)])


def _enum_value(enum: _descriptor.EnumDescriptor, value: Any, path: str) -> Any:
    if isinstance(value, bool):
        raise _parse_error(path, "expected a %s name, got %r" %
                           (enum.name, value))
    if isinstance(value, int):
        if value in enum.values_by_number:
            return value
        raise _parse_error(path, "%d is not a %s value" % (value, enum.name))
    if isinstance(value, str):
        wanted = value.strip().upper().replace("-", "_")
        if wanted in enum.values_by_name:
            return wanted
        names = [v.name for v in enum.values if v.number != 0]
        raise _parse_error(path, "unknown %s %r; expected one of %s" %
                           (enum.name, value, ", ".join(names)))
    raise _parse_error(path, "expected a %s name, got %s" %
                       (enum.name, type(value).__name__))


def _normalize(message: _descriptor.Descriptor, data: Any, path: str) -> Any:
    """The dict with enum names upper-cased, checked field by field against
    the message descriptor so that errors name the field."""
    if not isinstance(data, Mapping):
        raise _parse_error(path, "expected an object for %s, got %s" %
                           (message.name, type(data).__name__))
    by_name = {}
    for field in message.fields:
        by_name[field.name] = field
        by_name[field.json_name] = field
    out = {}
    for key, value in data.items():
        field = by_name.get(key) if isinstance(key, str) else None
        child = "%s.%s" % (path, key) if path else str(key)
        if field is None:
            raise _parse_error(child, "no such field in %s" % message.full_name)
        out[key] = _normalize_field(field, value, child)
    return out


def _normalize_field(field: _descriptor.FieldDescriptor, value: Any,
                     path: str) -> Any:
    if value is None:
        return value
    is_map = (field.message_type is not None and
              field.message_type.GetOptions().map_entry)
    if is_map:
        if not isinstance(value, Mapping):
            raise _parse_error(path, "expected an object")
        value_field = field.message_type.fields_by_name["value"]
        return {k: _normalize_single(value_field, v, "%s.%s" % (path, k))
                for k, v in value.items()}
    if field.label == _descriptor.FieldDescriptor.LABEL_REPEATED:
        if not isinstance(value, (list, tuple)):
            raise _parse_error(path, "expected a list")
        return [_normalize_single(field, v, "%s[%d]" % (path, i))
                for i, v in enumerate(value)]
    return _normalize_single(field, value, path)


def _normalize_single(field: _descriptor.FieldDescriptor, value: Any,
                      path: str) -> Any:
    if field.enum_type is not None:
        return _enum_value(field.enum_type, value, path)
    if field.message_type is not None:
        return _normalize(field.message_type, value, path)
    return value


def _as_message(request: Request, message_type: Type[M]) -> M:
    if request is None:
        return message_type()
    if isinstance(request, message_type):
        return request
    if isinstance(request, (str, bytes)):
        try:
            request = json.loads(request)
        except ValueError as e:
            raise _parse_error("", "not JSON: %s" % e) from e
    if not isinstance(request, Mapping):
        raise TypeError("expected %s, a dict or a JSON string, got %s" %
                        (message_type.DESCRIPTOR.full_name,
                         type(request).__name__))
    normalized = _normalize(message_type.DESCRIPTOR, request, "")
    try:
        return json_format.ParseDict(normalized, message_type())
    except json_format.ParseError as e:
        # Scalars of the wrong type: protobuf says "Failed to parse <field>
        # field: ..." once per level; rebuild the dotted path from that.
        text = str(e)
        parts = []
        marker = "Failed to parse "
        while text.startswith(marker) and " field: " in text:
            name, text = text[len(marker):].split(" field: ", 1)
            parts.append(name)
        raise _parse_error(".".join(parts), text) from e


class Client:
    """A channel to accelplan-server plus the three RPCs.

    Raises `InvalidRequestError` for bad requests (client- or server-side)
    and `grpc.RpcError` for everything else (UNAVAILABLE after the retries,
    DEADLINE_EXCEEDED, ...).
    """

    def __init__(self, target: str, timeout: float = DEFAULT_TIMEOUT_SECONDS,
                 max_attempts: int = DEFAULT_MAX_ATTEMPTS,
                 credentials: Optional[grpc.ChannelCredentials] = None,
                 options: Sequence[Tuple[str, Any]] = ()) -> None:
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

    def _call(self, method, request: Message, timeout: Optional[float]):
        try:
            return method(request,
                          timeout=self.timeout if timeout is None else timeout)
        except grpc.RpcError as error:
            if error.code() == grpc.StatusCode.INVALID_ARGUMENT:
                raise InvalidRequestError(error.details(),
                                          _bad_request_violations(error),
                                          error) from error
            raise

    def plan(self, request: Request,
             timeout: Optional[float] = None) -> accelplan_pb2.PlanTrainingResponse:
        """PlanTraining. Returns accelplan_pb2.PlanTrainingResponse; a job
        with no viable plan is a normal answer (no `recommendation`, with
        `no_plan_reason`), not an error."""
        return self._call(self._stub.PlanTraining,
                          _as_message(request, accelplan_pb2.PlanTrainingRequest),
                          timeout)

    def review(self, request: Request,
               timeout: Optional[float] = None) -> accelplan_pb2.ReviewPlanResponse:
        """ReviewPlan. Returns accelplan_pb2.ReviewPlanResponse."""
        return self._call(self._stub.ReviewPlan,
                          _as_message(request, accelplan_pb2.ReviewPlanRequest),
                          timeout)

    def list_accelerators(
            self, request: Request = None,
            timeout: Optional[float] = None) -> accelplan_pb2.ListAcceleratorsResponse:
        """ListAccelerators; no request lists the whole catalog."""
        return self._call(
            self._stub.ListAccelerators,
            _as_message(request, accelplan_pb2.ListAcceleratorsRequest),
            timeout)

    def close(self) -> None:
        self._channel.close()

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *exc_info: Any) -> bool:
        self.close()
        return False
