"""Example pipeline step: plan a training job, emit its Vertex AI job spec.

Written as a Kubeflow Pipelines lightweight component: the function is
self-contained (imports inside, typed parameters, a JSON string out), so it
can be wrapped as is:

    from kfp import dsl
    plan_op = dsl.component(base_image="python:3.11",
                            packages_to_install=["accelplan"])(
        plan_and_emit_job_spec)

The returned JSON is a Vertex AI CustomJobSpec (`workerPoolSpecs`, and
`scheduling` for Spot / flex-start), the file
`gcloud ai custom-jobs create --config` accepts, ready for the next step.
It also runs from a shell:

    PYTHONPATH=build/python /usr/bin/python3 -m accelplan.pipeline_step \
        --server localhost:50051 --request examples/some-plan.json
"""


def plan_and_emit_job_spec(
    server: str,
    request_json: str = "",
    framework: str = "",
    parameter_count: float = 0.0,
    objective: str = "",
    deadline_hours: float = 0.0,
    budget_usd: float = 0.0,
    image_uri: str = "",
    timeout_seconds: float = 30.0,
) -> str:
    """Plans the job on `server` and returns the Vertex job spec as JSON.

    `request_json` is a PlanTrainingRequest in the protobuf JSON mapping;
    the other arguments, when set, override its fields. `image_uri` sets
    the training container of the chief and worker pools. Raises RuntimeError
    when no plan is viable, so the pipeline stops before it launches.
    """
    import json

    from accelplan import Client

    request = json.loads(request_json) if request_json else {}
    workload = request.setdefault("workload", {})
    goal = request.setdefault("goal", {})
    if framework:
        workload["framework"] = framework.upper()
    if parameter_count:
        workload["parameterCount"] = parameter_count
    if objective:
        goal["objective"] = objective.upper()
    if deadline_hours:
        goal["deadlineHours"] = deadline_hours
    if budget_usd:
        goal["budgetUsd"] = budget_usd
    request["view"] = "BASIC"  # the pipeline needs the plan, not the evidence

    with Client(server, timeout=timeout_seconds) as client:
        response = client.plan(request)
    if not response.HasField("recommendation"):
        raise RuntimeError("accelplan found no viable plan: %s" %
                           (response.no_plan_reason or "no reason given"))

    vertex = response.recommendation.job_spec.vertex
    if vertex.config_json:
        spec = json.loads(vertex.config_json)
    else:
        # Older servers: assemble the spec from the typed message.
        pools = []
        for pool in vertex.worker_pool_specs:
            machine = {"machineType": pool.machine_spec.machine_type}
            if pool.machine_spec.accelerator_type:
                machine["acceleratorType"] = pool.machine_spec.accelerator_type
                machine["acceleratorCount"] = pool.machine_spec.accelerator_count
            if pool.machine_spec.tpu_topology:
                machine["tpuTopology"] = pool.machine_spec.tpu_topology
            entry = {"machineSpec": machine, "replicaCount": pool.replica_count}
            if pool.image_uri:
                entry["containerSpec"] = {"imageUri": pool.image_uri}
            pools.append(entry)
        spec = {"workerPoolSpecs": pools}
        if vertex.scheduling_strategy and vertex.scheduling_strategy != "STANDARD":
            spec["scheduling"] = {"strategy": vertex.scheduling_strategy}
    if image_uri:
        # The training pools get the caller's image; a Reduction Server pool
        # keeps the reducer image the plan chose.
        roles = [pool.role for pool in vertex.worker_pool_specs]
        for index, pool in enumerate(spec.get("workerPoolSpecs", [])):
            role = roles[index] if index < len(roles) else ""
            if pool and role.replace("-", "_") != "reduction_server":
                pool.setdefault("containerSpec", {})["imageUri"] = image_uri
    return json.dumps(spec, indent=2, sort_keys=True)


def main(argv=None):
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server", default="localhost:50051",
                        help="accelplan-server HOST:PORT (default: %(default)s)")
    parser.add_argument("--request", default="",
                        help="PlanTrainingRequest JSON file (default: none)")
    parser.add_argument("--image_uri", default="",
                        help="training container image (default: none)")
    args = parser.parse_args(argv)
    request_json = ""
    if args.request:
        with open(args.request, encoding="utf-8") as f:
            request_json = f.read()
    print(plan_and_emit_job_spec(args.server, request_json,
                                 image_uri=args.image_uri))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
