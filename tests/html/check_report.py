"""Renders `accelplan plan --output=html` reports in headless Chromium and
checks what a reader sees: the file is self-contained (no script, no
external asset), Chromium logs no console message while rendering it, every
viable option with a known time and cost is a point whose rendered position
follows its expected hours and cost (linear, from the origin), the deadline
and budget lines separate the points that meet them from those that do not,
and the recommended point carries the marker. Screenshots are saved for a
person to look at.

Usage: check_report.py --build BUILD_DIR --chromium PATH --out DIR
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from html.parser import HTMLParser

SCENARIOS = [
    # (name, plan flags)
    ("pretrain_week_budget",
     ["--params", "1B", "--tokens", "20B", "--deadline_hours", "168",
      "--budget_usd", "5000"]),
    ("lora_by_tomorrow",
     ["--framework", "pytorch", "--params", "8B", "--method", "lora",
      "--tokens", "2e8", "--deadline_hours", "24"]),
    ("no_dataset_size", ["--framework", "pytorch", "--params", "7B"]),
]

PROBE = """<script>
for (const el of document.querySelectorAll(
    '.point, #recommended-marker circle, #deadline, #budget, .axis')) {
  const r = el.getBoundingClientRect();
  el.setAttribute('data-rx', (r.left + r.width / 2).toFixed(2));
  el.setAttribute('data-ry', (r.top + r.height / 2).toFixed(2));
  el.setAttribute('data-rleft', r.left.toFixed(2));
  el.setAttribute('data-rbottom', r.bottom.toFixed(2));
}
document.body.setAttribute('data-probed', 'yes');
</script>"""

CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu",
                  "--disable-background-networking",
                  "--disable-component-update", "--disable-sync",
                  "--no-first-run", "--hide-scrollbars",
                  "--virtual-time-budget=5000"]


class Failure(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Failure(message)


class Elements(HTMLParser):
    """Every element's tag, classes and attributes, in document order."""

    def __init__(self):
        super().__init__()
        self.elements = []

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        attributes["_tag"] = tag
        attributes["_classes"] = (attributes.get("class") or "").split()
        self.elements.append(attributes)

    handle_startendtag = handle_starttag


def parse(html):
    parser = Elements()
    parser.feed(html)
    return parser.elements


def chromium(args, binary, url):
    with tempfile.TemporaryDirectory() as profile:
        return subprocess.run(
            [binary, *CHROMIUM_FLAGS, "--user-data-dir=" + profile, *args, url],
            capture_output=True, text=True, timeout=120, check=False)


def console_messages(stderr):
    """Console messages Chromium logged (--enable-logging=stderr --v=0)."""
    return [line for line in stderr.splitlines()
            if ":CONSOLE" in line or "Uncaught" in line]


def run_cli(build, flags, output):
    result = subprocess.run(
        [os.path.join(build, "accelplan"), "plan", *flags,
         "--output=" + output, "--as_of=2026-10-01"],
        capture_output=True, text=True, timeout=120, check=False)
    check(result.returncode == 0, "accelplan plan %s exited %d: %s" % (
        " ".join(flags), result.returncode, result.stderr))
    return result.stdout


def check_self_contained(html):
    check("<script" not in html.lower(), "the report has a <script>")
    for pattern in (r"<link\b", r"\bsrc\s*=", r"url\(", r"@import"):
        check(not re.search(pattern, html, re.I),
              "the report loads an external asset (%s)" % pattern)
    check(html.count('<svg id="chart"') == 1, "not exactly one chart")


def known(value):
    return isinstance(value, (int, float)) and value > 0


def plotted_options(plan):
    """(hours, cost) of every option the chart must show, recommendation
    first; per billion tokens when the plan has no totals, per training step
    when it has no token throughput either."""
    rec = plan["recommendation"]
    options = [rec] + plan.get("alternatives", [])
    totals = known(rec["estimates"].get("totalHours", {}).get("expected"))
    per_token = known(rec["estimates"].get("tokensPerSecond"))
    out = []
    for option in options:
        e = option["estimates"]
        spot = option["hardware"].get("provisioning") == "SPOT"
        if totals:
            hours = e.get("totalHours", {}).get("expected")
            cost = e.get("spotCostUsd" if spot else "onDemandCostUsd",
                         {}).get("expected")
        elif per_token:
            tps, per_m = e.get("tokensPerSecond"), e.get(
                "costPerMillionTokensUsd")
            hours = 1e9 / tps / 3600 if known(tps) else None
            cost = per_m * 1000 if known(per_m) and e.get("priceKnown") else None
        else:  # per training step: a model not counted in tokens
            step, hourly = e.get("stepTimeSeconds"), e.get("hourlyUsd")
            hours = step / 3600 if known(step) else None
            cost = hourly * step / 3600 if known(step) and known(hourly) else None
        if known(hours) and known(cost):
            out.append((hours, cost))
    return out, totals


