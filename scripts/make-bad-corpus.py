#!/usr/bin/env python3
"""Generates tests/data/bad/: hostile and odd inputs for the loader, the CLI and the simulator.

Deterministic (fixed seed), so re-running it gives the same files. Everything is synthetic: the
real traces in ../shared/traces are not copied into the repository (tests/cli/test_BadInputCorpus
truncates and corrupts those at test time instead).

Naming: err-*  must be refused (exit 2, one "error:" line);
        ok-*   must load (exit 0; warnings are fine);
        other  either, but never a crash or a hang.
A directory is passed as a rank set (sightline-cli info DIR). fuzz-* files come from the fuzzers
(tests/fuzz): crashers when found (none so far), and a sample of their corpus; this script keeps them.

usage: scripts/make-bad-corpus.py [OUT_DIR]   (default tests/data/bad)
"""
import gzip
import json
import os
import random
import shutil
import sys
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "tests", "data", "bad")
rng = random.Random(20240607)
written = []


def put(name, data):
    path = os.path.join(OUT, name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogatepass")
    with open(path, "wb") as f:
        f.write(data)
    written.append(path)


def gz(data):
    if isinstance(data, str):
        data = data.encode()
    return gzip.compress(data, compresslevel=9, mtime=0)


def dumps(obj):
    return json.dumps(obj, separators=(",", ":"))


# ---------------------------------------------------------------------------------------------
# A small but complete Kineto trace: CPU ops, runtime launches with flows, kernels on two
# streams, memcpy, cuda_sync, an NCCL all-reduce with metadata, M events, distributedInfo and
# deviceProperties.


def realistic(rank=0, world=2, base_us=1_700_000_000_000_000, kernels=6, with_meta=True, clock_ns=None,
              nccl_count=1, pg="0"):
    ev = []
    pid, tid = 1000 + rank, 1000 + rank
    ev.append({"ph": "M", "name": "process_name", "pid": pid, "tid": 0, "args": {"name": "python"}})
    ev.append({"ph": "M", "name": "thread_name", "pid": pid, "tid": tid, "args": {"name": "thread 1 (python)"}})
    ev.append({"ph": "M", "name": "process_name", "pid": rank, "tid": 0, "args": {"name": "GPU %d" % rank}})
    t = base_us
    ev.append({"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#3", "pid": pid, "tid": tid,
               "ts": t, "dur": 900.5})
    corr = 100
    for k in range(kernels):
        ts = t + 10 + k * 60
        ev.append({"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": pid, "tid": tid, "ts": ts, "dur": 40.25,
                   "args": {"External id": k + 1, "Input Dims": [[64, 64], [64, 64]]}})
        ev.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": pid, "tid": tid,
                   "ts": ts + 5, "dur": 7.125, "args": {"correlation": corr, "external id": k + 1}})
        ev.append({"ph": "s", "id": corr, "pid": pid, "tid": tid, "ts": ts + 5, "cat": "ac2g", "name": "ac2g"})
        ev.append({"ph": "X", "cat": "kernel", "name": "volta_sgemm_128x64_nn", "pid": rank, "tid": 7,
                   "ts": ts + 20, "dur": 30.001,
                   "args": {"queued": 0, "device": rank, "context": 1, "stream": 7, "correlation": corr,
                            "registers per thread": 126, "grid": [4, 2, 1], "block": [256, 1, 1]}})
        ev.append({"ph": "f", "id": corr, "pid": rank, "tid": 7, "ts": ts + 20, "cat": "ac2g", "name": "ac2g",
                   "bp": "e"})
        corr += 1
    t2 = t + 10 + kernels * 60
    ev.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaMemcpyAsync", "pid": pid, "tid": tid, "ts": t2,
               "dur": 5, "args": {"correlation": corr}})
    ev.append({"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy HtoD (Pageable -> Device)", "pid": rank,
               "tid": 24, "ts": t2 + 8, "dur": 3, "args": {"device": rank, "stream": 24, "correlation": corr,
                                                            "bytes": 4096}})
    corr += 1
    ev.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaEventRecord", "pid": pid, "tid": tid,
               "ts": t2 + 12, "dur": 2, "args": {"correlation": corr}})
    rec = corr
    corr += 1
    ev.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaStreamWaitEvent", "pid": pid, "tid": tid,
               "ts": t2 + 15, "dur": 2, "args": {"correlation": corr}})
    ev.append({"ph": "X", "cat": "cuda_sync", "name": "Stream Wait Event", "pid": rank, "tid": 84,
               "ts": t2 + 16, "dur": 0, "args": {"correlation": corr, "device": rank, "stream": 84,
                                                 "wait_on_stream": 7, "wait_on_cuda_event_record_corr_id": rec}})
    corr += 1
    for n in range(nccl_count):
        ts = t2 + 20 + n * 50
        meta = {"Collective name": "allreduce", "In msg nelems": 1048576, "Out msg nelems": 1048576,
                "Group size": world, "dtype": "Float", "Process Group Name": pg,
                "Process Group Ranks": "[" + ", ".join(str(r) for r in range(world)) + "]"}
        ev.append({"ph": "X", "cat": "cpu_op", "name": "record_param_comms", "pid": pid, "tid": tid, "ts": ts,
                   "dur": 12, "args": meta if with_meta else {}})
        ev.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernelExC", "pid": pid, "tid": tid,
                   "ts": ts + 2, "dur": 6, "args": {"correlation": corr}})
        kargs = {"device": rank, "stream": 84, "correlation": corr}
        if with_meta:
            kargs.update(meta)
        ev.append({"ph": "X", "cat": "kernel", "name": "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*)",
                   "pid": rank, "tid": 84, "ts": ts + 30, "dur": 45.5, "args": kargs})
        corr += 1
    ev.append({"ph": "i", "cat": "cpu_instant_event", "name": "[memory]", "pid": pid, "tid": tid, "ts": t2 + 5,
               "s": "t", "args": {"Bytes": 512}})
    doc = {"schemaVersion": 1,
           "deviceProperties": [{"id": rank, "name": "NVIDIA A100-SXM4-80GB", "totalGlobalMem": 85097971712,
                                 "computeMajor": 8, "computeMinor": 0, "maxThreadsPerBlock": 1024,
                                 "numSms": 108}],
           "distributedInfo": {"backend": "nccl", "rank": rank, "world_size": world,
                               "pg_count": 1, "pg_config": [{"pg_name": pg, "pg_desc": "default_pg",
                                                             "backend_config": "cuda:nccl",
                                                             "ranks": list(range(world))}]},
           "traceEvents": ev, "traceName": "rank%d.pt.trace.json" % rank, "displayTimeUnit": "ms"}
    if clock_ns is not None:
        doc["baseTimeNanoseconds"] = clock_ns
    return doc


