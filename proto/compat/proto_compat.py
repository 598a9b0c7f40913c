#!/usr/bin/env python3
"""Checks that proto/ changed only additively against a baseline.

Compares two FileDescriptorSets (protoc --descriptor_set_out
--include_imports): the committed baseline and the current protos. Fails on
a removed or renumbered field, a field whose type changed, a removed or
renumbered enum value, a removed message, enum, service or RPC, or an RPC
whose request or response type changed. New fields, values, messages and
RPCs are fine; so is making a proto3 field `optional` (same wire format).

usage:
  proto_compat.py check BASELINE CURRENT     (descriptor sets, binary or text)
  proto_compat.py text DESCRIPTOR_SET OUT    (write the text form, to commit)
"""
import sys

from google.protobuf import descriptor_pb2, text_format


def load(path):
    data = open(path, "rb").read()
    fds = descriptor_pb2.FileDescriptorSet()
    try:
        fds.ParseFromString(data)
        if fds.file:
            return fds
    except Exception:  # not binary: the committed text form
        pass
    fds = descriptor_pb2.FileDescriptorSet()
    text_format.Parse(data.decode("utf-8"), fds)
    return fds


def index(fds):
    messages, enums, services = {}, {}, {}

    def walk_message(prefix, m):
        name = f"{prefix}.{m.name}"
        messages[name] = m
        for nested in m.nested_type:
            walk_message(name, nested)
        for e in m.enum_type:
            enums[f"{name}.{e.name}"] = e

    for f in fds.file:
        prefix = f".{f.package}" if f.package else ""
        for m in f.message_type:
            walk_message(prefix, m)
        for e in f.enum_type:
            enums[f"{prefix}.{e.name}"] = e
        for s in f.service:
            services[f"{prefix}.{s.name}"] = s
    return messages, enums, services


def field_type(f):
    return (f.type, f.type_name, f.label == f.LABEL_REPEATED)


def compare(old, new):
    problems = []
    old_m, old_e, old_s = index(old)
    new_m, new_e, new_s = index(new)
    for name, m in old_m.items():
        if m.options.map_entry:
            continue
        if name not in new_m:
            problems.append(f"message {name} removed")
            continue
        new_fields = {f.number: f for f in new_m[name].field}
        new_names = {f.name: f for f in new_m[name].field}
        for f in m.field:
            g = new_fields.get(f.number)
            if g is None:
                moved = new_names.get(f.name)
                where = f" (now number {moved.number})" if moved else ""
                problems.append(f"field {name}.{f.name} = {f.number} removed{where}")
            elif g.name != f.name:
                problems.append(f"field {name} number {f.number} renamed "
                                f"{f.name} -> {g.name}")
            elif field_type(g) != field_type(f):
                problems.append(f"field {name}.{f.name} changed type")
    for name, e in old_e.items():
        if name not in new_e:
            problems.append(f"enum {name} removed")
            continue
        new_values = {v.name: v.number for v in new_e[name].value}
        for v in e.value:
            if v.name not in new_values:
                problems.append(f"enum value {name}.{v.name} = {v.number} removed")
            elif new_values[v.name] != v.number:
                problems.append(f"enum value {name}.{v.name} renumbered "
                                f"{v.number} -> {new_values[v.name]}")
    for name, s in old_s.items():
        if name not in new_s:
            problems.append(f"service {name} removed")
            continue
        new_rpcs = {r.name: r for r in new_s[name].method}
        for r in s.method:
            g = new_rpcs.get(r.name)
            if g is None:
                problems.append(f"rpc {name}/{r.name} removed")
            elif (g.input_type, g.output_type) != (r.input_type, r.output_type):
                problems.append(f"rpc {name}/{r.name} changed its types")
    return problems


def main(argv):
    if len(argv) == 4 and argv[1] == "text":
        open(argv[3], "w").write(text_format.MessageToString(load(argv[2])))
        return 0
    if len(argv) != 4 or argv[1] != "check":
        print(__doc__)
        return 2
    problems = compare(load(argv[2]), load(argv[3]))
    for p in problems:
        print(f"incompatible: {p}")
    if problems:
        print(f"{len(problems)} incompatible change(s) against {argv[2]}")
        return 1
    print(f"proto compatible with {argv[2]}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
