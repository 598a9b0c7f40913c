"""The `accelplan` binary end to end: in-process over the built catalog.db,
the exit-code contract, and every request file in examples/."""

import glob
import json
import os
import shutil
import subprocess

import pytest

BUILD = os.environ["ACCELPLAN_BUILD_DIR"]
CLI = os.path.join(BUILD, "accelplan")
CATALOG = os.path.join(BUILD, "catalog.db")
EXAMPLES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                        "examples")


def run(*args, timeout=120):
    return subprocess.run([CLI, *args], capture_output=True, text=True,
                          timeout=timeout, check=False)


def run_json(*args):
    result = run(*args)
    try:
        body = json.loads(result.stdout)
    except ValueError:
        pytest.fail("not JSON (exit %d): %r\nstderr: %s" %
                    (result.returncode, result.stdout[:500], result.stderr))
    return result, body


def test_catalog_lists_every_machine_type_with_sources():
    result, body = run_json("catalog", "--catalog", CATALOG)
    assert result.returncode == 0, result.stderr
    assert body["catalogVersion"]
    machine_types = [a["machineType"] for a in body["accelerators"]]
    assert machine_types, "empty catalog"
    assert len(machine_types) == len(set(machine_types)), "duplicate entries"
    platforms = {a.get("platform") for a in body["accelerators"]}
    assert {"GPU", "TPU", "CPU"} <= platforms
    assert all(a.get("sourceIds") for a in body["accelerators"])


def test_catalog_defaults_to_the_catalog_beside_the_binary():
    _, explicit = run_json("catalog", "--catalog", CATALOG)
    result, default = run_json("catalog")
    assert result.returncode == 0, result.stderr
    assert default == explicit


def test_catalog_falls_back_to_the_installed_layout(tmp_path):
    # <prefix>/bin/accelplan finds <prefix>/share/accelplan/catalog.db.
    (tmp_path / "bin").mkdir()
    (tmp_path / "share" / "accelplan").mkdir(parents=True)
    installed = tmp_path / "bin" / "accelplan"
    shutil.copy2(CLI, installed)
    result = subprocess.run([str(installed), "catalog"], capture_output=True,
                            text=True, timeout=120, check=False)
    assert result.returncode == 2  # no catalog anywhere yet
    assert "catalog.db" in result.stderr
    shutil.copy2(CATALOG, tmp_path / "share" / "accelplan" / "catalog.db")
    result = subprocess.run([str(installed), "catalog"], capture_output=True,
                            text=True, timeout=120, check=False)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["accelerators"]


def test_catalog_platform_filter():
    result, body = run_json("catalog", "--catalog", CATALOG, "--platform=tpu")
    assert result.returncode == 0, result.stderr
    assert body["accelerators"]
    assert {a["platform"] for a in body["accelerators"]} == {"TPU"}


def test_plan_from_flags_prints_json_and_follows_the_exit_contract():
    result, body = run_json("plan", "--catalog", CATALOG, "--framework=jax",
                            "--params=7e9")
    assert result.returncode in (0, 1), result.stderr
    assert body["catalogVersion"]
    if result.returncode == 0:
        assert "recommendation" in body
    else:
        assert "recommendation" not in body
        assert body.get("noPlanReason")


def test_plan_basic_view_drops_rejections():
    result, body = run_json("plan", "--catalog", CATALOG, "--framework=jax",
                            "--params=7e9", "--view=basic")
    assert result.returncode in (0, 1), result.stderr
    assert "rejected" not in body
    assert "alternatives" not in body


def test_plan_table_output_summarises_the_plan():
    result = run("plan", "--catalog", CATALOG, "--framework=pytorch",
                 "--params=7B", "--output=table")
    assert result.returncode in (0, 1), result.stderr
    first = result.stdout.splitlines()[0]
    assert first.startswith("RECOMMENDED:" if result.returncode == 0
                            else "NO VIABLE PLAN:")
    assert "Catalog " in result.stdout


def test_plan_with_nothing_viable_exits_one():
    # fp64 throughout rules out every TPU (SPEC §4), and only TPUs are allowed.
    result, body = run_json("plan", "--catalog", CATALOG, "--framework=jax",
                            "--params=7e9", "--precision=fp64_required",
                            "--platform=tpu")
    assert result.returncode == 1, result.stderr
    assert "recommendation" not in body
    assert any("PRECISION_UNSUPPORTED" in r.get("codes", [])
               for r in body.get("rejected", []))


@pytest.mark.parametrize("args", [
    ["plan", "--framework=caffe"],
    ["plan", "--params=lots"],
    ["plan", "--no_such_flag"],
    ["plan", "--output=xml"],
    ["plan", "--params=-5", "--framework=jax"],
    ["frobnicate"],
    ["catalog", "--catalog", "/nonexistent/catalog.db"],
])
def test_bad_input_exits_two(args):
    if "--catalog" not in args and args[0] != "frobnicate":
        args = args + ["--catalog", CATALOG]
    result = run(*args)
    assert result.returncode == 2, (result.stdout, result.stderr)
    assert result.stderr.strip()


def test_invalid_json_request_exits_two(tmp_path):
    broken = tmp_path / "broken.json"
    broken.write_text('{"workload": {"framework": ')
    result = run("plan", "--catalog", CATALOG, "--request", str(broken))
    assert result.returncode == 2
    unknown = tmp_path / "unknown.json"
    unknown.write_text('{"workload": {"framework": "NOT_A_FRAMEWORK"}}')
    assert run("plan", "--catalog", CATALOG,
               "--request", str(unknown)).returncode == 2
    missing = tmp_path / "missing.json"
    assert run("plan", "--catalog", CATALOG,
               "--request", str(missing)).returncode == 2


def test_request_file_accepts_proto_and_camel_case_names(tmp_path):
    request = tmp_path / "plan.json"
    request.write_text(json.dumps({
        "workload": {"framework": "JAX", "parameter_count": 7e9,
                     "trainingMethod": "LORA"},
        "goal": {"objective": "MIN_COST"}}))
    result, body = run_json("plan", "--catalog", CATALOG,
                            "--request", str(request))
    assert result.returncode in (0, 1), result.stderr
    assert body["catalogVersion"]


def test_unreachable_server_exits_three():
    result = run("catalog", "--server", "127.0.0.1:1", "--timeout_seconds=10")
    assert result.returncode == 3, result.stderr
    assert result.stdout == ""
    result = run("plan", "--server", "127.0.0.1:1", "--framework=jax",
                 "--params=7e9", "--timeout_seconds=10")
    assert result.returncode == 3, result.stderr


def test_every_subcommand_help_lists_its_flags_with_defaults():
    for command in ("plan", "review", "catalog"):
        result = run(command, "--help")
        assert result.returncode == 0
        for flag in ("--server", "--catalog", "--request", "--output"):
            assert flag in result.stdout, (command, flag)
        assert "default:" in result.stdout


def example_files():
    return sorted(glob.glob(os.path.join(EXAMPLES, "*.json")))


@pytest.mark.skipif(not example_files(), reason="examples/ holds no JSON yet")
@pytest.mark.parametrize("path", example_files(), ids=os.path.basename)
def test_every_example_replays_in_process(path):
    name = os.path.basename(path)
    if "review" in name:
        command = "review"
    elif "catalog" in name:
        command = "catalog"
    else:
        command = "plan"
    result, body = run_json(command, "--catalog", CATALOG, "--request", path)
    allowed = (0, 1) if command == "plan" else (0,)
    assert result.returncode in allowed, result.stderr
    assert body["catalogVersion"]