def minimal(event_fields=None, extra_top=None, events=None):
    """One CPU op, one launch and one kernel; event_fields overrides fields of the kernel."""
    launch = {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 100,
              "dur": 5, "args": {"correlation": 7}}
    kernel = {"ph": "X", "cat": "kernel", "name": "gemm", "pid": 0, "tid": 7, "ts": 110, "dur": 20,
              "args": {"device": 0, "stream": 7, "correlation": 7}}
    if event_fields:
        for k, v in event_fields.items():
            if v is DELETE:
                kernel.pop(k, None)
            else:
                kernel[k] = v
    doc = {"schemaVersion": 1, "traceEvents": events if events is not None else [
        {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 99, "dur": 10}, launch, kernel]}
    if extra_top:
        doc.update(extra_top)
    return doc


DELETE = object()
WRONG = {"null": None, "true": True, "array": [1, 2], "object": {"a": 1}, "string": "x7", "numstr": "123",
         "float": 1.5, "neg": -1, "huge": 10 ** 30, "empty": ""}

# ---------------------------------------------------------------------------------------------

if os.path.isdir(OUT):
    for entry in os.listdir(OUT):
        if entry.startswith("fuzz-"):
            continue
        p = os.path.join(OUT, entry)
        shutil.rmtree(p) if os.path.isdir(p) and not os.path.islink(p) else os.remove(p)
os.makedirs(OUT, exist_ok=True)

base = dumps(realistic())
put("ok-realistic.json", base)
put("ok-realistic.json.gz", gz(base))

# 1. Truncated at many offsets (plain and inside a valid gzip).
offsets = sorted(set([1, 2, 10, 17, 50, 100, 200, 333, 512, 1000, 1500, 2222, 3000, 4096, len(base) // 2,
                      len(base) - 200, len(base) - 50, len(base) - 10, len(base) - 2, len(base) - 1]))
for off in offsets:
    if 0 < off < len(base):
        put("err-trunc-%05d.json" % off, base[:off])
for off in offsets[::3]:
    if 0 < off < len(base):
        put("err-trunc-%05d.json.gz" % off, gz(base[:off]))
# Truncated on each character class boundary of one small event: inside keys, numbers, strings, escapes.
small = dumps(minimal())
for off in range(5, len(small) - 1, 9):
    put("err-trunc-small-%03d.json" % off, small[:off])

# 2. Random byte flips (1 to 4 bytes; some to structural characters, some to high bytes).
raw = base.encode()
for i in range(30):
    b = bytearray(raw)
    for _ in range(rng.randint(1, 4)):
        pos = rng.randrange(len(b))
        b[pos] = rng.choice([rng.randrange(256), ord(rng.choice('{}[]:,"\\0-.eE')), 0])
    put("flip-%02d.json" % i, bytes(b))
gzraw = bytearray(gz(base))
for i in range(8):
    b = bytearray(gzraw)
    pos = rng.randrange(10, len(b))
    b[pos] ^= 1 << rng.randrange(8)
    put("flip-%02d.json.gz" % i, bytes(b))

