#!/usr/bin/env python3
"""Shows function_length.py failing on a long function and passing on short
ones, lambdas, class members and allowlisted functions, so the function
length test cannot pass vacuously."""
import pathlib
import subprocess
import sys
import tempfile

CHECK = sys.argv[1]


def run(source: str, allowlist: str = "") -> int:
    with tempfile.TemporaryDirectory() as tmp:
        planner = pathlib.Path(tmp) / "planner"
        planner.mkdir()
        (planner / "stage.cc").write_text(source)
        (planner / "allow.txt").write_text(allowlist)
        return subprocess.run([sys.executable, CHECK, str(planner),
                               str(planner / "allow.txt")],
                              capture_output=True).returncode


def body(lines: int) -> str:
    return "".join(f"  x += {i};\n" for i in range(lines))


# A function of n lines: the brace line, n - 2 body lines, the closing brace.
def function(name: str, n: int, signature_lines: int = 1) -> str:
    head = f"int {name}(int a,\n" + "        int b,\n" * (signature_lines - 1)
    return head[:-2] + ") {\n" + body(n - 2) + "}\n"


def wrap(text: str) -> str:
    return f"namespace p {{\nnamespace {{\n{text}}}  // namespace\n}}  // namespace p\n"


cases = {
    "short functions": (run(wrap(function("A", 90) + function("B", 10))), 0),
    "91 lines": (run(wrap(function("Long", 91))), 1),
    "multi-line signature": (run(wrap(function("Long", 91, 3))), 1),
    "allowlisted": (run(wrap(function("Long", 91)),
                        "planner/stage.cc:Long  # to be split\n"), 0),
    "other function allowlisted": (run(wrap(function("Long", 91)),
                                       "planner/stage.cc:Other\n"), 1),
    "class member": (run(wrap("class C {\n public:\n  int F() {\n" + body(120)
                              + "  }\n};\n")), 0),
    "struct and table": (run(wrap("struct S {\n" + "  int x;\n" * 120 + "};\n"
                                  + "const int kT[] = {\n" + "    1,\n" * 120
                                  + "};\n")), 0),
    "lambda in short function": (run(wrap(
        "int F() {\n  auto f = [] {\n" + body(40) + "  };\n" + body(40)
        + "}\n")), 0),
}
failed = [name for name, (got, want) in cases.items() if got != want]
for name in failed:
    print(f"self-test case '{name}' gave the wrong verdict")
print(f"{len(cases) - len(failed)} passed, {len(failed)} failed")
sys.exit(1 if failed else 0)
