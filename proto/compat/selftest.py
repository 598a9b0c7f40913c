#!/usr/bin/env python3
"""Shows proto_compat.py rejecting each kind of breaking change (made to a
copy of the current descriptor set) and accepting an additive one."""
import copy
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import proto_compat  # noqa: E402

current = proto_compat.load(sys.argv[1])


def api_file(fds):
    return next(f for f in fds.file if f.name == "accelplan/v1/accelplan.proto")


def message(fds, name):
    return next(m for m in api_file(fds).message_type if m.name == name)


def enum(fds, name):
    return next(e for e in api_file(fds).enum_type if e.name == name)


def mutated(change):
    fds = copy.deepcopy(current)
    change(fds)
    return proto_compat.compare(current, fds)


def remove_field(fds):
    m = message(fds, "Workload")
    del m.field[[f.name for f in m.field].index("parameter_count")]


def renumber_field(fds):
    next(f for f in message(fds, "Goal").field
         if f.name == "budget_usd").number = 99


def retype_field(fds):
    f = next(f for f in message(fds, "Goal").field if f.name == "budget_usd")
    f.type = f.TYPE_STRING


def remove_enum_value(fds):
    e = enum(fds, "ReasonCode")
    del e.value[[v.name for v in e.value].index("HBM_TOO_SMALL")]


def renumber_enum_value(fds):
    next(v for v in enum(fds, "ReasonCode").value
         if v.name == "CHEAPER").number = 370


def remove_rpc(fds):
    del api_file(fds).service[0].method[1]


def add_field(fds):
    m = message(fds, "Goal")
    f = m.field.add()
    f.CopyFrom(m.field[0])
    f.name, f.number, f.json_name = "new_field", 4242, "newField"


cases = {
    "removed field": (remove_field, True),
    "renumbered field": (renumber_field, True),
    "retyped field": (retype_field, True),
    "removed enum value": (remove_enum_value, True),
    "renumbered enum value": (renumber_enum_value, True),
    "removed rpc": (remove_rpc, True),
    "added field": (add_field, False),
}
failed = []
for name, (change, breaking) in cases.items():
    if bool(mutated(change)) != breaking:
        failed.append(name)
        print(f"self-test: '{name}' judged wrongly")
if proto_compat.compare(current, current):
    failed.append("identical")
print(f"{len(cases) + 1 - len(failed)} passed, {len(failed)} failed")
sys.exit(1 if failed else 0)
