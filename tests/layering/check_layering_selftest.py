#!/usr/bin/env python3
"""Shows check_layering.py failing on a forbidden include and link, and
passing on clean input, so the layering test cannot pass vacuously."""
import pathlib
import subprocess
import sys
import tempfile

CHECK = sys.argv[1]


def run(depfile_text: str, links_text: str) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        root = pathlib.Path(tmp)
        (root / "engine.cc.o.d").write_text(depfile_text)
        (root / "links.txt").write_text(links_text)
        return subprocess.run([sys.executable, CHECK, str(root),
                               str(root / "links.txt")],
                              capture_output=True).returncode


CLEAN_DEP = ("engine.cc.o: ../../planner/engine.cc \\\n"
             " /usr/include/absl/strings/str_cat.h ../../catalog/catalog.h\n")
CLEAN_LINKS = "accelplan_planner:accelplan_catalog_types;absl::strings\n"

cases = {
    "clean": (run(CLEAN_DEP, CLEAN_LINKS), 0),
    "protobuf header": (run(CLEAN_DEP + " /usr/include/google/protobuf/message.h\n",
                            CLEAN_LINKS), 1),
    "generated proto header": (run(CLEAN_DEP + " gen/accelplan/v1/accelplan.pb.h\n",
                                   CLEAN_LINKS), 1),
    "grpcpp header": (run(CLEAN_DEP + " /usr/include/grpcpp/grpcpp.h\n",
                          CLEAN_LINKS), 1),
    "sqlite header": (run(CLEAN_DEP + " /usr/include/sqlite3.h\n", CLEAN_LINKS), 1),
    "prometheus header": (run(CLEAN_DEP + " /usr/include/prometheus/counter.h\n",
                              CLEAN_LINKS), 1),
    "grpc link": (run(CLEAN_DEP, CLEAN_LINKS + "accelplan_catalog_types:gRPC::grpc++\n"), 1),
    "sqlite link": (run(CLEAN_DEP, "accelplan_planner:SQLiteCpp\n"), 1),
}
failed = [name for name, (got, want) in cases.items() if got != want]
for name in failed:
    print(f"self-test case '{name}' gave the wrong verdict")
print(f"{len(cases) - len(failed)} passed, {len(failed)} failed")
sys.exit(1 if failed else 0)
