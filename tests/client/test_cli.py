"""The `accelplan` binary end to end: in-process over the built catalog.db,
the exit-code contract, and every request file in examples/."""

import glob
import json
import os
import re
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


def test_a_stated_sliding_window_reaches_the_planner(tmp_path):
    # The request's window and global layers cross the API into the
    # attention count, and the plan says what it counted.
    shape = {"layers": 48, "hiddenSize": 3840, "attentionHeads": 16,
             "headDim": 256, "sequenceLength": 32768}
    def assumptions(extra):
        request = tmp_path / "window.json"
        request.write_text(json.dumps({
            "workload": {"framework": "JAX", "parameterCount": 1.2e10,
                         "datasetTokens": 1e11,
                         "transformerShape": {**shape, **extra}}}))
        result, body = run_json("plan", "--catalog", CATALOG,
                                "--request", str(request))
        assert result.returncode == 0, result.stderr
        return " ".join(body.get("assumptions", []))
    said = assumptions({"slidingWindow": 1024, "globalAttentionEvery": 6})
    assert "40 of 48 layers attend within 1024 positions" in said, said
    assert "Sliding-window" not in assumptions({})


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


# ------------------------------------------------------------ one screen

EVERYDAY = [
    ["--framework", "pytorch", "--params", "8B", "--method", "lora",
     "--tokens", "2e8", "--deadline_hours", "24"],
    ["--params", "1B", "--tokens", "20B", "--deadline_hours", "168",
     "--budget_usd", "5000"],
    ["--framework", "pytorch", "--params", "7B", "--current", "a3-highgpu-8g",
     "--nodes", "4", "--symptom", "gradient_sync_bound"],
    ["--framework", "tensorflow", "--framework_version", "2.12", "--params",
     "2B", "--hardware", "tpu"],
    ["--framework", "xgboost", "--dataset_gib", "50"],
    ["--framework", "jax", "--params", "7e12", "--single_host"],  # no plan
]


def plan_table(*flags):
    return run("plan", "--catalog", CATALOG, *flags, "--output=table")


@pytest.mark.parametrize("flags", EVERYDAY, ids=lambda f: " ".join(f[:4]))
def test_plan_table_fits_one_screen(flags):
    result = plan_table(*flags)
    assert result.returncode in (0, 1), result.stderr
    lines = result.stdout.rstrip("\n").split("\n")
    assert len(lines) <= 30, result.stdout
    assert all(len(line) <= 120 for line in lines), result.stdout
    for unknown in (r"\$0 ", r"\b0\.0 GiB", r"step: 0 s", r"\binf\b",
                    r"\bnan\b", r"\de\+\d"):
        assert not re.search(unknown, result.stdout), (unknown, result.stdout)
    if result.returncode == 0:
        assert lines[0].startswith("RECOMMENDED: ")
        assert lines[-1].startswith(("  gcloud ai custom-jobs create --region=",
                                     "  kubectl apply -f ",
                                     "  gcloud compute instances "))
    else:
        assert lines[0].startswith("NO VIABLE PLAN: ")
        assert "gcloud" not in result.stdout


def test_first_line_has_total_time_cost_and_the_deadline():
    result = plan_table(*EVERYDAY[0])
    first = result.stdout.split("\n")[0]
    assert re.search(r"— [\d.]+ (min|h|days), \$[\d,.]+k?;", first), first
    assert "meets the 24 h deadline" in first, first
    # Without a dataset size the deadline cannot be checked, and says so.
    first = plan_table("--framework", "pytorch", "--params", "8B",
                       "--deadline_hours", "24").stdout.split("\n")[0]
    assert "deadline not checked: no dataset size — give --tokens" in first


def test_done_when_command_answers_on_one_screen():
    """The issue's "done when": a preset model by name, flags only."""
    result = run("plan", "--catalog", CATALOG, "--model", "llama-3.1-8b",
                 "--method", "lora", "--tokens", "2e8", "--deadline_hours",
                 "24", "--output=table")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.rstrip("\n").split("\n")
    assert len(lines) <= 30 and all(len(l) <= 120 for l in lines)
    assert re.search(r"— [\d.]+ (min|h), \$[\d,.]+;", lines[0]), lines[0]
    assert lines[-1].startswith(("  gcloud ai custom-jobs create", "  kubectl apply"))
    # The preset gave the size: the plan states it and needs a real device.
    assert "8.03e+09" not in result.stdout  # human units, never e-notation


@pytest.mark.parametrize("flag,positive", [
    ("--epochs=0", "2"), ("--deadline_hours=0", "48"),
    ("--budget_usd=0", "50000"), ("--batch=0", "256")])
def test_a_stated_zero_is_bad_input_naming_the_flag(flag, positive):
    # 0 is the API's "not given": planned silently as if the flag were left
    # out, it would answer another question than the one asked.
    base = ("plan", "--catalog", CATALOG, "--model", "llama-3.1-8b",
            "--tokens", "1e9")
    result = run(*base, flag)
    assert result.returncode == 2, (result.stdout, result.stderr)
    assert flag.split("=")[0] in result.stderr
    assert run(*base, flag.replace("=0", "=" + positive)).returncode == 0


def test_unknown_model_preset_is_bad_input_with_close_matches():
    result = run("plan", "--catalog", CATALOG, "--model", "lama-3.1-8b")
    assert result.returncode == 2
    assert "workload.model_name" in result.stderr
    assert "llama-3.1-8b" in result.stderr