# 3. Wrong types for every field the loader reads.
for field in ["ph", "name", "cat", "pid", "tid", "ts", "dur", "args", "id"]:
    for tname, value in WRONG.items():
        put("type-event-%s-%s.json" % (field, tname), dumps(minimal({field: value})))
    put("type-event-%s-missing.json" % field, dumps(minimal({field: DELETE})))
for field in ["correlation", "stream", "device", "wait_on_stream", "wait_on_cuda_event_record_corr_id",
              "Collective name", "In msg nelems", "Out msg nelems", "Group size", "dtype", "Process Group Name",
              "Process Group Ranks", "cuda_sync_kind", "name"]:
    for tname, value in WRONG.items():
        args = {"device": 0, "stream": 7, "correlation": 7, field: value}
        kernel_name = "ncclDevKernel_AllReduce_Sum_f32_RING_LL" if field[0].isupper() else "gemm"
        cat = "cuda_sync" if field.startswith("wait") or field == "cuda_sync_kind" else "kernel"
        put("type-args-%s-%s.json" % (field.replace(" ", "_"), tname),
            dumps(minimal({"args": args, "name": kernel_name, "cat": cat})))
for field in ["rank", "world_size", "backend", "pg_config", "pg_count"]:
    for tname, value in WRONG.items():
        info = {"rank": 0, "world_size": 2, "backend": "nccl", "pg_config": [{"pg_name": "0", "ranks": [0, 1]}]}
        info[field] = value
        put("type-dist-%s-%s.json" % (field, tname), dumps(minimal(extra_top={"distributedInfo": info})))
for tname, value in WRONG.items():
    put("type-dist-%s.json" % tname, dumps(minimal(extra_top={"distributedInfo": value})))
    put("type-pg-ranks-%s.json" % tname,
        dumps(minimal(extra_top={"distributedInfo": {"rank": 0, "pg_config": [{"pg_name": "x", "ranks": value}]}})))
    put("type-pg-entry-%s.json" % tname,
        dumps(minimal(extra_top={"distributedInfo": {"rank": 0, "pg_config": [value, {"ranks": [value]}]}})))
    put("type-devprops-%s.json" % tname, dumps(minimal(extra_top={"deviceProperties": value})))
    put("type-devprops-entry-%s.json" % tname, dumps(minimal(extra_top={"deviceProperties": [value]})))
    dev = {"id": value, "name": value, "totalGlobalMem": value, "computeMajor": value, "computeMinor": value,
           "numSms": value}
    put("type-devprops-fields-%s.json" % tname, dumps(minimal(extra_top={"deviceProperties": [dev]})))
    put("type-basetime-%s.json" % tname, dumps(minimal(extra_top={"baseTimeNanoseconds": value})))
    put("type-displayunit-%s.json" % tname, dumps(minimal(extra_top={"displayTimeUnit": value})))
    if tname != "array":
        put("err-type-traceEvents-%s.json" % tname, dumps({"traceEvents": value}))
    put("err-type-traceEvents-entry-%s.json" % tname, dumps({"traceEvents": [value]}))

# 4. Huge, negative and odd numbers.
NUMS = {"int64max": "9223372036854775807", "int64min": "-9223372036854775808", "over64": "9223372036854775808",
        "u64max": "18446744073709551615", "over-u64": "123456789012345678901234567890", "e308": "1e308",
        "e400": "1e400", "neg-e400": "-1e400", "tiny": "1e-400", "neg": "-5", "neg-zero": "-0",
        "frac-long": "0.00000000000000000000001", "exp-huge": "1e999999999999", "e18": "9.2e18",
        "big-ts-us": "9223372036854775.807", "zero": "0"}
tmpl = dumps(minimal({"FIELD": "@@"}))
for field in ["ts", "dur", "pid", "tid"]:
    for tname, lit in NUMS.items():
        doc = minimal()
        doc["traceEvents"][2][field] = "@@"
        put("num-%s-%s.json" % (field, tname), dumps(doc).replace('"@@"', lit))
for field in ["correlation", "stream", "device", "In msg nelems", "Group size", "wait_on_stream"]:
    for tname in ["int64max", "int64min", "over64", "e308", "neg", "big-ts-us"]:
        doc = minimal({"name": "ncclDevKernel_AllReduce", "args": {"device": 0, "stream": 7, "correlation": 7,
                                                                   "Collective name": "allreduce"}})
        doc["traceEvents"][2]["args"][field] = "@@"
        put("num-args-%s-%s.json" % (field.replace(" ", "_"), tname), dumps(doc).replace('"@@"', NUMS[tname]))
for field in ["rank", "world_size"]:
    for tname in ["int64max", "int64min", "over64", "neg", "e308"]:
        doc = minimal(extra_top={"distributedInfo": {"rank": 0, "world_size": 2, field: "@@"}})
        put("num-dist-%s-%s.json" % (field, tname), dumps(doc).replace('"@@"', NUMS[tname]))
