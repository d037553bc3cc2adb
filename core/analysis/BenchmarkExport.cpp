#include "analysis/BenchmarkExport.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <tuple>

namespace sl {

EventRef shapedOpOf(const Rank& rank, EventRef gpuOp) {
    const auto& ev = rank.tracks[gpuOp.track].events;
    const EventRef call =
        ev.link[gpuOp.index] == kNoLink ? EventRef{} : EventRef::unpack(ev.link[gpuOp.index]);
    if (!call.valid() || call.track >= rank.tracks.size()) return {};
    const auto& cev = rank.tracks[call.track].events;
    for (std::int32_t k = cev.parent[call.index]; k >= 0;) {
        const EventRef r{call.track, static_cast<std::uint32_t>(k)};
        if (cev.kind[r.index] == EventKind::CpuOp && rank.name(r).rfind("aten::", 0) == 0 &&
            hasInputDims(rank.args(r)))
            return r;
        k = cev.parent[r.index];
    }
    return {};
}

BenchPlan benchmarkPlan(const TraceSet& set, std::uint32_t rankIndex) {
    const Rank& rank = set.ranks[rankIndex];
    BenchPlan plan;
    plan.rank = rank.rank;
    plan.worldSize = std::max<int>(rank.worldSize, static_cast<int>(set.ranks.size()));
    // GPU ops in start order across streams.
    std::vector<std::tuple<TimeNs, std::uint32_t, std::uint32_t>> gpu;
    for (std::uint32_t t = 0; t < rank.tracks.size(); ++t) {
        const auto& ev = rank.tracks[t].events;
        if (!rank.tracks[t].isGpu()) continue;
        for (std::uint32_t i = 0; i < ev.size(); ++i)
            if (isGpuOp(ev.kind[i])) gpu.emplace_back(ev.start[i], t, i);
    }
    std::sort(gpu.begin(), gpu.end());
    std::map<std::uint64_t, std::size_t> opOf; // CPU op (packed EventRef) -> index in plan.ops
    for (const auto& [start, t, i] : gpu) {
        (void)start;
        ++plan.gpuOps;
        const Track& track = rank.tracks[t];
        const auto& ev = track.events;
        const std::string_view name = rank.strings.str(ev.name[i]);
        if (ev.kind[i] == EventKind::Kernel && isCollectiveKernelName(name)) {
            BenchOp op;
            op.collective = true;
            op.stream = track.stream();
            op.type = collectiveTypeFromKernelName(name);
            op.gpuOps = 1;
            if (ev.extra[i] != kNoExtra && ev.extra[i] < rank.collectives.size()) {
                const CollectiveMeta& m = rank.collectives[ev.extra[i]];
                if (m.type != CollectiveType::Unknown) op.type = m.type;
                op.bytes = m.bytes(rank.strings);
            }
            if (op.bytes < 0) ++plan.collectivesWithoutSize;
            op.name = std::string(collectiveTypeName(op.type));
            plan.ops.push_back(std::move(op));
            continue;
        }
        const EventRef found = shapedOpOf(rank, EventRef{t, i});
        if (!found.valid()) {
            ++plan.gpuOpsWithoutAtenOp;
            continue;
        }
        auto [it, fresh] = opOf.try_emplace(found.packed(), plan.ops.size());
        if (!fresh) {
            ++plan.ops[it->second].gpuOps;
            continue;
        }
        BenchOp op;
        op.name = std::string(rank.name(found));
        op.stream = track.stream();
        op.gpuOps = 1;
        // The shapes as recorded in the trace (an attached ET's are not re-created).
        if (auto shapes = parseOpShapes(rank.args(found))) {
            op.inputDims = std::move(shapes->dimsJson);
            op.inputTypes = std::move(shapes->typesJson);
        } else {
            op.inputDims = op.inputTypes = "[]";
        }
        plan.ops.push_back(std::move(op));
    }
    return plan;
}

namespace {

// The script's runtime: synthesizes each op's inputs from its recorded shapes and types and calls
// it through torch.ops; collectives through torch.distributed. Kept as one raw string so the
// generated file is self-contained.
constexpr const char* kRuntime = R"PY(
DTYPES = {
    "float": torch.float32, "double": torch.float64, "c10::Half": torch.float16, "half": torch.float16,
    "c10::BFloat16": torch.bfloat16, "BFloat16": torch.bfloat16, "long int": torch.int64, "long": torch.int64,
    "int": torch.int32, "bool": torch.bool, "unsigned char": torch.uint8, "signed char": torch.int8,
    "short int": torch.int16,
}


def make_input(dims, typ, device):
    """A tensor of the recorded shape and dtype, a scalar, or None for what cannot be re-created."""
    if typ == "Scalar":
        return 1
    dtype = DTYPES.get(typ)
    if dtype is None or not isinstance(dims, list) or any(not isinstance(d, int) for d in dims):
        return None
    if dtype.is_floating_point:
        return torch.rand(dims, dtype=dtype, device=device)
    if dtype == torch.bool:
        return torch.zeros(dims, dtype=dtype, device=device)
    return torch.randint(0, 2, dims, dtype=dtype, device=device)


def resolve(name):
    ns, _, op = name.partition("::")
    return getattr(getattr(torch.ops, ns), op)


class Op:
    def __init__(self, spec, device, streams):
        self.name = spec["name"]
        self.stream = streams[spec["stream"]]
        self.spec = spec
        self.fn = None
        self.args = None
        if spec["collective"]:
            numel = max(1, spec["bytes"] // 4) if spec["bytes"] and spec["bytes"] > 0 else 0
            self.buf = torch.rand(numel, device=device) if numel else None
            self.out = torch.empty_like(self.buf) if numel else None
        else:
            try:
                self.fn = resolve(self.name)
            except (AttributeError, RuntimeError):
                self.fn = None
            self.args = [make_input(d, t, device) for d, t in zip(spec["dims"], spec["types"])]

    def run(self):
        """True when the op ran; False when it cannot be re-created from the recorded inputs."""
        with torch.cuda.stream(self.stream):
            if self.spec["collective"]:
                return run_collective(self)
            if self.fn is None:
                return False
            try:
                self.fn(*self.args)
                return True
            except (RuntimeError, TypeError, IndexError, ValueError):
                pass
            try:  # the tensor inputs alone (optional arguments left at their defaults)
                self.fn(*[a for a in self.args if isinstance(a, torch.Tensor)])
                return True
            except (RuntimeError, TypeError, IndexError, ValueError):
                return False


def run_collective(op):
    if op.buf is None or not dist.is_initialized():
        return False
    kind = op.spec["name"]
    world = dist.get_world_size()
    if kind == "all_reduce":
        dist.all_reduce(op.buf)
    elif kind in ("all_to_all", "send_recv"):
        n = op.buf.numel() - op.buf.numel() % world
        dist.all_to_all_single(op.out[:n], op.buf[:n])
    elif kind == "all_gather":
        dist.all_gather_into_tensor(torch.empty(op.buf.numel() * world, device=op.buf.device), op.buf)
    elif kind == "reduce_scatter":
        n = op.buf.numel() - op.buf.numel() % world
        dist.reduce_scatter_tensor(op.out[: n // world], op.buf[:n])
    elif kind == "broadcast":
        dist.broadcast(op.buf, src=0)
    elif kind == "reduce":
        dist.reduce(op.buf, dst=0)
    else:
        return False
    return True


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--warmup", type=int, default=5)
    parser.add_argument("--iters", type=int, default=20)
    parser.add_argument("--trace", default=f"bench_rank{RANK}.pt.trace.json")
    a = parser.parse_args()
    if "WORLD_SIZE" in os.environ and int(os.environ["WORLD_SIZE"]) > 1:
        dist.init_process_group("nccl")
        if dist.get_world_size() != WORLD_SIZE:
            print(f"note: recorded on {WORLD_SIZE} ranks, running on {dist.get_world_size()}", file=sys.stderr)
    local = int(os.environ.get("LOCAL_RANK", "0"))
    torch.cuda.set_device(local)
    device = torch.device("cuda", local)
    streams = {s: torch.cuda.Stream(device=device) for s in sorted({o["stream"] for o in OPS})}
    ops = [Op(o, device, streams) for o in OPS]
    skipped = {}

    def iteration():
        for op in ops:
            if not op.run():
                skipped[op.name] = skipped.get(op.name, 0) + 1
        torch.cuda.synchronize()

    for _ in range(a.warmup):
        iteration()
    skipped.clear()
    acts = [torch.profiler.ProfilerActivity.CPU, torch.profiler.ProfilerActivity.CUDA]
    with torch.profiler.profile(activities=acts, record_shapes=True) as prof:
        start = time.perf_counter()
        for step in range(a.iters):
            with torch.profiler.record_function(f"ProfilerStep#{step}"):
                iteration()
        elapsed = (time.perf_counter() - start) / max(1, a.iters)
    prof.export_chrome_trace(a.trace)
    ran = len(ops) - len([o for o in ops if o.name in skipped])
    print(f"rank {RANK}: {elapsed * 1e6:.1f} us per iteration; {ran} of {len(ops)} ops re-created; trace {a.trace}")
    for name, n in sorted(skipped.items()):
        print(f"  not re-created: {name} ({n // max(1, a.iters)} per iteration)", file=sys.stderr)
    if dist.is_initialized():
        dist.destroy_process_group()


if __name__ == "__main__":
    main()
)PY";

} // namespace

std::string benchmarkScript(const BenchPlan& plan, const std::string& source) {
    nlohmann::json ops = nlohmann::json::array();
    for (const auto& o : plan.ops) {
        nlohmann::json j;
        j["name"] = o.name;
        j["stream"] = o.stream;
        j["collective"] = o.collective;
        j["gpu_ops"] = o.gpuOps;
        if (o.collective) {
            j["bytes"] = o.bytes;
            j["dims"] = nlohmann::json::array();
            j["types"] = nlohmann::json::array();
        } else {
            j["dims"] = nlohmann::json::parse(o.inputDims, nullptr, false);
            j["types"] = nlohmann::json::parse(o.inputTypes, nullptr, false);
            if (j["dims"].is_discarded()) j["dims"] = nlohmann::json::array();
            if (j["types"].is_discarded()) j["types"] = nlohmann::json::array();
        }
        ops.push_back(std::move(j));
    }
    // One operator per line, so that a diff of two scripts reads op by op.
    std::string opsText = "[\n";
    for (std::size_t i = 0; i < ops.size(); ++i)
        opsText += " " + ops[i].dump() + (i + 1 < ops.size() ? ",\n" : "\n");
    opsText += "]";
    // The JSON sits in a raw triple-quoted string: a stray """ in a name would end it early.
    for (std::size_t p = 0; (p = opsText.find("\"\"\"", p)) != std::string::npos;)
        opsText.replace(p, 3, "\\u0022\\u0022\\u0022");
    std::string out;
    out += "#!/usr/bin/env python3\n";
    out += "\"\"\"Benchmark re-creating the GPU work of rank " + std::to_string(plan.rank) + " of " +
           std::to_string(plan.worldSize) + " (generated by sightline-cli export-benchmark).\n\n";
    out += "Run: torchrun --nproc_per_node=" + std::to_string(plan.worldSize) +
           " bench.py  (or python3 bench.py for one rank without collectives).\n";
    out += "The same operators with the same input shapes and dtypes as recorded, on the same streams, the\n"
           "same collectives and sizes, a warm-up and a timed loop that profiles itself; ops whose inputs\n"
           "cannot be re-created from the recorded shapes are skipped and listed.\n\"\"\"\n";
    out += "# Source: " + source + "\n";
    out += "import argparse\nimport json\nimport os\nimport sys\nimport time\n\nimport torch\nimport "
           "torch.distributed as "
           "dist\n\n";
    out += "RANK = " + std::to_string(plan.rank) + "\n";
    out += "WORLD_SIZE = " + std::to_string(plan.worldSize) + "\n";
    out += "# BEGIN OPS (one entry per recorded operator or collective, in launch order)\n";
    out += "OPS = json.loads(r\"\"\"" + opsText + "\"\"\")\n";
    out += "# END OPS\n";
    out += kRuntime;
    return out;
}

} // namespace sl
