#!/usr/bin/python3
"""Turns accelplan_planner_bench JSON output into the Markdown table of
docs/performance.md.

Usage: bench/planner_bench_table.py RESULT.json
(RESULT.json from --benchmark_out=RESULT.json --benchmark_out_format=json)
"""
import json
import sys


def main(path):
    with open(path) as f:
        data = json.load(f)
    rows = {}
    order = []
    for b in data["benchmarks"]:
        if b.get("run_type") != "aggregate":
            continue
        name = b["run_name"]
        if name not in rows:
            rows[name] = {}
            order.append(name)
        rows[name][b["aggregate_name"]] = b
    unit_scale = {"ns": 1e-3, "us": 1.0, "ms": 1e3, "s": 1e6}
    print("| benchmark | wall median | CPU median | CPU p99 (reps) | "
          "per-call p50 | per-call p99 | preemptions per 1k calls | "
          "response bytes |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for name in order:
        med = rows[name].get("median")
        p99 = rows[name].get("p99")
        if med is None or p99 is None:
            continue
        scale = unit_scale[med["time_unit"]]
        size = med.get("response_bytes")
        print("| {} | {:.1f} | {:.1f} | {:.1f} | {:.1f} | {:.1f} | {:.1f} | {} |"
              .format(name, med["real_time"] * scale, med["cpu_time"] * scale,
                      p99["cpu_time"] * scale, med["call_p50_us"],
                      med["call_p99_us"], med["preempt_per_1k"],
                      "" if size is None else int(size)))

if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
