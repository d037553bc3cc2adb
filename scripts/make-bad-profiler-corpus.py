#!/usr/bin/env python3
"""Writes the rocprofv3 JSON and XSpace (*.xplane.pb) entries of tests/data/bad (io/rocprof,
io/xspace). Run after scripts/make-bad-corpus.py, which clears the folder.

The protobuf wire format is encoded by hand (no protobuf module needed), so the corpus does not
depend on the reader it tests. XSpace field numbers (xplane.proto): XSpace{planes=1};
XPlane{id=1, name=2, lines=3, event_metadata=4 (map<int64, XEventMetadata>), stat_metadata=5};
XLine{id=1, name=2, timestamp_ns=3, events=4}; XEvent{metadata_id=1, offset_ps=2, duration_ps=3,
stats=4}; XStat{metadata_id=1, uint64_value=3}; XEventMetadata / XStatMetadata{id=1, name=2}.
err-* must fail with exit 2 (one line naming the file), ok-* must load.
"""
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "tests", "data", "bad")


def put(name, data):
    if isinstance(data, str):
        data = data.encode()
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(data)


def varint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        out.append(b | (0x80 if n else 0))
        if not n:
            return bytes(out)


def f_varint(field, n):
    return varint(field << 3) + varint(n)


def f_bytes(field, b):
    if isinstance(b, str):
        b = b.encode()
    return varint((field << 3) | 2) + varint(len(b)) + b


def metadata_entry(field, key, name):
    # A map entry: key = 1, value = 2 (the metadata message: id = 1, name = 2).
    return f_bytes(field, f_varint(1, key) + f_bytes(2, f_varint(1, key) + f_bytes(2, name)))


def event(meta, offset_ps, duration_ps, correlation=None):
    body = f_varint(1, meta) + f_varint(2, offset_ps) + f_varint(3, duration_ps)
    if correlation is not None:
        body += f_bytes(4, f_varint(1, 1) + f_varint(3, correlation))
    return f_bytes(4, body)


def line(line_id, name, timestamp_ns, events):
    return f_bytes(3, f_varint(1, line_id) + f_bytes(2, name) + f_varint(3, timestamp_ns) + b"".join(events))


def plane(name, lines, metadata):
    body = f_bytes(2, name) + b"".join(lines)
    body += b"".join(metadata_entry(4, k, v) for k, v in metadata.items())
    body += metadata_entry(5, 1, "correlation_id")
    return f_bytes(1, body)


def space(with_host=True):
    gpu = plane("/device:GPU:0", [line(7, "Stream #7(Kernel)", 1000000,
                                       [event(1, 100000000 * (k + 1), 50000000, 10 + k) for k in range(3)])],
                {1: "fusion_1"})
    if not with_host:
        return gpu
    host = plane("/host:CPU", [line(42, "python3", 1000000,
                                    [event(1, 10000000 * (k + 1), 5000000, 10 + k) for k in range(3)])],
                 {1: "cuLaunchKernel"})
    return gpu + host


good = space()
put("ok-xspace-minimal.xplane.pb", good)
put("ok-xspace-gpu-only.xplane.pb", space(with_host=False))
for cut in [3, len(good) // 3, len(good) - 5]:
    put("err-xspace-truncated-%03d.xplane.pb" % cut, good[:cut])
put("err-xspace-empty.xplane.pb", b"")
put("err-xspace-no-gpu-plane.xplane.pb", plane("/host:CPU", [], {}))
put("err-xspace-tpu-only.xplane.pb", plane("/device:TPU:0", [], {}))
# A plane whose length says more than the file holds, and bytes after a valid plane that are no field.
put("err-xspace-length-lies.xplane.pb", b"\x0a\xff\xff\x03" + good[4:])
put("err-xspace-trailing-garbage.xplane.pb", good + b"\xff\xff\xff\xff")
put("err-xspace-garbage.xplane.pb", bytes((i * 73 + 11) % 256 for i in range(600)))


def rocprof(process):
    return json.dumps({"rocprofiler-sdk-tool": [process]})


def process(hip=True):
    ops = {"kind": "HIP_RUNTIME_API", "operations": ["hipApiName", "hipLaunchKernel"]}
    strings = {"buffer_records": [{"kind": "NONE", "operations": []}, ops,
                                  {"kind": "KERNEL_DISPATCH", "operations": ["NONE", "ENQUEUE", "COMPLETE"]}]}
    dispatch = [{"kind": 2, "operation": 2, "thread_id": 7, "correlation_id": {"internal": c, "external": 0},
                 "start_timestamp": 1000 + 100 * c, "end_timestamp": 1050 + 100 * c,
                 "dispatch_info": {"agent_id": {"handle": 11}, "queue_id": {"handle": 1}, "kernel_id": 1,
                                   "workgroup_size": {"x": 64, "y": 1, "z": 1},
                                   "grid_size": {"x": 640, "y": 1, "z": 1}}} for c in range(1, 4)]
    calls = [{"kind": 1, "operation": 1, "thread_id": 7, "correlation_id": {"internal": c, "external": 0},
              "start_timestamp": 900 + 100 * c, "end_timestamp": 920 + 100 * c} for c in range(1, 4)]
    return {"metadata": {"pid": 7},
            "agents": [{"id": {"handle": 10}, "type": 1}, {"id": {"handle": 11}, "type": 2, "logical_node_type_id": 0}],
            "strings": strings,
            "kernel_symbols": [{"kernel_id": 1, "formatted_kernel_name": "k"}],
            "buffer_records": {"kernel_dispatch": dispatch, "hip_api": calls if hip else []}}


text = rocprof(process())
put("ok-rocprof-hip-trace.json", text)
put("ok-rocprof-gpu-only.json", rocprof(process(hip=False)))
put("err-rocprof-truncated.json", text[: len(text) // 2])
put("err-rocprof-root-object.json", '{"rocprofiler-sdk-tool": {}}')
put("err-rocprof-no-processes.json", '{"rocprofiler-sdk-tool": []}')
p = process()
del p["buffer_records"]
put("err-rocprof-no-buffer-records.json", rocprof(p))
p = process()
p["buffer_records"]["kernel_dispatch"][0]["end_timestamp"] = 1
put("err-rocprof-ends-before-start.json", rocprof(p))
p = process()
p["buffer_records"]["kernel_dispatch"][1]["dispatch_info"]["agent_id"] = {"handle": 99}
put("err-rocprof-unknown-agent.json", rocprof(p))
p = process()
p["buffer_records"]["kernel_dispatch"][2]["start_timestamp"] = 2 ** 64 - 1
put("err-rocprof-timestamp-overflow.json", rocprof(p))
p = process()
p["buffer_records"]["kernel_dispatch"] = {"not": "an array"}
put("rocprof-dispatch-not-array.json", rocprof(p))
print("wrote the rocprof and XSpace entries to %s" % os.path.relpath(OUT, ROOT))
