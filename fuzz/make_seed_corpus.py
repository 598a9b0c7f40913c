#!/usr/bin/python3
"""Writes the libFuzzer seed corpus for accelplan_fuzz_plan_request.

usage: make_seed_corpus.py DESCRIPTOR_SET EXAMPLES_DIR OUT_DIR

Each examples/*_plan.json and *_review.json becomes two inputs in the
fuzzer's format (first byte: bit 0 = review, bit 1 = JSON): the JSON as is
and the same request as binary protobuf, so both decoders start from valid
requests. DESCRIPTOR_SET comes from `protoc --include_imports -o`.
"""
import pathlib
import sys

from google.protobuf import descriptor_pb2, descriptor_pool, json_format
from google.protobuf import message_factory


def main(descriptor_set, examples_dir, out_dir):
    files = descriptor_pb2.FileDescriptorSet()
    files.ParseFromString(pathlib.Path(descriptor_set).read_bytes())
    pool = descriptor_pool.DescriptorPool()
    for file in files.file:
        pool.Add(file)
    factory = message_factory.MessageFactory(pool)
    kinds = {
        "_plan.json": (0, "accelplan.v1.PlanTrainingRequest"),
        "_review.json": (1, "accelplan.v1.ReviewPlanRequest"),
    }
    out = pathlib.Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    count = 0
    for path in sorted(pathlib.Path(examples_dir).glob("*.json")):
        for suffix, (review_bit, name) in kinds.items():
            if not path.name.endswith(suffix):
                continue
            text = path.read_bytes()
            message = factory.GetPrototype(pool.FindMessageTypeByName(name))()
            json_format.Parse(text, message)
            stem = path.name[: -len(".json")]
            (out / f"{stem}.json.in").write_bytes(bytes([review_bit | 2]) + text)
            (out / f"{stem}.bin.in").write_bytes(
                bytes([review_bit]) + message.SerializeToString())
            count += 2
    if count == 0:
        sys.exit(f"make_seed_corpus.py: no *_plan.json/*_review.json in {examples_dir}")
    print(f"make_seed_corpus.py: {count} seeds in {out_dir}")


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    main(*sys.argv[1:])