put("num-dist-world-16M.json", dumps(minimal(extra_top={"distributedInfo": {"rank": 0, "world_size": 16777215}})))
put("num-pg-ranks-int32max.json",
    dumps(minimal(extra_top={"distributedInfo": {"rank": 0, "pg_config": [{"ranks": [0, 2147483647]}]}})))
put("num-pg-ranks-int64.json",
    dumps(minimal(extra_top={"distributedInfo": {"rank": 0, "pg_config": [{"ranks": [-5, 9223372036854775807]}]}})))
put("num-pg-ranks-string-huge.json",
    dumps(minimal(extra_top={"distributedInfo": {"rank": 0, "pg_config": [{"ranks": "[0, 1099511627775, -3]"}]}})))
doc = minimal({"name": "ncclDevKernel_AllReduce", "args": {
    "device": 0, "stream": 7, "correlation": 7, "Collective name": "allreduce",
    "Process Group Ranks": "[0, 2147483647, 99999999999, -1]", "Group size": 2147483648}})
put("num-coll-ranks-huge.json", dumps(doc))
put("num-basetime-huge.json", dumps(minimal(extra_top={"baseTimeNanoseconds": 9223372036854775807})))
# Events spanning the whole int64 range: end = ts + dur overflows if unchecked.
ev = minimal()["traceEvents"]
ev[0]["ts"], ev[0]["dur"] = "@A", "@B"
put("num-ts-plus-dur-overflow.json", dumps(minimal(events=ev)).replace('"@A"', "9223372036854775.000")
    .replace('"@B"', "9223372036854775.000"))
# The largest times the loader accepts (|ts| <= 4e15 us, dur <= 1e12 us): later stages must cope.
ev = minimal()["traceEvents"]
ev[0]["ts"], ev[0]["dur"] = "@A", "@B"
ev[1]["ts"] = "@C"
put("num-extreme-accepted-span.json", dumps(minimal(events=ev)).replace('"@A"', "3999999999999999.999")
    .replace('"@B"', "999999999999.999").replace('"@C"', "-3999999999999999.999"))
put_later = [("num-extreme-accepted-rank-0.json", "-3999999999999999"), ("num-extreme-accepted-rank-1.json",
                                                                            "3999999999999999")]
ev = minimal()["traceEvents"]
ev[0]["ts"] = "@A"
ev[1]["ts"] = "@B"
put("num-ts-far-apart.json", dumps(minimal(events=ev)).replace('"@A"', "-9223372036854775.000")
    .replace('"@B"', "9223372036854775.000"))
ev = [{"ph": "B", "name": "a", "pid": 1, "tid": 1, "ts": "@A"}, {"ph": "E", "pid": 1, "tid": 1, "ts": "@B"}]
put("num-begin-end-overflow.json", dumps(minimal(events=ev)).replace('"@A"', "-9223372036854775.000")
    .replace('"@B"', "9223372036854775.000"))

# 5. NaN / Infinity literals (invalid JSON, but Python and some tools write them).
for lit in ["NaN", "Infinity", "-Infinity", "nan", "inf"]:
    for field in ["ts", "dur", "pid"]:
        doc = minimal()
        doc["traceEvents"][2][field] = "@@"
        put("err-lit-%s-%s.json" % (lit.replace("-", "neg"), field), dumps(doc).replace('"@@"', lit))

# 6. Deep nesting.
put("err-deep-100k-brackets.json", "[" * 100000)
put("err-deep-20k-braces.json", '{"a":' * 20000)
put("deep-args-5k.json", dumps(minimal()).replace('"args":{"device"', '"args":{"deep":' + "[" * 5000 + "]" * 5000
                                                  + ',"device"', 1))
put("err-deep-in-events.json", '{"traceEvents":[' + "[" * 20000 + "]" * 20000 + "]}")
put("deep-unused-field-2k.json", dumps(minimal(extra_top={"x": "@@"})).replace('"@@"', "[" * 2000 + "]" * 2000))

# 7. Non-UTF-8 and control characters in names.
def with_name(name_bytes, where="name"):
    doc = dumps(minimal({where: "@@"})).encode()
    return doc.replace(b'"@@"', b'"' + name_bytes + b'"')


