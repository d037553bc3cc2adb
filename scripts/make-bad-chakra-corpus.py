#!/usr/bin/env python3
"""Writes the Chakra (.et) entries of tests/data/bad (docs/Chakra.md, "Bad input").

The protobuf wire format is encoded by hand here (no protobuf module needed), so the corpus does
not depend on the reader it tests. Field numbers: GlobalMetadata{version=1, attr=2};
Node{id=1, name=2, type=3, ctrl_deps=4, data_deps=5, start_time_micros=6, duration_micros=7,
inputs=8, outputs=9, attr=10}; AttributeProto{name=1, int64_val=9, uint64_val=13, bool_val=27}.
err-* must fail with exit 2 (one line naming the file and the node), ok-* must load.
"""
import os
import sys

COMP, COMM_COLL = 4, 7


def varint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        out.append(b | (0x80 if n else 0))
        if not n:
            return bytes(out)


def key(field, wire):
    return varint((field << 3) | wire)


def f_varint(field, n):
    return key(field, 0) + varint(n)


def f_bytes(field, b):
    if isinstance(b, str):
        b = b.encode()
    return key(field, 2) + varint(len(b)) + b


def attr_int(name, v):
    return f_bytes(10, f_bytes(1, name) + f_varint(9, v))


def attr_u64(name, v):
    return f_bytes(10, f_bytes(1, name) + f_varint(13, v))


def node(nid, name, typ, data=(), ctrl=(), dur=None, extra=b""):
    b = f_varint(1, nid) + f_bytes(2, name) + f_varint(3, typ)
    if ctrl:
        b += f_bytes(4, b"".join(varint(d) for d in ctrl))
    if data:
        b += f_bytes(5, b"".join(varint(d) for d in data))
    if dur is not None:
        b += f_varint(7, dur)
    return b + extra


def delimited(msgs):
    return b"".join(varint(len(m)) + m for m in msgs)


META = f_bytes(1, "0.0.4")


def graph(*nodes):
    return delimited([META] + list(nodes))


def main(out_dir):
    ok = graph(
        node(1, "embedding", COMP, dur=10),
        node(2, "matmul", COMP, data=[1], dur=20),
        node(3, "all_reduce", COMM_COLL, data=[2], extra=attr_int("comm_type", 0) + attr_int("comm_size", 4096)),
    )
    files = {
        "ok-chakra-small.et": ok,
        "err-chakra-empty.et": b"",
        "err-chakra-truncated.et": ok[:-3],
        "err-chakra-bad-length-prefix.et": delimited([META]) + b"\xff" * 11,
        "err-chakra-corrupt-node.et": delimited([META, node(1, "a", COMP, dur=1), b"\x0f\xff\xff\x07"]),
        "err-chakra-missing-dep.et": graph(node(1, "a", COMP, dur=1), node(2, "b", COMP, data=[99], dur=1)),
        "err-chakra-cycle.et": graph(
            node(1, "a", COMP, data=[3], dur=1), node(2, "b", COMP, data=[1], dur=1), node(3, "c", COMP, data=[2], dur=1)
        ),
        "err-chakra-self-dep.et": graph(node(5, "a", COMP, data=[5], dur=1)),
        "err-chakra-duplicate-id.et": graph(node(7, "a", COMP, dur=1), node(7, "b", COMP, dur=1)),
        "err-chakra-comm-size-overflow.et": graph(
            node(4, "ar", COMM_COLL, extra=attr_int("comm_type", 0) + attr_u64("comm_size", (1 << 63) + 5))
        ),
        "err-chakra-comm-size-huge.et": graph(
            node(4, "ar", COMM_COLL, extra=attr_int("comm_type", 0) + attr_int("comm_size", 1 << 60))
        ),
        "err-chakra-duration-overflow.et": graph(node(6, "k", COMP, dur=(1 << 62))),
        "err-chakra-bad-comm-type.et": graph(
            node(8, "x", COMM_COLL, extra=attr_int("comm_type", 42) + attr_int("comm_size", 8))
        ),
        "err-chakra-bad-node-type.et": graph(node(9, "x", 77, dur=1)),
    }
    for name, data in files.items():
        with open(os.path.join(out_dir, name), "wb") as f:
            f.write(data)
    print(f"wrote {len(files)} files to {out_dir}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "tests", "data", "bad"))
