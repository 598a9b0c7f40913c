"""Build hook for the accelplan Python package (metadata: pyproject.toml).

The generated modules (accelplan/v1/accelplan_pb2*.py and
accelplan/google/rpc/*_pb2.py) are not in git. This build makes them the
same way the CMake target accelplan_python does, with protoc and
grpc_python_plugin over the repository's proto/ folder, into
build/accelplan-generated/ beside this file (never into the source tree).

  ACCELPLAN_PROTO_DIR      the proto/ folder (default: ../../proto)
  ACCELPLAN_PYTHON_STUBS   an already generated package root to copy from
                           instead (e.g. the CMake tree's build/python);
                           used when protoc is not installed
"""

import os
import shutil
import subprocess

from setuptools import setup

HERE = os.path.dirname(os.path.abspath(__file__))
PROTO_DIR = os.environ.get("ACCELPLAN_PROTO_DIR",
                           os.path.join(HERE, "..", "..", "proto"))
GEN_ROOT = os.path.join(HERE, "build", "accelplan-generated")
GENERATED = ["accelplan/v1/accelplan_pb2.py", "accelplan/v1/accelplan_pb2.pyi",
             "accelplan/v1/accelplan_pb2_grpc.py",
             "accelplan/google/rpc/status_pb2.py",
             "accelplan/google/rpc/error_details_pb2.py"]


def generate():
    if os.path.isdir(GEN_ROOT):
        shutil.rmtree(GEN_ROOT)
    pkg = os.path.join(GEN_ROOT, "accelplan")
    os.makedirs(os.path.join(pkg, "v1"))
    os.makedirs(os.path.join(pkg, "google", "rpc"))
    stubs = os.environ.get("ACCELPLAN_PYTHON_STUBS")
    protoc = shutil.which("protoc")
    plugin = shutil.which("grpc_python_plugin")
    if stubs:
        for rel in GENERATED:
            shutil.copyfile(os.path.join(stubs, rel), os.path.join(GEN_ROOT, rel))
    elif protoc and plugin:
        subprocess.check_call([
            protoc, "--proto_path=" + PROTO_DIR, "--python_out=" + GEN_ROOT,
            "--pyi_out=" + GEN_ROOT, "--grpc_out=" + GEN_ROOT, "--plugin=protoc-gen-grpc=" + plugin,
            "accelplan/v1/accelplan.proto"])
        # google/rpc/* inside accelplan/, so no top-level `google` package
        # shadows google.protobuf.
        subprocess.check_call([
            protoc, "--proto_path=" + PROTO_DIR, "--python_out=" + pkg,
            "google/rpc/status.proto", "google/rpc/error_details.proto"])
    else:
        raise SystemExit(
            "accelplan: need protoc and grpc_python_plugin (Debian: "
            "protobuf-compiler protobuf-compiler-grpc) or "
            "ACCELPLAN_PYTHON_STUBS=<build>/python to build the package")
    for rel in GENERATED:
        if not os.path.isfile(os.path.join(GEN_ROOT, rel)):
            raise SystemExit("accelplan: %s was not generated" % rel)
    for sub in ("v1", "google", os.path.join("google", "rpc")):
        open(os.path.join(pkg, sub, "__init__.py"), "a").close()


# Only builds need the stubs (not e.g. `setup.py --version`).
generate()

setup(
    packages=["accelplan", "accelplan.v1", "accelplan.google",
              "accelplan.google.rpc"],
    package_dir={
        "accelplan": "accelplan",
        "accelplan.v1": os.path.relpath(os.path.join(GEN_ROOT, "accelplan", "v1"), HERE),
        "accelplan.google": os.path.relpath(os.path.join(GEN_ROOT, "accelplan", "google"), HERE),
        "accelplan.google.rpc": os.path.relpath(
            os.path.join(GEN_ROOT, "accelplan", "google", "rpc"), HERE),
    },
    package_data={"accelplan": ["py.typed"], "accelplan.v1": ["*.pyi"]},
    include_package_data=False,
)