put("utf8-invalid-bytes.json", with_name(b"gemm\xff\xfe\x80kernel"))
put("utf8-overlong.json", with_name(b"\xc0\xaf\xe0\x80\xaf"))
put("utf8-truncated-seq.json", with_name(b"abc\xe2\x82"))
put("utf8-lone-surrogate-escape.json", with_name(b"a\\ud800b\\udfff"))
put("utf8-nul-escape.json", with_name(b"gemm\\u0000kernel"))
put("utf8-raw-control.json", with_name(b"gemm\x01\x02\x1fkernel"))
put("utf8-raw-newline.json", with_name(b"gemm\nkernel"))
put("utf8-bad-escape.json", with_name(b"gemm\\qkernel"))
put("utf8-short-unicode-escape.json", with_name(b"gemm\\u12"))
put("utf8-cat-invalid.json", with_name(b"kern\xffel", "cat"))
put("utf8-ph-invalid.json", with_name(b"\xff", "ph"))
put("utf8-key-invalid.json", dumps(minimal()).encode().replace(b'"dur"', b'"d\xffur"', 1))
put("ok-utf8-escapes.json", with_name(b"\\u00e9\\u4e2d\\ud83d\\ude00 \\\" \\\\ \\/ \\b\\f\\n\\r\\t"))
put("name-20k.json", with_name(b"x" * 20000))
put("utf8-bom.json", b"\xef\xbb\xbf" + dumps(minimal()).encode())
put("utf16le.json", dumps(minimal()).encode("utf-16-le"))
put("utf16-bom.json", dumps(minimal()).encode("utf-16"))

# 8. Rank sets: duplicate ranks, different clocks, missing collective peers, mismatched collectives.
def put_set(folder, docs):
    for name, doc in docs.items():
        put(os.path.join(folder, name), dumps(doc) if not isinstance(doc, (bytes, str)) else doc)


put_set("ok-set-duplicate-ranks", {"a.json": realistic(0), "b.json": realistic(0), "c.json": realistic(0)})
put_set("ok-set-duplicate-ranks-by-name", {"rank-1.json": minimal(), "x_rank1.json": minimal()})
put_set("ok-set-different-clocks", {
    "rank-0.json": realistic(0, clock_ns=1_700_000_000_000_000_000),
    "rank-1.json": realistic(1, clock_ns=5, base_us=10)})
put_set("ok-set-missing-peers", {"rank-0.json": realistic(0, world=8), "rank-5.json": realistic(5, world=8)})
put_set("ok-set-collective-count-mismatch", {"rank-0.json": realistic(0, nccl_count=3),
                                             "rank-1.json": realistic(1, nccl_count=1)})
put_set("ok-set-collective-pg-mismatch", {"rank-0.json": realistic(0, pg="0"), "rank-1.json": realistic(1, pg="7")})
mismatch = realistic(1)
for e in mismatch["traceEvents"]:
    if e.get("name", "").startswith("ncclDev"):
        e["args"]["In msg nelems"] = 3
        e["args"]["dtype"] = "Half"
        e["name"] = "ncclDevKernel_AllGather_RING_LL"
put_set("ok-set-collective-size-mismatch", {"rank-0.json": realistic(0), "rank-1.json": mismatch})
for name, ts0 in put_later:
    doc = realistic(int(name[-6]), base_us=0)
    put(os.path.join("set-extreme-clocks", name), dumps(doc).replace('"ts":0,', '"ts":%s,' % ts0, 1))
put_set("ok-set-no-metadata", {"rank-0.json": realistic(0, with_meta=False),
                               "rank-1.json": realistic(1, with_meta=False)})
put_set("ok-set-rank-beyond-world", {"rank-0.json": realistic(0, world=2), "rank-9.json": realistic(9, world=2)})
put_set("err-set-one-bad-file", {"rank-0.json": realistic(0), "rank-1.json": base[:777]})
put_set("err-set-one-empty-file", {"rank-0.json": realistic(0), "rank-1.json": b""})
put_set("err-set-no-traces", {"README.txt": "no traces in here\n"})
put_set("err-dir-instead-of-file.json", {"notes.txt": "a folder named like a trace\n"})
put_set("err-set-subdir-only", {"sub.json/inner.txt": "x\n"})

# 9. Empty and degenerate traces.
put("ok-empty-traceEvents.json", '{"traceEvents":[]}')
put("ok-array-root-empty.json", "[]")
put("ok-array-root.json", dumps(minimal()["traceEvents"]))
put("ok-only-metadata.json", dumps({"traceEvents": [{"ph": "M", "name": "process_name", "pid": 0,
                                                     "args": {"name": "x"}}]}))
