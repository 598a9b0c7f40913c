"""Executes the README's documented examples so the docs cannot rot.

Fenced blocks whose info string is `sh cli`, `python` or `sh grpcurl` are
examples. A real accelplan-server is started on free loopback ports; every
`sh cli` command runs from the repository root with `build/` and the
documented address rewritten to this build folder and port, and must exit 0
(or the code of a trailing `# exit N` comment) with JSON or table output.
Every `python` block runs under /usr/bin/python3 against the server. Every
`sh grpcurl` command is parsed like grpcurl would; its request (strict
protobuf JSON) is sent through the generated Python stubs. The same grpcurl
commands go through an independent reflection client in
tests/docs/grpcurl_examples.js (npm, run by .ci/run).
"""

import json
import os
import re
import shlex
import signal
import socket
import subprocess
import time

import grpc
import pytest
from google.protobuf import json_format

from accelplan.v1 import accelplan_pb2

BUILD = os.path.abspath(os.environ["ACCELPLAN_BUILD_DIR"])
REPO = os.path.abspath(os.environ.get(
    "ACCELPLAN_SOURCE_DIR",
    os.path.join(os.path.dirname(__file__), os.pardir, os.pardir)))
README = os.path.join(REPO, "README.md")
SERVER = os.path.join(BUILD, "accelplan-server")
CATALOG = os.path.join(BUILD, "catalog.db")
READINESS_SERVICE = "accelplan.v1.TrainingPlanner"
# The address every README example uses (both spellings).
DOC_ADDRESS = re.compile(r"\b(?:localhost|127\.0\.0\.1):50051\b")
EXIT_COMMENT = re.compile(r"#\s*exit\s+(\d+)\s*$")