def close(a, b):
    return abs(a - b) <= 1e-6 * max(abs(a), abs(b), 1)


def check_positions(elements, plan):
    points = [e for e in elements if "point" in e["_classes"]]
    expected, totals = plotted_options(plan)
    check(len(points) == len(expected), "%d points, %d options to plot" % (
        len(points), len(expected)))
    for p in points:
        h, c = float(p["data-hours"]), float(p["data-cost"])
        check(any(close(h, eh) and close(c, ec) for eh, ec in expected),
              "point %s (%g h, $%g) is no option of the plan" % (
                  p["data-label"], h, c))
    xs = [(float(p["data-hours"]), float(p["data-rx"])) for p in points]
    ys = [(float(p["data-cost"]), float(p["data-ry"])) for p in points]
    axes = [e for e in elements if "axis" in e["_classes"]]
    origin_x = min(float(a["data-rleft"]) for a in axes)
    origin_y = max(float(a["data-rbottom"]) for a in axes)
    # Order: more hours further right, more cost higher up (smaller y).
    for values, sign, what in ((xs, 1, "hours"), (ys, -1, "cost")):
        for va, pa in values:
            for vb, pb in values:
                if va < vb * (1 - 1e-9):
                    check(sign * (pb - pa) > 0,
                          "points out of order by %s: %g at %.1f, %g at %.1f"
                          % (what, va, pa, vb, pb))
        # Proportional: position = origin + value * scale for one scale.
        # The scale comes from the largest value: a point next to the
        # origin has a position rounded to 0.01 px over a tiny distance, so
        # its own ratio is no reference.
        origin = origin_x if sign > 0 else origin_y
        v_ref, p_ref = max(values)
        scale = sign * (p_ref - origin) / v_ref
        for v, p in values:
            expected_at = origin + sign * v * scale
            check(abs(p - expected_at) <= 2.0,
                  "%s not proportional: %g at %.1f, expected at %.1f" % (
                      what, v, p, expected_at))
    return points, totals


def check_marker(elements, points, plan, totals, goals):
    recommended = [p for p in points if "recommended" in p["_classes"]]
    check(len(recommended) == 1, "%d recommended points" % len(recommended))
    rec = recommended[0]
    want = plotted_options(plan)[0][0]
    check(close(float(rec["data-hours"]), want[0]) and
          close(float(rec["data-cost"]), want[1]),
          "the recommended point is not the recommendation")
    machine = plan["recommendation"]["hardware"].get("machineType", "")
    check(machine in rec["data-label"], "recommended point is %s, plan %s" % (
        rec["data-label"], machine))
    marker = [e for e in elements if e["_tag"] == "circle" and
              "data-rx" in e and "point" not in e["_classes"]]
    check(len(marker) == 1, "no recommended marker")
    for axis in ("data-rx", "data-ry"):
        check(abs(float(marker[0][axis]) - float(rec[axis])) <= 1.0,
              "marker at %s=%s, recommended point at %s" % (
                  axis, marker[0][axis], rec[axis]))
    for line_id, value_key, pos, sign in (("deadline", "data-hours", "data-rx", 1),
                                          ("budget", "data-cost", "data-ry", -1)):
        lines = [e for e in elements if e.get("id") == line_id]
        if not totals:
            check(not lines, "%s line on a per-token chart" % line_id)
            continue
        goal = goals.get(line_id)
        if goal is None:
            check(not lines, "%s line without a %s" % (line_id, line_id))
            continue
        check(len(lines) == 1, "no %s line" % line_id)
        at = float(lines[0][pos])
        for p in points:
            inside = float(p[value_key]) <= goal
            check((sign * (float(p[pos]) - at) <= 0) == inside,
                  "%s on the wrong side of the %s line" % (p["data-label"], line_id))