put("err-object-no-traceEvents.json", "{}")
put("err-zero-bytes.json", b"")
put("err-zero-bytes.json.gz", b"")
put("err-whitespace-only.json", " \n\t\r " * 20)
put("err-nul-bytes.json", b"\0" * 64)
put("err-scalar-root.json", "42")
put("err-string-root.json", '"traceEvents"')
put("err-trailing-garbage.json", dumps(minimal()) + "xyz")
put("err-two-documents.json", dumps(minimal()) + dumps(minimal()))
put("err-trailing-comma.json", dumps(minimal())[:-2] + ",]}")
put("err-single-quotes.json", dumps(minimal()).replace('"', "'"))
put("err-comments.json", "// trace\n" + dumps(minimal()))
put("err-png.json", b"\x89PNG\r\n\x1a\n" + bytes(rng.randrange(256) for _ in range(200)))
put("err-random-binary.json", bytes(rng.randrange(256) for _ in range(4096)))
put("err-execution-trace-not-kineto.json", dumps({"schema": "1.0.1", "pid": 1, "nodes": [{"id": 1}]}))
put("dup-keys.json", dumps(minimal()).replace('"dur":20', '"dur":20,"dur":-5,"ts":"x","ph":"Q"', 1))
put("odd-phases.json", dumps(minimal(events=[
    {"ph": "B", "name": "open", "pid": 1, "tid": 1, "ts": 5},
    {"ph": "E", "pid": 1, "tid": 1, "ts": 3},
    {"ph": "E", "pid": 1, "tid": 2, "ts": 9},
    {"ph": "b", "name": "async", "id": 1, "pid": 1, "tid": 1, "ts": 1},
    {"ph": "C", "name": "counter", "pid": 1, "ts": 1, "args": {"v": 1}},
    {"ph": "XYZ", "name": "long ph", "pid": 1, "tid": 1, "ts": 1, "dur": 1},
    {"ph": "i", "name": "instant", "pid": 1, "tid": 1, "ts": 2},
    {"ph": "s", "name": "flow", "id": -4, "pid": 1, "tid": 1, "ts": 2, "cat": "ac2g"},
    {"ph": "f", "name": "flow", "id": "abc", "pid": 1, "tid": 1, "ts": 2, "cat": "ac2g"},
])))
put("err-event-empty-object.json", dumps(minimal(events=[{}])))
put("err-ph-empty.json", dumps(minimal({"ph": ""})))

# 10. GPU ops with no launch, cycles a bad trace could create in the graph, overlapping ops.
kern = lambda name, ts, dur, corr, stream=7, cat="kernel": {
    "ph": "X", "cat": cat, "name": name, "pid": 0, "tid": stream, "ts": ts, "dur": dur,
    "args": {"device": 0, "stream": stream, "correlation": corr}}
launch = lambda ts, corr, name="cudaLaunchKernel": {
    "ph": "X", "cat": "cuda_runtime", "name": name, "pid": 1, "tid": 1, "ts": ts, "dur": 2,
    "args": {"correlation": corr}}
put("ok-gpu-ops-no-launch.json", dumps(minimal(events=[kern("gemm", 10 + 10 * i, 5, 1000 + i) for i in range(20)])))
put("ok-gpu-only-no-cpu.json", dumps(minimal(events=[kern("gemm", 10, 5, -1), kern("gemm", 20, 5, 5, 8)])))
put("cycle-kernel-before-launch.json", dumps(minimal(events=[launch(100, 1), kern("gemm", 10, 5, 1)])))
put("cycle-launch-order-reversed.json", dumps(minimal(events=[
    launch(10, 2), launch(20, 1), kern("a", 30, 5, 1), kern("b", 40, 5, 2)])))
put("cycle-duplicate-correlation.json", dumps(minimal(events=[
    launch(10, 1), launch(20, 1), kern("a", 30, 5, 1), kern("b", 40, 5, 1, stream=8)])))
put("cycle-sync-waits-on-itself.json", dumps(minimal(events=[
    launch(10, 1, "cudaEventRecord"), launch(12, 2, "cudaStreamWaitEvent"), launch(14, 3),
    {"ph": "X", "cat": "cuda_sync", "name": "Stream Wait Event", "pid": 0, "tid": 7, "ts": 15, "dur": 0,
     "args": {"device": 0, "stream": 7, "correlation": 2, "wait_on_stream": 7,
              "wait_on_cuda_event_record_corr_id": 2}},
    kern("a", 20, 5, 3)])))
put("cycle-two-streams-wait-each-other.json", dumps(minimal(events=[
    launch(10, 1, "cudaEventRecord"), launch(11, 2, "cudaEventRecord"),
    launch(12, 3, "cudaStreamWaitEvent"), launch(13, 4, "cudaStreamWaitEvent"), launch(14, 5), launch(15, 6),
    {"ph": "X", "cat": "cuda_sync", "name": "Stream Wait Event", "pid": 0, "tid": 7, "ts": 16, "dur": 0,
     "args": {"device": 0, "stream": 7, "correlation": 3, "wait_on_stream": 8,
              "wait_on_cuda_event_record_corr_id": 2}},
    {"ph": "X", "cat": "cuda_sync", "name": "Stream Wait Event", "pid": 0, "tid": 8, "ts": 16, "dur": 0,
     "args": {"device": 0, "stream": 8, "correlation": 4, "wait_on_stream": 7,
              "wait_on_cuda_event_record_corr_id": 1}},
    kern("a", 20, 5, 5, 7), kern("b", 20, 5, 6, 8)])))
put("cycle-sync-unknown-record.json", dumps(minimal(events=[
    launch(10, 1, "cudaStreamWaitEvent"),
    {"ph": "X", "cat": "cuda_sync", "name": "Stream Wait Event", "pid": 0, "tid": 7, "ts": 16, "dur": 0,
     "args": {"device": 0, "stream": 7, "correlation": 1, "wait_on_stream": 99,
              "wait_on_cuda_event_record_corr_id": 123456}}])))
