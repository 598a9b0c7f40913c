"""The worst *valid* requests of bench/planner_bench.cc, built in Python.

Mirrors kWorstCaseJson, LimitsPlanRequest (tpus_kept variant: every repeated
field at its limit of planner/limits.h except tpu_unsuited_ops, which would
take TPU candidates out of the search) and LimitsReviewRequest (64 proposals
cycling hardware, distributions and remedies). Keep the two in step: the
overload and cancellation cases want the most expensive request the server
accepts, not a cheap one.
"""

import sqlite3

from google.protobuf import json_format

from accelplan.v1 import accelplan_pb2 as pb

# planner/limits.h
MAX_ALLOWED_SERIES = 64
MAX_SERIES_NAME_CHARS = 64
MAX_ALLOWED_PLATFORMS = 16
MAX_SYMPTOMS = 16
MAX_LAYER_WIDTHS = 256
MAX_PROPOSALS = 64
MAX_STRING_CHARS = 256

WORST_CASE_JSON = """{
  "workload": {
    "framework": "JAX",
    "modelKind": "DENSE_TRANSFORMER",
    "parameterCount": 70e9,
    "transformerShape": {
      "layers": 80, "hiddenSize": 8192, "attentionHeads": 64,
      "sequenceLength": 8192, "vocabSize": 128256, "ffnHiddenSize": 28672
    },
    "trainingMethod": "PRE_TRAINING",
    "precision": "BF16_MIXED",
    "optimizer": "ADAM",
    "datasetTokens": 1e12,
    "checkpoints": true
  },
  "goal": {"objective": "MIN_TIME"},
  "constraints": {
    "spotAllowed": true,
    "flexStartAllowed": true,
    "reservationAvailable": true
  },
  "view": "FULL"
}"""


def _cycle(pool, n):
    return [pool[i % len(pool)] for i in range(n)]


def _filler(i, chars):
    s = "no-such-series-%d-" % i
    return (s + "x" * chars)[:chars]


def _catalog(catalog_db):
    with sqlite3.connect("file:%s?mode=ro" % catalog_db, uri=True) as db:
        series = [r[0] for r in db.execute("SELECT id FROM series ORDER BY id")]
        accelerators = [r[0] for r in db.execute(
            "SELECT id FROM accelerators WHERE legacy = 0 ORDER BY id")]
    return series, accelerators


def worst_plan(catalog_db):
    """Plan/limits_all_lists_full_tpus_kept as a PlanTrainingRequest."""
    series, _ = _catalog(catalog_db)
    r = json_format.Parse(WORST_CASE_JSON, pb.PlanTrainingRequest())
    k = r.constraints
    k.allowed_platforms.extend(
        _cycle([pb.GPU, pb.TPU, pb.CPU, pb.EDGE], MAX_ALLOWED_PLATFORMS))
    names = series[:MAX_ALLOWED_SERIES]
    while len(names) < MAX_ALLOWED_SERIES:
        names.append(_filler(len(names), MAX_SERIES_NAME_CHARS))
    k.allowed_series.extend(names)
    k.region = "r" * MAX_STRING_CHARS
    w = r.workload
    w.framework = pb.PYTORCH  # NCCL on GPUs
    w.framework_version = "2.4"
    cur = r.current_setup
    cur.hardware = "nvidia-h100-80gb"
    cur.node_count = 16
    cur.accelerator_count = 128
    cur.uses_nccl = True
    cur.strategy = pb.DATA_PARALLEL
    cur.current_global_batch_size = 1000
    cur.symptoms.extend(_cycle(
        [pb.GRADIENT_SYNC_BOUND, pb.INPUT_BOUND, pb.HEAVY_PADDING,
         pb.OUT_OF_MEMORY, pb.LOW_UTILIZATION], MAX_SYMPTOMS))
    cur.layer_widths.extend(1000 + 7 * i for i in range(MAX_LAYER_WIDTHS))
    cur.observed_hours = 100
    return r


def worst_review(catalog_db):
    """Review/limits_64_proposals as a ReviewPlanRequest."""
    _, accelerators = _catalog(catalog_db)
    plan = worst_plan(catalog_db)
    r = pb.ReviewPlanRequest()
    r.workload.CopyFrom(plan.workload)
    r.goal.CopyFrom(plan.goal)
    r.constraints.CopyFrom(plan.constraints)
    r.current_setup.CopyFrom(plan.current_setup)
    pool = []
    for a in accelerators:
        p = pb.Proposal()
        p.label = "h" * MAX_STRING_CHARS
        p.hardware.accelerator = a
        p.hardware.count = 64
        pool.append(p)
    for strategy in (pb.FSDP, pb.HYBRID, pb.MULTISLICE):
        p = pb.Proposal()
        p.label = "distribution"
        p.distribution.strategy = strategy
        if strategy == pb.HYBRID:
            p.distribution.tensor_parallelism = 8
            p.distribution.pipeline_parallelism = 4
        if strategy == pb.MULTISLICE:
            p.distribution.slices = 4
            p.distribution.across_slices = pb.DCN_DATA
            p.distribution.mesh.ici_fsdp_parallelism = 256
            p.distribution.mesh.dcn_data_parallelism = 4
        pool.append(p)
    for kind in range(1, pb.USE_HOROVOD + 1):
        p = pb.Proposal()
        p.label = "remedy"
        p.remedy.kind = kind
        p.remedy.global_batch_size = 1024
        p.remedy.layer_widths.extend([1024] * MAX_LAYER_WIDTHS)
        p.remedy.target.accelerator = "tpu-v5p"
        p.remedy.target.tpu_topology = "4x4x4"
        pool.append(p)
    # Interleave the kinds so every kind is present at any prefix.
    for i in range(MAX_PROPOSALS):
        r.proposals.add().CopyFrom(pool[(i * 7) % len(pool)])
    return r