def readme_blocks(info):
    """Bodies of the fenced blocks of README.md whose info string is `info`,
    as (first line number, text)."""
    blocks, body, start, current = [], [], 0, None
    with open(README, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            fence = re.match(r"^```\s*(.*?)\s*$", line)
            if current is None and fence:
                current, body, start = fence.group(1), [], number + 1
            elif current is not None and fence and not fence.group(1):
                if current == info:
                    blocks.append((start, "".join(body)))
                current = None
            elif current is not None:
                body.append(line)
    return blocks


# README line of a command -> {"expect": EXPR, "xfail": REASON} from the
# `# expect: EXPR` and `# xfail: REASON` comment lines just above it.
EXPECTATIONS = {}
META_COMMENT = re.compile(r"^\s*#\s*(expect|xfail):\s*(.+?)\s*$")


def shell_commands(info):
    """The commands of the `info` blocks, continuation lines joined, comment
    lines dropped, as (README line, command). `# expect:` and `# xfail:`
    lines go to EXPECTATIONS for the command that follows them."""
    commands = []
    for start, text in readme_blocks(info):
        pending, first, meta = "", None, {}
        for offset, line in enumerate(text.splitlines()):
            comment = META_COMMENT.match(line)
            if not pending and comment:
                meta[comment.group(1)] = comment.group(2)
                continue
            if not pending and (not line.strip() or
                                line.lstrip().startswith("#")):
                continue
            if meta and first is None:
                EXPECTATIONS[start + offset] = meta
                meta = {}
            if first is None:
                first = start + offset
            if line.rstrip().endswith("\\"):
                pending += line.rstrip()[:-1] + " "
                continue
            commands.append((first, re.sub(r"\s+", " ",
                                           pending + line).strip()))
            pending, first = "", None
        assert not pending, "README.md:%d: dangling line continuation" % first
    return commands


CLI_COMMANDS = shell_commands("sh cli")
GRPCURL_COMMANDS = shell_commands("sh grpcurl")
PYTHON_BLOCKS = readme_blocks("python")


def example_id(example):
    return "README.md:%d" % example[0]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def encode_health_request(service):
    # grpc.health.v1.HealthCheckRequest: field 1 (string) = service. Debian
    # ships no Python health stubs, so the two fields are encoded by hand.
    data = service.encode()
    assert len(data) < 128
    return b"\x0a" + bytes([len(data)]) + data


def decode_health_status(data):
    # HealthCheckResponse: field 1 (enum) = status; absent means UNKNOWN.
    return data[1] if len(data) >= 2 and data[0] == 0x08 else 0


def health_check(channel, service, timeout=2):
    check = channel.unary_unary(
        "/grpc.health.v1.Health/Check",
        request_serializer=encode_health_request,
        response_deserializer=decode_health_status)
    return check(service, timeout=timeout)


class ServerProcess:
    """A real accelplan-server on free loopback ports."""

    def __init__(self):
        self.process, self.target, self.log_path = None, None, None

    def start(self):
        for _ in range(3):  # A port taken between picking and binding: retry.
            port, metrics_port = free_port(), free_port()
            self.target = "127.0.0.1:%d" % port
            self.log_path = os.path.join(BUILD, "test_readme_examples.server.log")
            with open(self.log_path, "wb") as log:
                self.process = subprocess.Popen(
                    [SERVER, "--listen", self.target,
                     "--metrics_listen", "127.0.0.1:%d" % metrics_port,
                     "--catalog", CATALOG, "--drain_delay_seconds", "0"],
                    stdout=log, stderr=subprocess.STDOUT)
            if self.wait_serving():
                return
            self.stop()
        pytest.fail("accelplan-server never became SERVING:\n" + self.log_tail())

    def wait_serving(self):
        deadline = time.monotonic() + 60
        with grpc.insecure_channel(self.target) as channel:
            while time.monotonic() < deadline and self.alive():
                try:
                    if health_check(channel, READINESS_SERVICE) == 1:  # SERVING
                        return True
                except grpc.RpcError:
                    pass
                time.sleep(0.1)
        return False

    def alive(self):
        return self.process is not None and self.process.poll() is None

    def log_tail(self):
        with open(self.log_path, "rb") as f:
            return f.read().decode(errors="replace")[-2000:]

    def stop(self):
        if self.process is None:
            return
        if self.alive():
            self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.process = None


@pytest.fixture(scope="module")
def server_process():
    server = ServerProcess()
    server.start()
    yield server
    server.stop()


@pytest.fixture
def server(server_process):
    """HOST:PORT of a SERVING server. An example that crashes the server
    fails itself (not the examples after it, which get a fresh server)."""
    if not server_process.alive():
        server_process.start()
    yield server_process.target
    if not server_process.alive():
        pytest.fail("accelplan-server exited with %s during this example:\n%s"
                    % (server_process.process.returncode,
                       server_process.log_tail()))


def localise(text, target):
    """README paths and address -> this build folder and test server."""
    text = re.sub(r"(?<![\w./-])build/", BUILD + "/", text)
    return DOC_ADDRESS.sub(target, text)


def env_for_examples():
    env = dict(os.environ)
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def test_readme_documents_every_kind_of_example():
    """The markers are what makes the examples tested: losing one silently
    drops coverage, so the expected examples must be present."""
    cli = " ".join(c for _, c in CLI_COMMANDS)
    grpcurl = " ".join(c for _, c in GRPCURL_COMMANDS)
    python = " ".join(b for _, b in PYTHON_BLOCKS)
    in_process = [c for _, c in CLI_COMMANDS
                  if "build/accelplan " in c and "--server" not in c]
    remote = [c for _, c in CLI_COMMANDS if "--server" in c]
    assert in_process and remote, "need in-process and --server CLI examples"
    for needle in ["--output=table", "--framework=jax", "--params=7e9",
                   "--method=lora", "--objective=min_cost",
                   "--deadline_hours=48", "--request examples/", " review ",
                   " catalog ", "--help", "accelplan.pipeline_step"]:
        assert needle in cli, "no `sh cli` example uses %r" % needle
    for needle in [" list", " describe accelplan.v1.TrainingPlanner",
                   " describe accelplan.v1.", "-d @",
                   "TrainingPlanner/PlanTraining", "TrainingPlanner/ReviewPlan",
                   "TrainingPlanner/ListAccelerators",
                   "grpc.health.v1.Health/Check"]:
        assert needle in grpcurl, "no `sh grpcurl` example has %r" % needle
    described = [c for _, c in GRPCURL_COMMANDS if " describe " in c]
    assert any(not c.endswith("TrainingPlanner") for c in described), \
        "no grpcurl example describes a message"
    assert re.search(r"Client\(\s*\"[^\"]+\"\s*\)", python) and \
        ".plan(" in python, "no `python` example of Client(target).plan(...)"


def facts_of(document):
    """The names a README `# expect:` expression may use, from a plan or
    review response (JSON)."""
    rec = document.get("recommendation") or {}
    hardware, estimates = rec.get("hardware", {}), rec.get("estimates", {})
    spot = hardware.get("provisioning") == "SPOT"
    known = lambda v: v if isinstance(v, (int, float)) and v > 0 else None
    return {
        "viable": bool(rec),
        "hours": known(estimates.get("totalHours", {}).get("expected")),
        "cost": known(estimates.get("spotCostUsd" if spot else
                                    "onDemandCostUsd", {}).get("expected"))
                if estimates.get("priceKnown") else None,
        "platform": hardware.get("platform"),
        "series": hardware.get("series"),
        "machine": hardware.get("machineType"),
        "hosts": hardware.get("hosts", 0),
        "accelerators": hardware.get("totalAccelerators", 0),
        "run_on": hardware.get("runPlatform"),
        "remedies": [r.get("kind") for r in document.get("remedies", [])],
        "rejected_codes": {c for r in document.get("rejected", [])
                           for c in r.get("codes", [])},
        "warnings": [w.get("code") for w in document.get("warnings", [])],
        "verdicts": {v.get("label"): v.get("verdict")
                     for v in document.get("verdicts", [])},
    }


def check_expectation(command, expression, server, where):
    """Runs `command` for JSON and evaluates `expression` over its facts."""
    json_command = localise(command, server).replace("--output=table",
                                                     "--output=json")
    json_command = EXIT_COMMENT.sub("", json_command)
    result = subprocess.run(
        ["bash", "-c", json_command], cwd=REPO, env=env_for_examples(),
        capture_output=True, text=True, timeout=120)
    try:
        facts = facts_of(json.loads(result.stdout))
    except ValueError:
        pytest.fail("no JSON for the expectation: " + where + result.stderr)
    try:
        ok = eval(expression, {"__builtins__": {}}, facts)  # README text only
    except TypeError as e:  # e.g. an unknown (None) total compared
        ok, facts["error"] = False, str(e)
    shown = {k: v for k, v in facts.items() if k not in ("rejected_codes",)}
    assert ok, "expectation `%s` does not hold: %s\n%s" % (
        expression, shown, where)


def check_one_screen(out, where):
    lines = out.rstrip("\n").split("\n")
    assert len(lines) <= 30, "%d lines, not one screen: %s" % (len(lines), where)
    # The launch command (last line) is printed whole, never cut: it holds
    # the --emit path the user chose (here inside the build folder, whose
    # path CI chooses), so only the other lines must fit 120 columns.
    for text in lines[:-1]:
        assert len(text) <= 120, "line over 120 columns (%d): %s\n%s" % (
            len(text), text, where)


@pytest.mark.parametrize("example", CLI_COMMANDS, ids=example_id)
def test_cli_example(server, example, request):
    line, command = example
    meta = EXPECTATIONS.get(line, {})
    if "xfail" in meta:
        request.node.add_marker(pytest.mark.xfail(reason=meta["xfail"],
                                                  strict=False))
    match = EXIT_COMMENT.search(command)
    want = int(match.group(1)) if match else 0
    result = subprocess.run(
        ["bash", "-c", localise(command, server)], cwd=REPO,
        env=env_for_examples(), capture_output=True, text=True, timeout=120)
    where = "README.md:%d `%s`\nstdout:\n%s\nstderr:\n%s" % (
        line, command, result.stdout[-3000:], result.stderr[-3000:])
    assert result.returncode == want, "exit %d, documented %d: %s" % (
        result.returncode, want, where)
    out = result.stdout
    if "--help" in command.split():
        text = out + result.stderr
        assert "--output" in text and "default" in text.lower(), where
    elif want == 2:
        assert "error" in result.stderr.lower(), "bad input not explained: " + where
    elif "--output=table" in command:
        lines = [l for l in out.splitlines() if l.strip()]
        assert len(lines) >= 2, "table too short: " + where
        assert not out.lstrip().startswith(("{", "[")), "JSON, not a table: " + where
        if " plan " in command and "--verbose" not in command:
            check_one_screen(out, where)
    elif "--output=html" in command:
        local = localise(command, server)
        if ">" in local:  # `> build/plan.html`: read the file written
            with open(local.rsplit(">", 1)[1].strip(), encoding="utf-8") as f:
                out = f.read()
        assert out.startswith("<!DOCTYPE html>") and "<svg" in out, where
        assert "<script" not in out, "the report needs no script: " + where
    elif "--version" in command.split():
        assert re.match(r"accelplan(-server)? \d+\.\d+", out), where
        assert "catalog " in out, where
    else:
        try:
            document = json.loads(out)
        except ValueError as e:
            pytest.fail("output is not JSON (%s): %s" % (e, where))
        assert isinstance(document, dict) and document, where
        if re.search(r"accelplan (plan|review|catalog)\b", command):
            assert document.get("catalogVersion"), \
                "no catalogVersion in the response: " + where
    if "expect" in meta:
        check_expectation(command, meta["expect"], server, where)


def help_flags(command):
    result = subprocess.run(command, capture_output=True, text=True,
                            timeout=60, check=False)
    text = result.stdout + result.stderr
    return text, set(re.findall(r"^\s+(--[a-z_]+)", text, re.M))


def test_readme_documents_every_flag_of_both_binaries():
    """Every flag `--help` lists is in the README, and `--help` shows no
    build path."""
    with open(README, encoding="utf-8") as f:
        readme = f.read()
    cli = os.path.join(BUILD, "accelplan")
    for command in ([SERVER, "--help"], [cli, "plan", "--help"],
                    [cli, "review", "--help"], [cli, "catalog", "--help"]):
        text, flags = help_flags(command)
        assert len(flags) > 5, text
        for flag in flags:
            assert re.search(re.escape(flag) + r"\b", readme), \
                "%s (from %s) is not in README.md" % (flag, " ".join(command[1:]))
        assert ".cc" not in text and BUILD not in text and REPO not in text, \
            "a build path in " + " ".join(command)
    assert "--version" in help_flags([SERVER, "--help"])[0]


@pytest.mark.parametrize("example", PYTHON_BLOCKS, ids=example_id)
def test_python_example(server, example):
    line, code = example
    result = subprocess.run(
        ["/usr/bin/python3", "-c", localise(code, server)], cwd=REPO,
        env=env_for_examples(), capture_output=True, text=True, timeout=120)
    where = "README.md:%d\nstdout:\n%s\nstderr:\n%s" % (
        line, result.stdout[-3000:], result.stderr[-3000:])
    assert result.returncode == 0, where
    assert result.stdout.strip(), "printed nothing: " + where
    assert "Traceback" not in result.stderr, where


def parse_grpcurl(command):
    """grpcurl's command line -> dict(address, verb, symbol, data), where
    data is the request JSON text (from -d or `-d @ < file`) or None."""
    tokens = shlex.split(command)
    assert tokens and tokens[0] == "grpcurl", command
    args, data, stdin = [], None, None
    i = 1
    while i < len(tokens):
        token = tokens[i]
        if token == "<":
            stdin = tokens[i + 1]
            i += 2
            continue
        if token in ("-d", "-data"):
            data = tokens[i + 1]
            i += 2
            continue
        if token.startswith("-"):
            assert token == "-plaintext", "unsupported grpcurl flag " + token
            i += 1
            continue
        args.append(token)
        i += 1
    if data == "@":
        assert stdin, "`-d @` without `< FILE`: " + command
        with open(os.path.join(REPO, stdin), encoding="utf-8") as f:
            data = f.read()
    else:
        assert stdin is None, "stdin given without `-d @`: " + command
    assert len(args) >= 2, "no address and verb/method: " + command
    address, verb, rest = args[0], args[1], args[2:]
    assert DOC_ADDRESS.fullmatch(address), "unexpected address " + address
    if verb in ("list", "describe"):
        assert len(rest) <= 1 and data is None, command
        return dict(verb=verb, symbol=rest[0] if rest else None, data=None)
    assert "/" in verb and not rest, "not SERVICE/METHOD: " + command
    return dict(verb="call", symbol=verb, data=data if data is not None else "{}")


def find_symbol(name):
    pool = accelplan_pb2.DESCRIPTOR.pool
    for find in (pool.FindServiceByName, pool.FindMessageTypeByName,
                 pool.FindEnumTypeByName):
        try:
            return find(name)
        except KeyError:
            continue
    return None


@pytest.mark.parametrize("example", GRPCURL_COMMANDS, ids=example_id)
def test_grpcurl_example(server, example):
    """Parsing and semantics of each grpcurl example without npm; the
    reflection-based replay is tests/docs/grpcurl_examples.js."""
    line, command = example
    parsed = parse_grpcurl(command)
    where = "README.md:%d `%s`" % (line, command)
    if parsed["verb"] == "list":
        assert parsed["symbol"] is None or find_symbol(parsed["symbol"]), where
        return
    if parsed["verb"] == "describe":
        assert find_symbol(parsed["symbol"]) is not None, \
            "unknown symbol: " + where
        return
    service_name, method_name = parsed["symbol"].rsplit("/", 1)
    with grpc.insecure_channel(server) as channel:
        if service_name == "grpc.health.v1.Health":
            assert method_name == "Check", where
            request = json.loads(parsed["data"])
            assert set(request) <= {"service"}, where
            status = health_check(channel, request.get("service", ""),
                                  timeout=15)
            assert status == 1, "health status %d, want SERVING: %s" % (
                status, where)
            return
        service = find_symbol(service_name)
        assert service is not None, "unknown service: " + where
        method = service.methods_by_name.get(method_name)
        assert method is not None, "unknown method: " + where
        request_class = getattr(accelplan_pb2, method.input_type.name)
        response_class = getattr(accelplan_pb2, method.output_type.name)
        try:  # Strict like grpcurl: unknown fields and wrong types fail.
            request = json_format.Parse(parsed["data"], request_class())
        except json_format.ParseError as e:
            pytest.fail("request does not parse (%s): %s" % (e, where))
        call = channel.unary_unary(
            "/%s/%s" % (service_name, method_name),
            request_serializer=request_class.SerializeToString,
            response_deserializer=response_class.FromString)
        try:
            response = call(request, timeout=30)
        except grpc.RpcError as e:
            pytest.fail("%s: %s: %s" % (e.code(), e.details(), where))
        assert response.catalog_version, "no catalog_version: " + where
