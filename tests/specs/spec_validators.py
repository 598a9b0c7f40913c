"""Offline validators for the job specs accelplan emits (issue 19, item 2).

* JobSet manifests: the openAPIV3Schema of JobSet v1alpha2 from the CRD
  vendored beside this file (kubernetes-sigs/jobset release v0.12.0, URL and
  commit in its header), checked with python3-jsonschema. Unknown fields are
  errors (``strict``), as with ``kubectl apply --validate=strict``: a CRD
  schema leaves ``additionalProperties`` open and an API server would
  silently prune a misspelt field.
* Vertex AI configs: ``vertex_custom_job_spec.schema.json``, transcribed from
  the documented CustomJobSpec / WorkerPoolSpec / MachineSpec / Scheduling
  fields (URLs in its description).

Needs only Debian's python3-yaml and python3-jsonschema; no network.
"""

import copy
import functools
import json
import os

import jsonschema
import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
JOBSET_CRD = os.path.join(HERE, "jobset.x-k8s.io_jobsets.v0.12.0.yaml")
VERTEX_SCHEMA = os.path.join(HERE, "vertex_custom_job_spec.schema.json")

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def _close_objects(node):
    """additionalProperties: false on every object schema that lists its
    properties and does not opt into unknown fields."""
    if isinstance(node, dict):
        if (node.get("type") == "object" and "properties" in node and
                "additionalProperties" not in node and
                not node.get("x-kubernetes-preserve-unknown-fields")):
            node["additionalProperties"] = False
        for value in node.values():
            _close_objects(value)
    elif isinstance(node, list):
        for value in node:
            _close_objects(value)


@functools.lru_cache(maxsize=2)
def jobset_schema(strict=True):
    with open(JOBSET_CRD, encoding="utf-8") as f:
        crd = yaml.load(f, Loader=_Loader)
    assert crd["kind"] == "CustomResourceDefinition", crd["kind"]
    assert crd["spec"]["group"] == "jobset.x-k8s.io"
    version = next(v for v in crd["spec"]["versions"] if v["name"] == "v1alpha2")
    schema = copy.deepcopy(version["schema"]["openAPIV3Schema"])
    if strict:
        _close_objects(schema)
    return schema


@functools.lru_cache(maxsize=1)
def vertex_schema():
    with open(VERTEX_SCHEMA, encoding="utf-8") as f:
        return json.load(f)


def _errors(validator, instance):
    return sorted(
        "%s: %s" % ("/".join(str(p) for p in e.absolute_path) or "<root>",
                    e.message)
        for e in validator.iter_errors(instance))


@functools.lru_cache(maxsize=2)
def _jobset_validator(strict=True):
    schema = jobset_schema(strict)
    jsonschema.Draft7Validator.check_schema(schema)
    return jsonschema.Draft7Validator(schema)


@functools.lru_cache(maxsize=1)
def _vertex_validator():
    schema = vertex_schema()
    jsonschema.Draft7Validator.check_schema(schema)
    return jsonschema.Draft7Validator(schema)


def jobset_errors(manifest, strict=True):
    """Errors of one JobSet object (a dict), empty when it is valid."""
    errors = []
    if manifest.get("apiVersion") != "jobset.x-k8s.io/v1alpha2":
        errors.append("apiVersion: %r is not jobset.x-k8s.io/v1alpha2" %
                      manifest.get("apiVersion"))
    if manifest.get("kind") != "JobSet":
        errors.append("kind: %r is not JobSet" % manifest.get("kind"))
    name = (manifest.get("metadata") or {}).get("name")
    if not isinstance(name, str) or not name:
        errors.append("metadata/name: required")
    return errors + _errors(_jobset_validator(strict), manifest)


def jobset_yaml_errors(text, strict=True):
    """Parses a manifest (one or more YAML documents) and validates each."""
    try:
        docs = [d for d in yaml.load_all(text, Loader=_Loader) if d is not None]
    except yaml.YAMLError as e:
        return ["YAML: %s" % e]
    if not docs:
        return ["no YAML document"]
    errors = []
    for doc in docs:
        if not isinstance(doc, dict):
            errors.append("document is not a mapping")
            continue
        errors.extend(jobset_errors(doc, strict))
    return errors


def vertex_errors(config):
    """Errors of one CustomJobSpec (a dict or a JSON string)."""
    if isinstance(config, str):
        try:
            config = json.loads(config)
        except ValueError as e:
            return ["JSON: %s" % e]
    errors = _errors(_vertex_validator(), config)
    # Documented rules the schema cannot say: pool 0 is the chief, exactly
    # one replica; TPU jobs use a single pool with one replica.
    pools = config.get("workerPoolSpecs") if isinstance(config, dict) else None
    if isinstance(pools, list) and pools and isinstance(pools[0], dict):
        first = pools[0]
        if not first:
            errors.append("workerPoolSpecs/0: the primary pool cannot be skipped")
        elif str(first.get("replicaCount")) != "1":
            errors.append("workerPoolSpecs/0/replicaCount: the primary pool "
                          "has exactly one replica")
        if (first.get("machineSpec", {}).get("tpuTopology") and
                len(pools) != 1):
            errors.append("workerPoolSpecs: TPU jobs use a single pool")
    return errors


def main(argv):
    """python3 spec_validators.py (jobset|vertex) FILE...: exit 1 on errors."""
    kind, paths = argv[1], argv[2:]
    bad = 0
    for path in paths:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        errors = (jobset_yaml_errors(text) if kind == "jobset"
                  else vertex_errors(text))
        print(("ok %s" % path) if not errors else
              "FAIL %s\n  %s" % (path, "\n  ".join(errors)))
        bad += bool(errors)
    return 1 if bad else 0


if __name__ == "__main__":
    import sys
    raise SystemExit(main(sys.argv))
