"""Plain Python values out of the generated response messages.

Enum fields come back as their names ("GKE", "SPOT", "REJECTED"), and as
None when the value is unset (the *_UNSPECIFIED zero value) or a number this
client does not know (a newer server). Every helper that takes a
PlanTrainingResponse returns None when the response has no recommendation.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Tuple

from google.protobuf import json_format
from google.protobuf.message import Message

from accelplan.v1 import accelplan_pb2


def enum_name(enum_type: Any, value: int) -> Optional[str]:
    """The name of `value` in the generated enum wrapper `enum_type` (e.g.
    accelplan_pb2.RunPlatform), or None for 0 (unspecified) and unknown
    numbers."""
    if not value:
        return None
    try:
        return enum_type.Name(value)
    except ValueError:
        return None


def to_dict(message: Message) -> Dict[str, Any]:
    """The message as a dict in the protobuf JSON mapping (lowerCamelCase,
    enums by name)."""
    return json_format.MessageToDict(message)


def _recommendation(plan_response: accelplan_pb2.PlanTrainingResponse):
    if not plan_response.HasField("recommendation"):
        return None
    return plan_response.recommendation


def run_platform(plan_response: accelplan_pb2.PlanTrainingResponse) -> Optional[str]:
    """Where the recommended plan runs: "VERTEX_TRAINING", "GKE",
    "COMPUTE_ENGINE", or None (no recommendation, or edge hardware)."""
    rec = _recommendation(plan_response)
    if rec is None:
        return None
    return enum_name(accelplan_pb2.RunPlatform, rec.hardware.run_platform)


def recommended_hardware(
        plan_response: accelplan_pb2.PlanTrainingResponse) -> Optional[Dict[str, Any]]:
    """The recommended hardware as plain values, enums by name (None when
    unset or unknown)."""
    rec = _recommendation(plan_response)
    if rec is None:
        return None
    h = rec.hardware
    return {
        "platform": enum_name(accelplan_pb2.Platform, h.platform),
        "series": h.series or None,
        "machine_type": h.machine_type or None,
        "accelerator": h.accelerator or None,
        "accelerators_per_host": h.accelerators_per_host,
        "hosts": h.hosts,
        "total_accelerators": h.total_accelerators,
        "tpu_topology": h.tpu_topology or None,
        "slices": h.slices,
        "provisioning": enum_name(accelplan_pb2.Provisioning, h.provisioning),
        "run_platform": enum_name(accelplan_pb2.RunPlatform, h.run_platform),
    }


def vertex_config(
        plan_response: accelplan_pb2.PlanTrainingResponse) -> Optional[Dict[str, Any]]:
    """The recommended plan's Vertex AI CustomJobSpec as a dict (the JSON
    `gcloud ai custom-jobs create --config` accepts), or None when the plan
    has none: no recommendation, edge hardware, or a plan that runs on GKE
    or Compute Engine."""
    rec = _recommendation(plan_response)
    if rec is None:
        return None
    text = rec.job_spec.vertex.config_json
    return json.loads(text) if text else None


def gke_manifest(plan_response: accelplan_pb2.PlanTrainingResponse) -> Optional[str]:
    """The recommended plan's GKE JobSet manifest (YAML), or None."""
    rec = _recommendation(plan_response)
    if rec is None:
        return None
    return rec.job_spec.gke.manifest_yaml or None


@dataclass(frozen=True)
class PlanJobSpec:
    """The job spec for where the plan runs.

    run_platform: "VERTEX_TRAINING", "GKE" or "COMPUTE_ENGINE".
    kind: "vertex_custom_job_spec" (spec is a dict: the CustomJobSpec),
      "gke_jobset" (spec is the JobSet manifest, a YAML string), or None for
      Compute Engine (no spec; `note` says how to create the VMs).
    note: the plan's job-spec note (Spot, reservations, ...), may be "".
    reasons: why the plan does not run on Vertex AI serverless training,
      when it does not.
    """

    run_platform: Optional[str]
    kind: Optional[str]
    spec: Any
    note: str
    reasons: Tuple[str, ...] = ()


def job_spec(plan_response: accelplan_pb2.PlanTrainingResponse) -> Optional[PlanJobSpec]:
    """The job spec for where the recommended plan runs (its run_platform),
    or None when there is no recommendation or the plan is for an edge
    device."""
    rec = _recommendation(plan_response)
    if rec is None:
        return None
    where = enum_name(accelplan_pb2.RunPlatform, rec.hardware.run_platform)
    if where is None:
        return None
    spec = rec.job_spec
    reasons = tuple(r.message for r in rec.reasons
                    if r.code == accelplan_pb2.NOT_OFFERED_ON_PLATFORM)
    if where == "VERTEX_TRAINING" and spec.vertex.config_json:
        return PlanJobSpec(where, "vertex_custom_job_spec",
                           json.loads(spec.vertex.config_json), spec.note, reasons)
    if where == "GKE" and spec.gke.manifest_yaml:
        return PlanJobSpec(where, "gke_jobset", spec.gke.manifest_yaml,
                           spec.note, reasons)
    return PlanJobSpec(where, None, None, spec.note, reasons)


def rejections(plan_response: accelplan_pb2.PlanTrainingResponse) -> Dict[str, List[Optional[str]]]:
    """{hardware label: [reason code names]} for every rejected option
    (a code this client does not know is None)."""
    out: Dict[str, List[Optional[str]]] = {}
    for rejection in plan_response.rejected:
        h = rejection.hardware
        label = h.series + (" / " + h.accelerator if h.accelerator else "")
        out.setdefault(label, []).extend(
            enum_name(accelplan_pb2.ReasonCode, c) for c in rejection.codes)
    return out


def verdicts(review_response: accelplan_pb2.ReviewPlanResponse) -> Dict[str, Tuple[Optional[str], List[Optional[str]]]]:
    """{proposal label: (verdict name, [reason code names])}; unknown or
    unset values are None."""
    return {v.label or str(v.index): (
        enum_name(accelplan_pb2.Verdict, v.verdict),
        [enum_name(accelplan_pb2.ReasonCode, c) for c in v.codes])
        for v in review_response.verdicts}