def test_catalog_models_lists_the_presets():
    result = run("catalog", "--catalog", CATALOG, "--models", "--output=table")
    assert result.returncode == 0, result.stderr
    assert "llama-3.1-8b" in result.stdout and "mixtral-8x7b" in result.stdout
    # Gemma's heads are wider than hidden/heads (3584/16 = 224): the
    # table shows the preset's own head_dim.
    header, *rows = result.stdout.splitlines()
    assert "HEAD_DIM" in header.split()
    gemma = next(r for r in rows if r.startswith("gemma-2-9b "))
    assert "256" in gemma.split(), gemma
    # Its sliding window, and which layers attend globally; none for Llama.
    assert "4096; 1 in 2 layers global" in gemma, gemma
    llama = next(r for r in rows if r.startswith("llama-3.1-8b "))
    assert "global" not in llama and "every layer" not in llama, llama


def test_verbose_keeps_every_figure_and_rejection():
    full = plan_table(*EVERYDAY[0], "--verbose").stdout
    _, body = run_json("plan", "--catalog", CATALOG, *EVERYDAY[0])
    assert "memory/device:" in full and "Rejected (" in full
    for rejection in body["rejected"]:
        assert rejection["reason"] in full
    assert len(full.split("\n")) > 30


def test_emit_writes_the_spec_the_launch_command_names(tmp_path):
    _, body = run_json("plan", "--catalog", CATALOG, *EVERYDAY[1])
    vertex = tmp_path / "job.json"
    result = plan_table(*EVERYDAY[1], "--emit", "vertex", str(vertex))
    assert result.returncode == 0, result.stderr
    spec = body["recommendation"]["jobSpec"]
    assert json.loads(vertex.read_text()) == json.loads(
        spec["vertex"]["configJson"])
    assert result.stdout.rstrip().endswith("--config=%s" % vertex)
    gke = tmp_path / "jobset.yaml"
    result = run("plan", "--catalog", CATALOG, *EVERYDAY[1], "--emit", "gke",
                 str(gke))  # JSON output: the file is written all the same
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["recommendation"]
    assert gke.read_text().strip() == spec["gke"]["manifestYaml"].strip()
    result = plan_table(*EVERYDAY[1], "--emit", "gke", str(gke))
    assert result.stdout.rstrip().endswith("kubectl apply -f %s" % gke)
    bad = run("plan", "--catalog", CATALOG, *EVERYDAY[1], "--emit", "vertex",
              str(tmp_path / "missing" / "dir" / "job.json"))
    assert bad.returncode == 2 and "cannot write" in bad.stderr


def test_html_report_is_one_self_contained_file():
    result = run("plan", "--catalog", CATALOG, *EVERYDAY[1], "--output=html")
    assert result.returncode == 0, result.stderr
    html = result.stdout
    assert html.startswith("<!DOCTYPE html>")
    assert "<script" not in html and " src=" not in html and "<link" not in html
    assert html.count("<svg") == 1 and 'class="point recommended"' in html
    assert run("review", "--catalog", CATALOG, "--propose", "series:G4",
               "--output=html").returncode == 2


def test_review_from_flags_matches_the_json_example():
    _, from_file = run_json("review", "--catalog", CATALOG, "--request",
                            os.path.join(EXAMPLES,
                                         "s4_lora_single_host_gpu_review.json"))
    result, from_flags = run_json(
        "review", "--catalog", CATALOG, "--framework=pytorch",
        "--model_kind=dense_transformer", "--params=27B", "--method=lora",
        "--precision=bf16_mixed", "--objective=min_cost", "--single_host",
        "--hardware=gpu", "--run_on=compute_engine",
        "--propose=series:A4,platform=gpu",
        "--propose=series:A3 Ultra,platform=gpu",
        "--propose=series:N1,platform=gpu", "--propose=series:G4,platform=gpu")
    assert result.returncode == 0, result.stderr
    verdicts = lambda body: [(v["label"], v["verdict"], v.get("codes"))
                             for v in body["verdicts"]]
    assert verdicts(from_flags) == verdicts(from_file)


@pytest.mark.parametrize("args", [
    ["plan", "--platform=vertex,gke", "--params=7B"],
    ["plan", "--run_on=gke", "--platform=vertex", "--params=7B"],
    ["plan", "--hardware=vertex", "--params=7B"],
    ["plan", "--params=7B", "--emit", "yaml", "x"],
    ["review", "--propose=warp:9"],
    ["review", "--framework=jax"],  # no proposal at all
])
def test_conflicting_or_bad_job_flags_exit_two(args):
    result = run(*args, "--catalog", CATALOG)
    assert result.returncode == 2, (result.stdout, result.stderr)
    assert result.stderr.count("error") == 1, result.stderr  # printed once


def test_both_binaries_print_their_version_and_the_catalogs():
    _, catalog = run_json("catalog", "--catalog", CATALOG)
    cli = run("--version")
    assert cli.returncode == 0, cli.stderr
    assert re.match(r"accelplan \d+\.\d+\.\d+\n", cli.stdout), cli.stdout
    assert catalog["catalogVersion"] in cli.stdout
    server = subprocess.run([os.path.join(BUILD, "accelplan-server"),
                             "--version", "--catalog", CATALOG],
                            capture_output=True, text=True, timeout=60)
    assert server.returncode == 0, server.stderr
    assert re.match(r"accelplan-server \d+\.\d+\.\d+\n", server.stdout)
    assert catalog["catalogVersion"] in server.stdout
    assert cli.stdout.split()[1] == server.stdout.split()[1]  # one version


def test_server_help_lists_its_flags_without_build_paths():
    result = subprocess.run([os.path.join(BUILD, "accelplan-server"), "--help"],
                            capture_output=True, text=True, timeout=60)
    text = result.stdout + result.stderr
    for flag in ("--listen", "--catalog", "--version", "--help",
                 "--max_receive_message_bytes"):
        assert flag in text, flag
    assert ".cc" not in text and os.path.abspath(BUILD) not in text, text
