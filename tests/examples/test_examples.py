"""Every PlanTraining request in examples/ yields a plan that a team can
submit and check by hand (SPEC §2 "The plan", issue 3 "Done when").

Runs the built `accelplan` CLI in-process over the built catalog.db, once per
example, and checks the recommendation of each PLAN request (the naming
contract: ReviewPlan requests have `review` in the name, ListAccelerators
requests `catalog`, every other file is a PlanTraining request):

* it carries a job spec: Vertex AI worker pools (typed and as the JSON that
  `gcloud ai custom-jobs create --config` reads) or a GKE JobSet, consistent
  with the recommended hardware;
* when the request gives the sizes (a parameter count or transformer shape,
  and a dataset size), it carries the memory/time/cost breakdown that
  docs/planner.md shows how to recompute, and the parts add up.

Environment: ACCELPLAN_CLI (the binary), ACCELPLAN_CATALOG (catalog.db),
ACCELPLAN_EXAMPLES (the examples folder). Run by ctest through
/usr/bin/python3 (tests/examples/CMakeLists.txt).
"""

import glob
import json
import math
import os
import subprocess
import unittest

CLI = os.environ.get("ACCELPLAN_CLI", "")
CATALOG = os.environ.get("ACCELPLAN_CATALOG", "")
EXAMPLES = os.environ.get(
    "ACCELPLAN_EXAMPLES",
    os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                 "examples"))

# Relative tolerance for sums of rounded-free doubles from the same plan.
REL = 1e-6


def kind_of(path):
    name = os.path.basename(path)
    if "review" in name:
        return "review"
    if "catalog" in name:
        return "catalog"
    return "plan"


def plan_examples():
    return sorted(p for p in glob.glob(os.path.join(EXAMPLES, "*.json"))
                  if kind_of(p) == "plan")


def run_plan(path):
    result = subprocess.run(
        [CLI, "plan", "--catalog", CATALOG, "--request", path,
         "--output=json"],
        capture_output=True, text=True, timeout=300, check=False)
    return result


def sizes_given(workload):
    """A model size and a dataset size: the plan must carry numbers."""
    shape = workload.get("transformerShape", {})
    model = (float(workload.get("parameterCount", 0) or 0) > 0 or
             (int(shape.get("layers", 0) or 0) > 0 and
              int(shape.get("hiddenSize", 0) or 0) > 0))
    data = (float(workload.get("datasetTokens", 0) or 0) > 0 or
            float(workload.get("datasetExamples", 0) or 0) > 0 or
            (int(workload.get("steps", 0) or 0) > 0 and
             int(workload.get("globalBatchSize", 0) or 0) > 0))
    return model and data


def close(a, b, rel=REL, abs_tol=1e-9):
    return math.isclose(a, b, rel_tol=rel, abs_tol=abs_tol)


