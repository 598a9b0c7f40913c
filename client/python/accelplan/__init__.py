"""accelplan: Python client for the accelplan training-hardware planner.

`Client(target)` talks to accelplan-server; the generated messages are in
`accelplan.v1.accelplan_pb2`; `accelplan.results` turns responses into plain
values (enum names, None for unknowns) and `job_spec(response)` returns the
job spec for where the plan runs.
"""

from accelplan._version import __version__
from accelplan.client import (Client, InvalidRequestError, RequestParseError,
                              service_config)
from accelplan.results import (PlanJobSpec, enum_name, gke_manifest, job_spec,
                               recommended_hardware, rejections, run_platform,
                               to_dict, verdicts, vertex_config)
from accelplan.v1 import accelplan_pb2

__all__ = ["Client", "InvalidRequestError", "PlanJobSpec", "RequestParseError",
           "__version__", "accelplan_pb2", "enum_name", "gke_manifest",
           "job_spec", "recommended_hardware", "rejections", "run_platform",
           "service_config", "to_dict", "verdicts", "vertex_config"]
