#!/usr/bin/env python3
"""Prints docs/planner.md's calibration tables from the calibration test.

Runs the built calibration_test (or reads its saved stdout) and joins the
rows it prints with tests/planner/calibration/runs.csv for the inputs and
the source link:

  scripts/calibration/calibration_table.py build/tests/planner/calibration_test
  scripts/calibration/calibration_table.py --stdout saved_output.txt

Paste the output over the tables of docs/planner.md §14.
"""
import csv
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
RUNS = ROOT / "tests/planner/calibration/runs.csv"


def short(text, n):
    text = text.split(" (")[0] if len(text) > n else text
    return text if len(text) <= n else text[: n - 1] + "…"


def inputs(r):
    weights = (f", {r['weight_dtype']} weights" if r.get("weight_dtype")
               else "")
    return (f"{r['device_count']} × {short(r['hardware'], 22)}, {r['model']}, "
            f"{short(r['precision'], 10)}{weights}, "
            f"{short(r['framework'], 22)}, "
            f"recompute {r['recompute'] or 'unstated'}")


def main(argv):
    if len(argv) == 3 and argv[1] == "--stdout":
        out = pathlib.Path(argv[2]).read_text()
    elif len(argv) == 2:
        test = pathlib.Path(argv[1]).resolve()  # run from its own directory
        out = subprocess.run([str(test)], capture_output=True, text=True,
                             cwd=test.parent).stdout
    else:
        sys.exit(__doc__)
    runs = {r["id"]: r for r in csv.DictReader(RUNS.open())}
    time_rows, memory_rows, summary = {}, {}, []
    for line in out.splitlines():
        if line.startswith(("test half", "fit half", "memory rows")):
            summary.append(line)
        if not line.startswith("| "):
            continue
        cells = [c.strip() for c in line.strip("|").split("|")]
        (memory_rows if cells[0].startswith("M") else time_rows)[cells[0]] = cells
    for line in summary:
        print(f"<!-- {line} -->")
    print("| id | half | inputs | published (source) | published step s | "
          "accelplan low / expected / high s | ratio | | layout chosen |")
    print("|---|---|---|---|---:|---:|---:|---|---|")
    order = sorted(time_rows, key=lambda i: (time_rows[i][1] != "test", i[0] != "T", i))
    for i in order:
        _, half, pub, low, exp, high, ratio, inside, *rest = time_rows[i]
        r = runs[i]
        print(f"| {i} | {half} | {inputs(r)} | [{r['measured_metric']} "
              f"{r['measured_value']}]({r['url']}) | {pub} | {low} / {exp} / "
              f"{high} | {ratio} | {inside} | {rest[0] if rest else ''} |")
    print()
    print("| id | half | inputs | published (source) | accelplan | ratio | | "
          "layout chosen |")
    print("|---|---|---|---|---:|---:|---|---|")
    for i in sorted(memory_rows):
        _, half, pub, model, ratio, inside, layout = memory_rows[i]
        r = runs[i]
        print(f"| {i} | {half} | {inputs(r)}, micro-batch {r['micro_batch']} "
              f"| [{pub}]({r['url']}) | {model} | {ratio} | {inside} | "
              f"{layout} |")


if __name__ == "__main__":
    main(sys.argv)
