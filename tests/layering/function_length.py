#!/usr/bin/env python3
"""Fails when a free function in planner/*.cc is longer than the limit.

The planner is meant to be readable one function at a time (STYLE.md: stages
readable in one sitting; the project's limit is about 80 lines a function).
This check holds the line at 90 so a function cannot quietly grow back.

A function is a definition whose signature starts at column 0 and whose body
closes with a "}" at column 0 (Google style does not indent namespaces).
Its length runs from the line with the opening brace to the closing brace,
both included. Lambdas and member functions defined inside a class body are
indented, so they are not counted.

Functions that are known to be too long and are waiting to be split are
named in the allowlist, one "path:Function" a line ("#" starts a comment);
they are reported but do not fail the check.

usage: function_length.py PLANNER_DIR [ALLOWLIST] [--max=N]
"""
import pathlib
import re
import sys

MAX_LINES = 90

# Column-0 statements that open a brace but are not function bodies.
NOT_A_FUNCTION = re.compile(
    r"^(namespace\b|class\b|struct\b|union\b|enum\b|extern\b|using\b|"
    r"typedef\b|template\s*<[^>]*>\s*(class|struct)\b)")
CLOSING_BRACE = re.compile(r"^}\s*(//.*)?$")
FUNCTION_NAME = re.compile(r"([A-Za-z_~][A-Za-z0-9_:~]*|operator\S+)\s*\($")


def strip_comment(line: str) -> str:
    return line.split("//", 1)[0].rstrip()


def function_name(header: str) -> str:
    before_paren = header.split("(", 1)[0] + "("
    match = FUNCTION_NAME.search(before_paren)
    return match.group(1).split("::")[-1] if match else header.strip()


def functions(path: pathlib.Path):
    """Yields (name, first_line, length) for each column-0 function."""
    lines = path.read_text().splitlines()
    header, header_start = None, 0
    i = 0
    while i < len(lines):
        line = lines[i]
        code = strip_comment(line)
        starts_at_col0 = bool(code) and not code[0].isspace()
        if header is None and starts_at_col0 and not code.startswith(
                ("#", "}", "/*", "*")):
            header, header_start = "", i
        if header is not None:
            header += " " + code.strip()
            if code.endswith(";") or code.endswith("}") or code.endswith("};"):
                header = None
            elif code.endswith("{"):
                text = header.strip()
                is_function = ("(" in text and not NOT_A_FUNCTION.match(text)
                               and "=" not in text.split("(", 1)[0])
                header = None
                if is_function:
                    end = i + 1
                    while end < len(lines) and not CLOSING_BRACE.match(
                            lines[end]):
                        end += 1
                    yield function_name(text), header_start + 1, end - i + 1
                    i = end
        i += 1


def read_allowlist(path) -> set:
    if path is None:
        return set()
    entries = set()
    for line in pathlib.Path(path).read_text().splitlines():
        entry = line.split("#", 1)[0].strip()
        if entry:
            entries.add(entry)
    return entries


def main() -> int:
    args = [a for a in sys.argv[1:] if not a.startswith("--max=")]
    limit = MAX_LINES
    for a in sys.argv[1:]:
        if a.startswith("--max="):
            limit = int(a.split("=", 1)[1])
    planner_dir = pathlib.Path(args[0])
    allowlist = read_allowlist(args[1] if len(args) > 1 else None)
    too_long, allowed, seen = [], [], set()
    for source in sorted(planner_dir.glob("*.cc")):
        key_prefix = f"{planner_dir.name}/{source.name}"
        for name, line, length in functions(source):
            key = f"{key_prefix}:{name}"
            seen.add(key)
            if length <= limit:
                if key in allowlist:
                    print(f"note: allowlisted {key} is {length} lines, within "
                          f"the limit; remove it from the allowlist")
                continue
            report = f"{key_prefix}:{line}: {name} is {length} lines (> {limit})"
            (allowed if key in allowlist else too_long).append(report)
    for report in allowed:
        print(f"allowlisted, to be split: {report}")
    for entry in sorted(allowlist - seen):
        print(f"note: allowlist entry {entry} names no function; remove it")
    for report in too_long:
        print(f"function too long: {report}")
    if too_long:
        print(f"{len(too_long)} function(s) over {limit} lines; split them "
              f"into named helpers")
        return 1
    print(f"every planner function is at most {limit} lines "
          f"({len(allowed)} allowlisted)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
