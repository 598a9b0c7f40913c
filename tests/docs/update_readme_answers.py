"""Rewrites the answers shown in README.md: every ```text block that follows
a `sh cli` block holding one command gets that command's output again (run
in-process from the repository root). Run it after the planner or the
catalog changes what an everyday question answers:

    /usr/bin/python3 tests/docs/update_readme_answers.py [BUILD_DIR]
"""

import os
import re
import subprocess
import sys

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
README = os.path.join(REPO, "README.md")


def command_of(block):
    lines = [l for l in block if l.strip() and not l.lstrip().startswith("#")]
    return re.sub(r"\s+", " ", " ".join(l.rstrip().rstrip("\\") for l in lines))


def main():
    build = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "build")
    with open(README, encoding="utf-8") as f:
        lines = f.read().split("\n")
    out, i, last_cli, changed = [], 0, None, 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("```sh cli") or line == "```text":
            end = lines.index("```", i + 1)
            body = lines[i + 1:end]
            if line.startswith("```sh cli"):
                last_cli = body
                out.extend(lines[i:end + 1])
            else:
                command = command_of(last_cli or [])
                if command.startswith("build/accelplan "):
                    command = re.sub(r"(?<![\w./-])build/", build + "/", command)
                    result = subprocess.run(["bash", "-c", command], cwd=REPO,
                                            capture_output=True, text=True)
                    body = result.stdout.rstrip("\n").split("\n")
                    changed += 1
                out.extend(["```text", *body, "```"])
                last_cli = None
            i = end + 1
            continue
        out.append(line)
        i += 1
    with open(README, "w", encoding="utf-8") as f:
        f.write("\n".join(out))
    print("README.md: %d answers rewritten" % changed)


if __name__ == "__main__":
    main()