put("cycle-device-sync-before-work.json", dumps(minimal(events=[
    launch(10, 1), {"ph": "X", "cat": "cuda_runtime", "name": "cudaDeviceSynchronize", "pid": 1, "tid": 1,
                    "ts": 5, "dur": 100, "args": {"correlation": 2}}, kern("a", 20, 5, 1)])))
put("overlap-same-stream.json", dumps(minimal(events=[
    launch(1, 1), launch(2, 2), launch(3, 3), kern("a", 10, 100, 1), kern("b", 20, 10, 2), kern("c", 20, 0, 3)])))
put("zero-durations.json", dumps(minimal(events=[launch(1, 1), kern("a", 10, 0, 1), kern("b", 10, 0, 2)])))
put("same-ts-everything.json", dumps(minimal(events=[launch(5, i) for i in range(30)] +
                                             [kern("k%d" % i, 5, 0, i, 7 + i % 3) for i in range(30)])))
put("flows-loop.json", dumps(minimal(events=[
    launch(10, 1), kern("a", 20, 5, -1),
    {"ph": "s", "id": 1, "pid": 0, "tid": 7, "ts": 20, "cat": "ac2g", "name": "ac2g"},
    {"ph": "f", "id": 1, "pid": 1, "tid": 1, "ts": 10, "cat": "ac2g", "name": "ac2g"},
    {"ph": "s", "id": 1, "pid": 1, "tid": 1, "ts": 10, "cat": "ac2g", "name": "ac2g"}])))
put("nested-same-start.json", dumps(minimal(events=[
    {"ph": "X", "cat": "cpu_op", "name": "n%d" % i, "pid": 1, "tid": 1, "ts": 10, "dur": 100 - i} for i in range(90)]
    + [launch(10, 1), kern("a", 20, 5, 1)])))
put("collective-no-launch.json", dumps(minimal(events=[
    kern("ncclDevKernel_AllReduce_Sum_f32_RING_LL", 10, 5, 1, 84),
    kern("ncclKernel_AllGather_RING_LL_Sum_int8_t", 20, 5, 2, 84)])))
put("collective-group-size-zero.json", dumps(minimal(events=[
    launch(1, 1), dict(kern("ncclDevKernel_AllReduce", 10, 5, 1, 84), args={
        "device": 0, "stream": 84, "correlation": 1, "Collective name": "allreduce", "Group size": 0,
        "In msg nelems": -1, "Out msg nelems": 0, "dtype": "NoSuchType", "Process Group Ranks": "[]"})])))
put("collective-unknown-name.json", dumps(minimal(events=[
    launch(1, 1), dict(kern("ncclDevKernel_Weird", 10, 5, 1, 84), args={
        "device": 0, "stream": 84, "correlation": 1, "Collective name": "all_to_all_v_but_odd",
        "Group size": 1, "Process Group Ranks": "[0"})])))

# 11. Broken gzip.
good_gz = gz(base)
put("err-gzip-header-only.json.gz", good_gz[:10])
for off in [2, 5, 11, 20, len(good_gz) // 3, len(good_gz) // 2, len(good_gz) - 9, len(good_gz) - 4,
            len(good_gz) - 1]:
    put("err-gzip-trunc-%05d.json.gz" % off, good_gz[:off])
put("err-gzip-garbage.json.gz", b"\x1f\x8b\x08\x00" + bytes(rng.randrange(256) for _ in range(300)))
bad_crc = bytearray(good_gz)
bad_crc[-6] ^= 0xFF
put("err-gzip-bad-crc.json.gz", bytes(bad_crc))
bad_len = bytearray(good_gz)
bad_len[-2] ^= 0x40
put("gzip-bad-isize.json.gz", bytes(bad_len))
put("err-gzip-of-garbage.json.gz", gz(bytes(rng.randrange(256) for _ in range(500))))
put("gzip-trailing-garbage.json.gz", good_gz + b"garbage after the member")
put("gzip-trailing-zeros.json.gz", good_gz + b"\0" * 32)
put("ok-gzip-two-members.json.gz", gz(base[:1000]) + gz(base[1000:]))
put("gzip-empty-member-then-data.json.gz", gz(b"") + good_gz)
put("err-gzip-empty-content.json.gz", gz(b""))
put("gzip-raw-deflate-with-json-name.json.gz", zlib.compress(base.encode())[2:-4])
put("err-zlib-not-gzip.json.gz", zlib.compress(base.encode()))
put("gzip-isize-lies-huge.json.gz", good_gz[:-4] + b"\xff\xff\xff\xff")
# A bomb that is small on disk: 32 MB of spaces around an empty trace.
put("gzip-bomb-32MB-whitespace.json.gz", gz(b'{"traceEvents":[' + b" " * (32 << 20) + b"]}"))
put("err-gzip-bomb-32MB-brackets.json.gz", gz(b"[" * (32 << 20)))
put("plain-json-named-gz.json.gz", dumps(minimal()))
put("ok-gzip-named-json.json", gz(dumps(minimal())))

