#!/usr/bin/env python3
"""Fails when the planner depends on a transport or storage library.

Debian installs every third-party header in /usr/include, so include paths
cannot keep planner/ free of gRPC, protobuf, SQLite and prometheus-cpp. This
check reads what the compiler actually opened for each planner object (its
depfile, transitive) and what the planner target and the catalog types it
links name as link libraries (written by CMake at generate time).

usage: check_layering.py OBJECT_DIR LINK_LIBRARIES_FILE
"""
import pathlib
import re
import sys

# Path fragments of the forbidden headers, as they appear under /usr/include.
FORBIDDEN_HEADERS = re.compile(
    r"(/grpc/|/grpcpp/|/grpc\+\+/|/google/protobuf/|sqlite3\.h|/SQLiteCpp/|"
    r"/prometheus/|\.pb\.h\b)")
# Library names that must not appear among the planner's link libraries.
FORBIDDEN_LIBRARIES = re.compile(
    r"(grpc|protobuf|sqlite|SQLiteCpp|prometheus|accelplan_proto)",
    re.IGNORECASE)


def forbidden_includes(object_dir: pathlib.Path) -> list:
    depfiles = sorted(object_dir.glob("*.o.d"))
    if not depfiles:
        sys.exit(f"no depfiles in {object_dir}: build accelplan_planner first")
    found = []
    for depfile in depfiles:
        for path in depfile.read_text().replace("\\\n", " ").split():
            if FORBIDDEN_HEADERS.search(path):
                found.append(f"{depfile.name}: {path}")
    return found


def forbidden_links(link_file: pathlib.Path) -> list:
    found = []
    for line in link_file.read_text().splitlines():
        target, _, libraries = line.partition(":")
        for library in libraries.split(";"):
            if library and FORBIDDEN_LIBRARIES.search(library):
                found.append(f"{target} links {library}")
    return found


def main() -> int:
    object_dir, link_file = map(pathlib.Path, sys.argv[1:3])
    problems = forbidden_includes(object_dir) + forbidden_links(link_file)
    for problem in problems:
        print(f"layering violation: {problem}")
    if problems:
        return 1
    print(f"planner is free of gRPC, protobuf, SQLite and prometheus "
          f"({len(list(object_dir.glob('*.o.d')))} objects checked)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