def check_scenario(args, name, flags):
    goals = {}
    for flag, key in (("--deadline_hours", "deadline"), ("--budget_usd", "budget")):
        if flag in flags:
            goals[key] = float(flags[flags.index(flag) + 1])
    plan = json.loads(run_cli(args.build, flags, "json"))
    html = run_cli(args.build, flags, "html")
    check_self_contained(html)
    report = os.path.join(args.out, name + ".html")
    with open(report, "w", encoding="utf-8") as f:
        f.write(html)
    url = "file://" + report
    shot = os.path.join(args.out, name + ".png")
    result = chromium(["--screenshot=" + shot, "--window-size=1100,1600",
                       "--enable-logging=stderr", "--v=0"], args.chromium, url)
    check(os.path.exists(shot) and os.path.getsize(shot) > 10000,
          "no screenshot: " + result.stderr[-2000:])
    with open(shot, "rb") as f:
        check(f.read(8) == b"\x89PNG\r\n\x1a\n", "screenshot is not a PNG")
    check(not console_messages(result.stderr),
          "console messages: %s" % console_messages(result.stderr))
    probe = os.path.join(args.out, name + ".probe.html")
    with open(probe, "w", encoding="utf-8") as f:
        f.write(html.replace("</body>", PROBE + "</body>"))
    dom = chromium(["--dump-dom"], args.chromium, "file://" + probe)
    check('data-probed="yes"' in dom.stdout, "probe did not run: " +
          dom.stderr[-2000:])
    elements = parse(dom.stdout)
    points, totals = check_positions(elements, plan)
    check_marker(elements, points, plan, totals, goals)
    check_tampering_is_caught(elements, plan, totals, goals)
    return len(points)


def check_tampering_is_caught(elements, plan, totals, goals):
    """The position and marker checks fail on a chart drawn wrong: two
    points swapped, or the marker moved off the recommended point."""
    def fails(mutate, check_fn):
        copy = [dict(e) for e in elements]
        mutate(copy)
        try:
            check_fn(copy)
        except Failure:
            return True
        return False

    def swap(copy):
        points = [e for e in copy if "point" in e["_classes"]]
        a, b = points[0], points[-1]
        a["data-rx"], b["data-rx"] = b["data-rx"], a["data-rx"]

    def move_marker(copy):
        for e in copy:
            if e["_tag"] == "circle" and "data-rx" in e and \
                    "point" not in e["_classes"]:
                e["data-rx"] = str(float(e["data-rx"]) + 40)

    def positions_and_marker(copy):
        points, _ = check_positions(copy, plan)
        check_marker(copy, points, plan, totals, goals)

    points = [e for e in elements if "point" in e["_classes"]]
    if len(points) >= 2 and points[0]["data-hours"] != points[-1]["data-hours"]:
        check(fails(swap, positions_and_marker), "swapped points went unnoticed")
    check(fails(move_marker, positions_and_marker), "a moved marker went unnoticed")


def self_test(args):
    """The checks must catch what they look for: a console error, a script,
    an external asset."""
    page = os.path.join(args.out, "self_test.html")
    with open(page, "w", encoding="utf-8") as f:
        f.write("<!DOCTYPE html><html><body><script>console.error("
                "'deliberate')</script></body></html>")
    result = chromium(["--dump-dom", "--enable-logging=stderr", "--v=0"],
                      args.chromium, "file://" + page)
    check(console_messages(result.stderr),
          "a deliberate console.error went unnoticed; stderr: " +
          result.stderr[-2000:])
    for bad in ("<script>x()</script>", '<img src="https://example.com/a.png">',
                '<link rel="stylesheet" href="a.css">'):
        try:
            check_self_contained('<svg id="chart"></svg>' + bad)
        except Failure:
            continue
        raise Failure("check_self_contained accepted " + bad)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", required=True)
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    failures = 0
    try:
        self_test(args)
        print("ok   self-test: console errors, scripts and assets are caught")
    except Failure as e:
        print("FAIL self-test: %s" % e)
        failures += 1
    for name, flags in SCENARIOS:
        try:
            n = check_scenario(args, name, flags)
            print("ok   %s: %d points in order, marker on the recommendation; "
                  "screenshot %s" % (name, n,
                                     os.path.join(args.out, name + ".png")))
        except (Failure, subprocess.TimeoutExpired, ValueError, KeyError) as e:
            print("FAIL %s: %s" % (name, e))
            failures += 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