class ExamplePlansTest(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        # Missing inputs fail the suite: a skipped check proves nothing.
        if not CLI or not os.path.exists(CLI):
            raise AssertionError("ACCELPLAN_CLI not set or missing: %r" % CLI)
        if not CATALOG or not os.path.exists(CATALOG):
            raise AssertionError("ACCELPLAN_CATALOG not set or missing: %r" %
                                 CATALOG)
        cls.examples = plan_examples()
        cls.results = {}
        for path in cls.examples:
            with open(path, encoding="utf-8") as f:
                request = json.load(f)
            result = run_plan(path)
            body = None
            if result.stdout.strip():
                try:
                    body = json.loads(result.stdout)
                except ValueError:
                    body = None
            cls.results[path] = (request, result, body)

    def test_the_issue_3_examples_exist(self):
        names = {os.path.basename(p) for p in self.examples}
        for required in ("pretrain_70b_llama_shape_plan.json",
                         "lora_7b_single_gpu_plan.json",
                         "multislice_jax_v5p_plan.json",
                         "deadline_and_budget_plan.json"):
            self.assertIn(required, names)

    def test_naming_contract_no_file_mixes_review_and_catalog(self):
        for path in glob.glob(os.path.join(EXAMPLES, "*.json")):
            name = os.path.basename(path)
            self.assertFalse("review" in name and "catalog" in name, name)

    def test_every_plan_example_has_a_recommendation(self):
        for path, (_, result, body) in self.results.items():
            with self.subTest(example=os.path.basename(path)):
                self.assertEqual(result.returncode, 0,
                                 "exit %d: %s" % (result.returncode,
                                                  result.stderr[:500]))
                self.assertIsNotNone(body, "stdout is not JSON")
                self.assertIn("recommendation", body)

    def test_every_recommendation_carries_a_job_spec(self):
        for path, (request, _, body) in self.results.items():
            if not body or "recommendation" not in body:
                continue  # reported by test_every_plan_example_has_a_recommendation
            with self.subTest(example=os.path.basename(path)):
                rec = body["recommendation"]
                hw = rec["hardware"]
                workload = request.get("workload", {})
                if hw.get("platform") == "EDGE":
                    # On-device inference runs no cloud training job: SPEC §2
                    # job specs are for training; edge gets none.
                    self.assertEqual(workload.get("deploymentTarget"),
                                     "ON_DEVICE_INFERENCE")
                    continue
                spec = rec.get("jobSpec", {})
                vertex = spec.get("vertex")
                gke = spec.get("gke")
                if hw.get("runPlatform") == "COMPUTE_ENGINE":
                    # Specs follow where the plan runs (issue 19): Compute
                    # Engine has no job spec, the note says what to create.
                    self.assertFalse(vertex or gke, "spec on a CE plan")
                    self.assertIn("Compute Engine", spec.get("note", ""))
                    continue
                self.assertTrue(vertex or gke, "no Vertex or GKE job spec")
                if vertex:
                    self.assertEqual(hw.get("runPlatform"), "VERTEX_TRAINING",
                                     "Vertex spec on a plan that runs elsewhere")
                if vertex:
                    self.check_vertex(hw, rec.get("distribution", {}), vertex)
                if gke:
                    self.check_gke(hw, gke)
                if hw.get("platform") == "TPU" and int(hw.get("slices", 1)) > 1:
                    # Serverless training documents no Multislice.
                    self.assertTrue(gke, "Multislice needs the GKE spec")
                    self.assertIsNone(vertex, "Vertex has no Multislice")

    def check_vertex(self, hw, dist, vertex):
        pools = vertex.get("workerPoolSpecs", [])
        self.assertTrue(pools, "Vertex spec without worker pools")
        config = json.loads(vertex["configJson"])
        self.assertEqual(len(config["workerPoolSpecs"]), len(pools))
        hosts = int(hw.get("hosts", 1))
        if hw.get("platform") == "TPU":
            self.assertEqual(len(pools), 1, "TPU jobs use one pool")
            self.assertEqual(int(pools[0].get("replicaCount", 0)), 1)
            self.assertEqual(pools[0]["machineSpec"].get("tpuTopology"),
                             hw.get("tpuTopology"))
            self.assertEqual(pools[0]["machineSpec"]["machineType"],
                             hw["machineType"])
            return
        # GPU/CPU: pool 0 chief + pool 1 workers = the VMs of the plan;
        # pool 2 is the Reduction Server when one is planned.
        workers = 0
        for i, pool in enumerate(pools):
            if pool.get("role") == "reduction-server":
                self.assertEqual(i, 2, "Reduction Server is pool 2")
                self.assertIn("reductionServer", dist)
                continue
            if not pool.get("machineSpec"):
                continue  # a skipped pool written as {}
            self.assertEqual(pool["machineSpec"]["machineType"],
                             hw["machineType"])
            workers += int(pool.get("replicaCount", 0))
        self.assertEqual(workers, hosts, "chief + workers != VMs planned")
        self.assertEqual(int(pools[0].get("replicaCount", 0)), 1,
                         "pool 0 is the chief (one replica)")
        accel = int(hw.get("acceleratorsPerHost", 0))
        if hw.get("platform") == "GPU":
            self.assertTrue(pools[0]["machineSpec"].get("acceleratorType"))
            self.assertEqual(
                int(pools[0]["machineSpec"].get("acceleratorCount", 0)), accel)

    def check_gke(self, hw, gke):
        selectors = gke.get("nodeSelectors", {})
        self.assertTrue(gke.get("manifestYaml"), "GKE spec without manifest")
        hosts = int(hw.get("hosts", 1))
        replicas = int(gke.get("jobsetReplicas", 1))
        pods = int(gke.get("podsPerJob", 1))
        self.assertEqual(replicas * pods, hosts, "pods != VMs planned")
        if hw.get("platform") == "TPU":
            self.assertIn("cloud.google.com/gke-tpu-accelerator", selectors)
            self.assertEqual(selectors.get("cloud.google.com/gke-tpu-topology"),
                             hw.get("tpuTopology"))
            self.assertEqual(replicas, int(hw.get("slices", 1)),
                             "one JobSet job per slice")
            self.assertEqual(gke.get("resourceName"), "google.com/tpu")
        elif hw.get("platform") == "GPU":
            self.assertIn("cloud.google.com/gke-accelerator", selectors)
            self.assertEqual(gke.get("resourceName"), "nvidia.com/gpu")
            self.assertEqual(int(gke.get("resourcePerPod", 0)),
                             int(hw.get("acceleratorsPerHost", 0)))

    def test_breakdown_when_sizes_are_given(self):
        checked = 0
        for path, (request, _, body) in self.results.items():
            if not body or "recommendation" not in body:
                continue
            workload = request.get("workload", {})
            rec = body["recommendation"]
            if (not sizes_given(workload) or
                    rec["hardware"].get("platform") == "EDGE"):
                continue
            checked += 1
            with self.subTest(example=os.path.basename(path)):
                self.check_breakdown(rec)
        self.assertGreaterEqual(checked, 4, "too few sized examples")

    def check_breakdown(self, rec):
        e = rec["estimates"]
        m = e["memoryPerDevice"]
        parts = sum(float(m.get(k, 0)) for k in
                    ("weightsGib", "gradientsGib", "optimizerGib",
                     "activationsGib", "embeddingsGib"))
        total = float(m["totalGib"])
        self.assertGreater(total, 0, "no memory estimate")
        self.assertTrue(close(parts, total), "%g != %g" % (parts, total))
        # Headroom: usable = device × (1 − headroom), and the job fits.
        head = float(m["headroomFraction"])
        self.assertGreater(head, 0)
        self.assertTrue(close(float(m["usableGib"]),
                              float(m["deviceMemoryGib"]) * (1 - head)))
        self.assertLessEqual(total, float(m["usableGib"]) * (1 + REL))

        self.assertGreater(float(e["trainingFlops"]), 0)
        self.assertGreater(float(e["stepTimeSeconds"]), 0)
        self.assertGreater(float(e["peakTflopsPerDevice"]), 0)
        lo, hi = float(e["mfuLow"]), float(e["mfuHigh"])
        self.assertTrue(0 < lo <= hi < 1, (lo, hi))
        h = e["totalHours"]
        self.assertTrue(0 < float(h["low"]) <= float(h["expected"])
                        <= float(h["high"]), h)
        # Compute-only lower bound: total FLOPs at the high MFU on every
        # device can never take longer than the estimate's fast end.
        devices = int(rec["hardware"].get("totalAccelerators", 0) or 0)
        if devices > 0 and rec["hardware"].get("platform") != "CPU":
            floor_h = (float(e["trainingFlops"]) /
                       (devices * float(e["peakTflopsPerDevice"]) * 1e12 * hi)
                       / 3600)
            self.assertLessEqual(floor_h, float(h["low"]) * (1 + 1e-6))

        self.assertTrue(e.get("priceDate"), "no price date")
        self.assertTrue(e.get("priceRegion"), "no price region")
        if e.get("priceKnown"):
            od = float(e.get("onDemandHourlyUsd", 0))
            if od > 0:
                c = e["onDemandCostUsd"]
                for k in ("low", "expected", "high"):
                    self.assertTrue(close(float(c[k]), float(h[k]) * od),
                                    "on-demand %s cost != hours x $/h" % k)
            spot = float(e.get("spotHourlyUsd", 0))
            if spot > 0:
                c = e["spotCostUsd"]
                for k in ("low", "expected", "high"):
                    self.assertTrue(close(float(c[k]), float(h[k]) * spot),
                                    "Spot %s cost != hours x $/h" % k)
            self.assertGreater(float(e.get("hourlyUsd", 0)), 0)

    def test_parallelism_degrees_cover_every_accelerator(self):
        # data × fsdp × tensor × pipeline (absent degrees = 1) must equal the
        # accelerators of the plan, so the degrees can be typed into a
        # launcher as they are.
        for path, (_, _, body) in self.results.items():
            if not body or "recommendation" not in body:
                continue
            rec = body["recommendation"]
            hw = rec["hardware"]
            if hw.get("platform") not in ("GPU", "TPU"):
                continue
            d = rec.get("distribution", {})
            with self.subTest(example=os.path.basename(path)):
                product = 1
                for k in ("dataParallelism", "fsdpParallelism",
                          "tensorParallelism", "pipelineParallelism"):
                    product *= max(1, int(d.get(k, 1) or 1))
                self.assertEqual(product, int(hw["totalAccelerators"]),
                                 json.dumps(d))
                mesh = d.get("multislice")
                if mesh:
                    ici = 1
                    for k in ("iciDataParallelism", "iciFsdpParallelism",
                              "iciTensorParallelism"):
                        ici *= max(1, int(mesh.get(k, 1) or 1))
                    dcn = 1
                    for k in ("dcnDataParallelism", "dcnFsdpParallelism",
                              "dcnTensorParallelism",
                              "dcnPipelineParallelism"):
                        dcn *= max(1, int(mesh.get(k, 1) or 1))
                    slices = int(hw.get("slices", 1))
                    self.assertEqual(dcn, slices)
                    self.assertEqual(ici * slices,
                                     int(hw["totalAccelerators"]))


if __name__ == "__main__":
    unittest.main(verbosity=2)
