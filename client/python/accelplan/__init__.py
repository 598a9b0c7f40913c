"""accelplan: Python client for the accelplan training-hardware planner.

`Client(target)` talks to accelplan-server; the generated messages are in
`accelplan.v1.accelplan_pb2`.
"""

from accelplan.client import (Client, InvalidRequestError, gke_manifest,
                              rejections, service_config, to_dict,
                              verdicts, vertex_config)
from accelplan.v1 import accelplan_pb2

__all__ = ["Client", "InvalidRequestError", "accelplan_pb2", "gke_manifest",
           "rejections", "service_config", "to_dict", "verdicts",
           "vertex_config"]
