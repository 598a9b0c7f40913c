"""Example pipeline step: plan a training job, emit the job spec for where it
runs.

Written as a Kubeflow Pipelines lightweight component: the function is
self-contained (imports inside, typed parameters, a string out). The
`accelplan` package is not on PyPI, so the component's image must carry it.
Either build a base image that installs it (the Python package needs the
generated stubs, which `pip install ./client/python` makes with `protoc` and
`grpc_python_plugin`, see client/python/README.md):

    from kfp import dsl
    plan_op = dsl.component(
        base_image="us-docker.pkg.dev/YOUR_PROJECT/YOUR_REPO/accelplan-py:0.1.0",
    )(plan_and_emit_job_spec)

or build a wheel once (`pip wheel --no-deps ./client/python`), host it where
the pipeline can fetch it, and name it by URL:

    plan_op = dsl.component(
        base_image="python:3.11",
        packages_to_install=[
            "accelplan @ https://YOUR_HOST/accelplan-0.1.0-py3-none-any.whl"],
    )(plan_and_emit_job_spec)

(pip then installs grpcio and protobuf from PyPI as its dependencies).

With `target="vertex"` (the default) the returned string is a Vertex AI
CustomJobSpec as JSON (`workerPoolSpecs`, `scheduling`), the file
`gcloud ai custom-jobs create --config` accepts; a plan that runs on GKE or
Compute Engine raises RuntimeError with the plan's reason. With
`target="any"` a GKE plan returns its JobSet manifest (YAML) instead.
It also runs from a shell:

    PYTHONPATH=build/python /usr/bin/python3 -m accelplan.pipeline_step \
        --server localhost:50051 --request examples/some_plan.json
"""

PLACEHOLDER_IMAGE = "us-docker.pkg.dev/YOUR_PROJECT/YOUR_REPO/trainer:latest"


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
    target: str = "vertex",
) -> str:
    """Plans the job on `server` and returns the job spec for where it runs.

    `request_json` is a PlanTrainingRequest in the protobuf JSON mapping;
    the other arguments, when set, override its fields (`framework` and
    `objective` by name, any case). `image_uri` replaces the placeholder
    training image (a Reduction Server pool keeps its reducer image).
    `target`: "vertex" returns the Vertex CustomJobSpec JSON and raises
    RuntimeError when the plan does not run on Vertex AI; "any" also
    returns a GKE plan's JobSet YAML.

    Raises RuntimeError when no plan is viable or the plan has no spec for
    `target` (so the pipeline stops before it launches),
    accelplan.InvalidRequestError for a bad request (naming the field), and
    grpc.RpcError (UNAVAILABLE, DEADLINE_EXCEEDED) when the server cannot
    answer.
    """
    import json

    from accelplan import Client, job_spec

    if target not in ("vertex", "any"):
        raise ValueError("target must be 'vertex' or 'any', got %r" % target)
    request = json.loads(request_json) if request_json else {}
    workload = request.setdefault("workload", {})
    goal = request.setdefault("goal", {})
    if framework:
        workload["framework"] = framework
    if parameter_count:
        workload["parameterCount"] = parameter_count
    if objective:
        goal["objective"] = objective
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

    spec = job_spec(response)
    if spec is None or spec.kind is None:
        where = spec.run_platform if spec else "an edge device"
        raise RuntimeError("the plan runs on %s, which has no job spec: %s" %
                           (where, (spec.note if spec else "") or "see the plan"))
    if spec.kind == "gke_jobset":
        if target != "any":
            raise RuntimeError(
                "the plan runs on GKE, not Vertex AI serverless training "
                "(%s); pass target='any' for its JobSet manifest" %
                ("; ".join(spec.reasons) or "see the plan"))
        manifest = spec.spec
        if image_uri:
            manifest = manifest.replace(json.dumps(PLACEHOLDER_IMAGE),
                                        json.dumps(image_uri))
        return manifest

    config = spec.spec
    if image_uri:
        # The training pools get the caller's image; a Reduction Server pool
        # keeps the reducer image the plan chose.
        roles = [pool.role for pool in
                 response.recommendation.job_spec.vertex.worker_pool_specs]
        for index, pool in enumerate(config.get("workerPoolSpecs", [])):
            role = roles[index] if index < len(roles) else ""
            if pool and role.replace("-", "_") != "reduction_server":
                pool.setdefault("containerSpec", {})["imageUri"] = image_uri
    return json.dumps(config, indent=2, sort_keys=True)


def main(argv=None) -> int:
    import argparse
    import sys

    import grpc

    from accelplan import InvalidRequestError

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server", default="localhost:50051",
                        help="accelplan-server HOST:PORT (default: %(default)s)")
    parser.add_argument("--request", default="",
                        help="PlanTrainingRequest JSON file (default: none)")
    parser.add_argument("--image_uri", default="",
                        help="training container image (default: none)")
    parser.add_argument("--target", default="vertex", choices=("vertex", "any"),
                        help="vertex: the CustomJobSpec only; any: also a GKE "
                             "plan's JobSet (default: %(default)s)")
    args = parser.parse_args(argv)
    request_json = ""
    if args.request:
        with open(args.request, encoding="utf-8") as f:
            request_json = f.read()
    try:
        print(plan_and_emit_job_spec(args.server, request_json,
                                     image_uri=args.image_uri,
                                     target=args.target))
    except InvalidRequestError as e:
        print("invalid request: %s" % e, file=sys.stderr)
        return 2
    except RuntimeError as e:
        print(str(e), file=sys.stderr)
        return 1
    except grpc.RpcError as e:
        print("server unavailable: %s" % e.code().name, file=sys.stderr)
        return 3
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