# 12. Nsight Systems SQLite exports (io/nsys): a minimal valid one, then broken and foreign databases.
def sqlite_bytes(statements):
    """The bytes of a new SQLite database made by statements (a temporary file, then read back)."""
    import sqlite3
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "db.sqlite")
        con = sqlite3.connect(path)
        con.executescript(statements)
        con.commit()
        con.close()
        with open(path, "rb") as f:
            return f.read()


NSYS_PID = 4242 << 24  # globalPid: the process id above the 24 thread bits
nsys_ok = sqlite_bytes("""
CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT);
INSERT INTO StringIds VALUES (1, 'cudaLaunchKernel_v7000'), (2, 'gemm_kernel'), (3, 'cudaDeviceSynchronize_v3020');
CREATE TABLE META_DATA_EXPORT (name TEXT, value TEXT);
INSERT INTO META_DATA_EXPORT VALUES ('EXPORT_PRODUCT_VERSION', '2025.1.1.110'), ('EXPORT_SCHEMA_VERSION', '3.17.1');
CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER, end INTEGER, eventClass INTEGER, globalTid INTEGER,
  correlationId INTEGER, nameId INTEGER, returnValue INTEGER, callchainId INTEGER);
INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (1000, 6000, 1, %(tid)d, 1, 1, 0, NULL),
  (7000, 12000, 1, %(tid)d, 2, 1, 0, NULL), (13000, 40000, 1, %(tid)d, 3, 3, 0, NULL);
CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER, end INTEGER, deviceId INTEGER, streamId INTEGER,
  correlationId INTEGER, globalPid INTEGER, demangledName INTEGER, gridX INTEGER, gridY INTEGER, gridZ INTEGER,
  blockX INTEGER, blockY INTEGER, blockZ INTEGER);
INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (8000, 20000, 0, 7, 1, %(pid)d, 2, 108, 1, 1, 256, 1, 1),
  (20000, 38000, 0, 7, 2, %(pid)d, 2, 108, 1, 1, 256, 1, 1);
CREATE TABLE NVTX_EVENTS (start INTEGER, end INTEGER, eventType INTEGER, rangeId INTEGER, category INTEGER,
  color INTEGER, text TEXT, globalTid INTEGER, endGlobalTid INTEGER, textId INTEGER, domainId INTEGER);
INSERT INTO NVTX_EVENTS VALUES (500, 41000, 59, NULL, NULL, NULL, 'train_step', %(tid)d, NULL, NULL, 0),
  (900, 13000, 59, NULL, NULL, NULL, 'aten::mm, seq = 1, sizes = [[64, 64], [64, 64]]', %(tid)d, NULL, NULL, 0);
CREATE TABLE TARGET_INFO_GPU (id INTEGER, name TEXT, smCount INTEGER);
INSERT INTO TARGET_INFO_GPU VALUES (0, 'NVIDIA H100 80GB HBM3', 132);
""" % {"pid": NSYS_PID, "tid": NSYS_PID + 17})
put("ok-nsys-minimal.sqlite", nsys_ok)
put("ok-nsys-minimal-named-json.json", nsys_ok)  # detected by content, not by name
put("ok-nsys-minimal.sqlite.gz", gz(nsys_ok))
put("err-nsys-truncated-half.sqlite", nsys_ok[:len(nsys_ok) // 2])
put("err-nsys-truncated-header.sqlite", nsys_ok[:100])
put("err-nsys-truncated-half.sqlite.gz", gz(nsys_ok[:len(nsys_ok) // 2]))
put("err-nsys-magic-then-garbage.sqlite", nsys_ok[:16] + bytes(rng.randrange(256) for _ in range(3000)))
flipped = bytearray(nsys_ok)
for at in range(len(flipped) // 3, len(flipped), 977):
    flipped[at] ^= 0x5A
put("nsys-flipped-bytes.sqlite", bytes(flipped))
put("err-nsys-foreign-database.sqlite", sqlite_bytes(
    "CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO users VALUES (1, 'ada');"))
put("err-nsys-no-gpu-work.sqlite", sqlite_bytes("""
CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT);
CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER, end INTEGER, globalTid INTEGER, correlationId INTEGER,
  nameId INTEGER);
INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (1, 2, 16777217, 1, 1);
"""))
put("err-nsys-kernel-table-without-columns.sqlite", sqlite_bytes("""
CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT);
CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (finish INTEGER);
INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (1);
"""))

total = sum(os.path.getsize(p) for p in written)
print("wrote %d entries, %d bytes, to %s" % (len(written), total, os.path.relpath(OUT, ROOT)))
